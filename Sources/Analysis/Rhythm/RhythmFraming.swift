/// Hop and window of the rhythm analysis, fixed in seconds so that onsets and beats land on the same
/// instants at any sample rate.
///
/// The hop is 128 samples at 44.1 kHz (2.9 ms, 345 frames/s), as aubio's best onset setting (hfc 1024/128,
/// F 0.944 with mir_eval); the window is 1024 samples at 44.1 kHz (23.2 ms). At other rates the window is rounded to
/// a multiple of 32 samples so the FFT length factors into 2, 5 and 7 (1120 at 48 kHz, 2240 at 96 kHz),
/// which FFTW transforms about as fast as a power of two; the bins stay ~43 Hz wide at every rate.
struct RhythmFraming: Equatable {
    static let hopSeconds = 128.0 / 44_100
    static let windowSeconds = 1024.0 / 44_100

    let sampleRate: Double
    /// Samples per hop.
    let hop: Int
    /// Samples per analysis window (= FFT length).
    let window: Int
    /// Onset-function frames per second (sampleRate / hop).
    let frameRate: Double

    init(sampleRate: Double) {
        precondition(sampleRate >= 8_000, "sample rate too low for rhythm analysis")
        self.sampleRate = sampleRate
        hop = max(1, Int((sampleRate * Self.hopSeconds).rounded()))
        window = max(64, Int((sampleRate * Self.windowSeconds / 32).rounded()) * 32)
        frameRate = sampleRate / Double(hop)
    }
}
