import Foundation

/// The learned beat activation's input, one vector per model frame (3 hops, 8.7 ms): the log-compressed
/// spectrum of `SpectralFlux` pooled into log-spaced bands, and how much each band rose since the previous
/// frame.
///
/// This is the input madmom's beat networks read (Böck, Krebs and Widmer, "Joint beat and downbeat tracking
/// with recurrent neural networks", ISMIR 2016: log-filtered magnitude spectrogram and its positive first
/// difference), on jacktap's own 23 ms window: 41 bands from 30 Hz to 16 kHz, a sixth of an octave wide
/// where that spans at least one 43 Hz bin (`lowerEdges`), at every sample rate. A band's value in a frame is
/// the largest mean log magnitude of its bins over the frame's hops, so an attack in any of the three windows
/// counts; its rise is max(0, value − previous frame's value).
///
/// Version 2 appends `LongWindowBands`: a 93 ms spectrum in semitone bands and each band's rise, computed
/// once per frame from the newest samples the tracker hands `pushLongWindow`.
///
/// Version 3 is version 1 with each band's value taken against its own running mean (the value less an
/// exponential mean of the band's values before this frame, `runningMeanRate` a frame: about a second), so that
/// a spectral balance that holds or changes slowly (an instrument's register, a mix, a room) reads the same as
/// any other: per-channel normalisation in the spirit of PCEN (Wang et al., "Trainable frontend for robust and
/// far-field keyword spotting", ICASSP 2017), in the log domain. The rises are version 1's.
///
/// A weights file names the version it was trained on (`supportedVersions`); the tracker computes that one.
struct BeatFeatures {
    static let supportedVersions: ClosedRange<UInt32> = 1...3
    /// What `jacktap beat-features` records without a network: the widest definition.
    static let newestVersion: UInt32 = 2
    static let bandsPerOctave = 6.0
    static let lowestHz = 30.0
    static let highestHz = 16_000.0

    let version: UInt32
    /// Bands, and inputs per frame (each band's value and its rise, then the long window's).
    let bandCount: Int
    var inputCount: Int { 2 * bandCount + 2 * (long?.bandCount ?? 0) }
    /// Version 2's long window, nil in the others.
    private(set) var long: LongWindowBands?
    /// The bands over `SpectralFlux.logMagnitudes`.
    private let bands: BinBands
    private let pooled: UnsafeMutablePointer<Float>
    private let previous: UnsafeMutablePointer<Float>
    /// Version 3: each band's running mean of its values through the newest complete frame: what the next frame is
    /// taken against.
    private let runningMean: UnsafeMutablePointer<Float>
    /// The newest complete frame's features: `bandCount` values, then `bandCount` rises.
    let vector: UnsafeMutablePointer<Float>
    private var hops = 0

    /// The lower edges of the bands, Hz: a sixth of an octave apart from `lowestHz`, and at least
    /// `minimumWidthHz` apart, so that every band holds at least one bin at every sample rate (the rhythm
    /// window makes bins 42.9–43.2 Hz wide) and the count is the same at every rate.
    static let lowerEdges = BinBands.lowerEdges(from: lowestHz, to: highestHz, perOctave: bandsPerOctave,
                                                minimumWidthHz: minimumWidthHz)
    static let minimumWidthHz = 44.0
    /// Version 3: the running mean's weight on each new frame, 1/115: a time constant of 115 frames, 1.0 s.
    static let runningMeanRate: Float = 1.0 / 115

    /// Bands over the bins of a `SpectralFlux`: `binCount` bins from `lowBin`, `binHz` apart. A bin belongs to
    /// the band whose range holds its centre; the top band takes every bin above its lower edge. Below 32 kHz
    /// the bands above the Nyquist frequency hold no bin and read 0.
    init(version: UInt32, lowBin: Int, binCount: Int, binHz: Double, framing: RhythmFraming, decimation: Int) {
        precondition(Self.supportedVersions.contains(version), "beat features version \(version)")
        self.version = version
        long = version == 2 ? LongWindowBands(framing: framing, decimation: decimation) : nil
        bands = BinBands(lowerEdges: Self.lowerEdges, lowBin: lowBin, binCount: binCount, binHz: binHz)
        bandCount = bands.count
        pooled = .allocate(capacity: bandCount)
        previous = .allocate(capacity: bandCount)
        runningMean = .allocate(capacity: bandCount)
        vector = .allocate(capacity: 2 * bandCount + 2 * (long?.bandCount ?? 0))
        reset()
    }

    /// Frees the buffers; call once, when the owner goes.
    func deallocate() {
        bands.deallocate()
        pooled.deallocate()
        previous.deallocate()
        runningMean.deallocate()
        vector.deallocate()
        long?.deallocate()
    }

    mutating func reset() {
        pooled.initialize(repeating: 0, count: bandCount)
        previous.initialize(repeating: 0, count: bandCount)
        runningMean.initialize(repeating: 0, count: bandCount)
        vector.initialize(repeating: 0, count: inputCount)
        long?.reset()
        hops = 0
    }

    /// Pools one hop's log magnitudes; returns true when `decimation` hops make a frame (`vector` is new).
    mutating func push(_ logMagnitudes: UnsafePointer<Float>, decimation: Int) -> Bool {
        for b in 0..<bandCount {
            let mean = bands.mean(logMagnitudes, band: b)
            pooled[b] = hops == 0 ? mean : max(pooled[b], mean)
        }
        hops += 1
        guard hops == decimation else { return false }
        hops = 0
        for b in 0..<bandCount {
            vector[b] = pooled[b]
            vector[bandCount + b] = max(0, pooled[b] - previous[b])
            previous[b] = pooled[b]
        }
        if version == 3 {
            for b in 0..<bandCount {
                let difference = pooled[b] - runningMean[b]
                vector[b] = difference
                runningMean[b] += Self.runningMeanRate * difference
            }
        }
        return true
    }

    /// Version 2: the long window's part of the frame `push` just completed, from the newest
    /// `long.size` samples (oldest first).
    mutating func pushLongWindow(_ samples: UnsafePointer<Float>) {
        guard long != nil else { return }
        let values = vector + 2 * bandCount
        long!.push(samples, values: values, rises: values + long!.bandCount)
    }
}
