import CFFTW
import Foundation

/// The onset detection function: log-magnitude spectral flux with vibrato suppression ("SuperFlux",
/// Böck & Widmer, DAFx 2013), one value per hop.
///
/// Each bin's magnitude is compressed as log(1 + λ|X|), which makes the rise of a soft note comparable to a
/// loud one; the rise is measured against a maximum filter over neighbouring bins (±3 %, a quarter tone) of
/// the frame `lag` hops back, so vibrato and glides, which only move energy between neighbouring bins, add
/// little. Bins from 30 Hz to 16 kHz count (above 16 kHz drum kits and pads carry little but noise).
final class SpectralFlux {
    /// λ of the log compression on a full-scale-sine-is-1 magnitude: a -60 dBFS partial maps to log 2.
    static let compression: Float = 1_000
    /// Frames between the compared spectra: 2 hops (5.8 ms) still rises within a hop of an attack but lets
    /// a slow attack accumulate twice the rise of adjacent frames.
    static let lag = 2

    let framing: RhythmFraming
    private let size: Int
    private let window: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let lowBin: Int
    private let highBin: Int
    private let binCount: Int
    private let spread: UnsafeMutablePointer<Int32>
    private let magnitudeScale: Float
    /// Log magnitude of the current frame.
    private let current: UnsafeMutablePointer<Float>
    /// Max-filtered log magnitudes of the last `lag` frames, ring.
    private let history: UnsafeMutablePointer<Float>
    private var historyIndex = 0

    init(framing: RhythmFraming) {
        self.framing = framing
        size = framing.window
        window = .allocate(capacity: size)
        var sum = 0.0
        for i in 0..<size {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))
            window[i] = Float(w)
            sum += w
        }
        magnitudeScale = Float(2 / sum)
        (plan, input, output) = FFTWPlanner.makeRealForward(size: size)
        let binHz = framing.sampleRate / Double(size)
        lowBin = max(1, Int((30 / binHz).rounded()))
        highBin = min(size / 2, Int((16_000 / binHz).rounded()))
        binCount = highBin - lowBin + 1
        spread = .allocate(capacity: binCount)
        for i in 0..<binCount { spread[i] = Int32(max(1, (Double(lowBin + i) * 0.03).rounded())) }
        current = .allocate(capacity: binCount)
        history = .allocate(capacity: binCount * Self.lag)
        reset()
    }

    deinit {
        FFTWPlanner.destroy(plan, input, output)
        window.deallocate()
        spread.deallocate()
        current.deallocate()
        history.deallocate()
    }

    func reset() {
        current.initialize(repeating: 0, count: binCount)
        history.initialize(repeating: 0, count: binCount * Self.lag)
        historyIndex = 0
    }

    /// The flux of the window `samples` (oldest first, `framing.window` of them) against the frame `lag`
    /// hops earlier: the mean over bins of the positive log-magnitude rise.
    func next(_ samples: UnsafePointer<Float>) -> Float {
        for i in 0..<size { input[i] = samples[i] * window[i] }
        FFTWPlanner.execute(plan)
        let lambda = Self.compression * magnitudeScale
        for i in 0..<binCount {
            let (re, im) = output[lowBin + i]
            current[i] = log1pf(lambda * (re * re + im * im).squareRoot())
        }
        // The oldest ring slot is the frame `lag` hops back; it is replaced by this frame's filtered copy.
        let old = history + historyIndex * binCount
        var rise: Float = 0
        for i in 0..<binCount {
            let d = current[i] - old[i]
            if d > 0 { rise += d }
        }
        for i in 0..<binCount {
            let r = Int(spread[i])
            var m = current[i]
            var j = max(0, i - r)
            let end = min(binCount - 1, i + r)
            while j <= end { m = max(m, current[j]); j += 1 }
            old[i] = m
        }
        historyIndex = (historyIndex + 1) % Self.lag
        return rise / Float(binCount)
    }
}
