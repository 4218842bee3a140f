import CFFTW
import Foundation

/// The second half of the learned beat activation's input in feature version 2: a 93 ms spectrum (four
/// rhythm windows) in bands a semitone wide, and how much each band rose over the last 46 ms.
///
/// Why: the 23 ms window of version 1 makes 43 Hz bins, so below a few hundred hertz a band spans several
/// notes and above it a sixth of an octave (two semitones): a chord change on a piano, strings or choir,
/// which is how music without drums marks its beats, barely moves those bands. madmom's beat networks read
/// three windows for this reason, the longest 4096 samples at 44.1 kHz in twelve bands an octave (Böck,
/// Krebs and Widmer, ISMIR 2016; `RNNBeatProcessor`: frame sizes 1024/2048/4096, 3/6/12 bands an octave);
/// this is that longest one. Its bins are 10.7–10.8 Hz wide at every rate (4 × `RhythmFraming.window`
/// samples: 4096 at 44.1 kHz, 4480 at 48 kHz, 8960 at 96 kHz), and the bands are a twelfth of an octave from
/// 30 Hz to 16 kHz, at least `minimumWidthHz` wide so that each holds a bin at every rate and the count is the
/// same everywhere. A band's value is the mean of its bins' log(1 + λ|X|) (λ as `SpectralFlux`); its rise is
/// measured against the frame `lag` frames back, where the two windows overlap by half (madmom's
/// `diff_ratio` 0.5), since the next frame's 93 ms window differs from this one's by only 8.7 ms.
struct LongWindowBands {
    static let windowsPerLongWindow = 4
    static let bandsPerOctave = 12.0
    static let minimumWidthHz = 11.0
    /// How far apart two compared windows start, as a share of the window.
    static let riseOverlap = 0.5

    /// Samples per window (= FFT length).
    let size: Int
    let bandCount: Int
    /// Frames between the compared band values.
    let lag: Int
    private let window: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let lowBin: Int
    private let binCount: Int
    private let magnitudes: UnsafeMutablePointer<Float>
    private let bands: BinBands
    private let lambda: Float
    /// The band values of the last `lag` frames, a ring.
    private let history: UnsafeMutablePointer<Float>
    private var historyIndex = 0

    /// The lower edges of the bands, Hz (the same at every sample rate).
    static let lowerEdges = BinBands.lowerEdges(from: BeatFeatures.lowestHz, to: BeatFeatures.highestHz,
                                                perOctave: bandsPerOctave, minimumWidthHz: minimumWidthHz)

    /// Frames of `decimation` hops of `framing`: the window is four rhythm windows long.
    init(framing: RhythmFraming, decimation: Int) {
        size = Self.windowsPerLongWindow * framing.window
        lag = max(1, Int((Self.riseOverlap * Double(size) / Double(decimation * framing.hop)).rounded()))
        let (window, sum) = HannWindow.allocate(size: size)
        self.window = window
        // A full-scale sine reads 1 before compression, as in `SpectralFlux`.
        lambda = SpectralFlux.compression * Float(2 / sum)
        (plan, input, output) = FFTWPlanner.makeRealForward(size: size)
        let binHz = framing.sampleRate / Double(size)
        lowBin = max(1, Int((BeatFeatures.lowestHz / binHz).rounded()))
        let highBin = min(size / 2, Int((BeatFeatures.highestHz / binHz).rounded()))
        binCount = highBin - lowBin + 1
        magnitudes = .allocate(capacity: binCount)
        bands = BinBands(lowerEdges: Self.lowerEdges, lowBin: lowBin, binCount: binCount, binHz: binHz)
        bandCount = bands.count
        history = .allocate(capacity: bandCount * lag)
        reset()
    }

    /// Frees the buffers and the plan; call once, when the owner goes.
    func deallocate() {
        FFTWPlanner.destroy(plan, input, output)
        window.deallocate()
        magnitudes.deallocate()
        bands.deallocate()
        history.deallocate()
    }

    /// How many bins each band holds (for checks; it allocates).
    var binsPerBand: [Int] { bands.binsPerBand }

    mutating func reset() {
        history.initialize(repeating: 0, count: bandCount * lag)
        historyIndex = 0
    }

    /// Analyses the newest `size` samples (oldest first) and writes `bandCount` band values to `values` and
    /// their rises to `rises`.
    mutating func push(_ samples: UnsafePointer<Float>, values: UnsafeMutablePointer<Float>,
                       rises: UnsafeMutablePointer<Float>) {
        for i in 0..<size { input[i] = samples[i] * window[i] }
        FFTWPlanner.execute(plan)
        _ = VectorLoops.magnitudes(of: UnsafeRawPointer(output + lowBin).assumingMemoryBound(to: Float.self),
                                   count: binCount, into: magnitudes)
        for i in 0..<binCount { magnitudes[i] = LogCompression.log1p(lambda * magnitudes[i]) }
        // The oldest ring slot holds the frame `lag` frames back; it is replaced by this frame's values.
        let old = history + historyIndex * bandCount
        for b in 0..<bandCount {
            let value = bands.mean(magnitudes, band: b)
            values[b] = value
            rises[b] = max(0, value - old[b])
            old[b] = value
        }
        historyIndex = (historyIndex + 1) % lag
    }
}
