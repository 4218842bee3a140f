import DSP

/// What the engine accumulates for one port between ticks and over the run: the peak since the last tick, the
/// 300 ms RMS window, and the run's peak and sum of squares. One object per port, so the worker that measures
/// a port writes only its own.
final class PortLevels {
    var rms: RMSWindow
    var peakSinceTick: Float = 0
    var runPeak: Float = 0
    var runSumOfSquares: Double = 0

    init(windowFrames: Int) {
        rms = RMSWindow(windowFrames: windowFrames)
    }

    /// Takes in a measured stretch of samples.
    func add(peak: Float, sumOfSquares: Float, frames: Int) {
        peakSinceTick = max(peakSinceTick, peak)
        runPeak = max(runPeak, peak)
        runSumOfSquares += Double(sumOfSquares)
        rms.add(sumOfSquares: Double(sumOfSquares), frames: frames)
    }

    /// Folds in a peak the callback saw in periods the ring had to drop.
    func addDropped(peak: Float) {
        peakSinceTick = max(peakSinceTick, peak)
        runPeak = max(runPeak, peak)
    }
}
