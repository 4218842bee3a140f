import Foundation

/// The learned beat activation's input, one vector per model frame (3 hops, 8.7 ms): the log-compressed
/// spectrum of `SpectralFlux` pooled into log-spaced bands, and how much each band rose since the previous
/// frame.
///
/// This is the input madmom's beat networks read (Böck, Krebs and Widmer, "Joint beat and downbeat tracking
/// with recurrent neural networks", ISMIR 2016: log-filtered magnitude spectrogram and its positive first
/// difference), on jacktap's own 23 ms window: 41 bands from 30 Hz to 16 kHz, a sixth of an octave wide
/// where that spans at least one 43 Hz bin (`lowerEdges`), at every sample rate. A band's value in a frame is the largest mean log magnitude of its bins over the frame's hops, so an
/// attack in any of the three windows counts; its rise is max(0, value − previous frame's value).
///
/// `featureVersion` names this definition: a weights file trained on other features is refused.
struct BeatFeatures {
    static let featureVersion: UInt32 = 1
    static let bandsPerOctave = 6.0
    static let lowestHz = 30.0
    static let highestHz = 16_000.0

    /// Bands, and inputs per frame (each band's value and its rise).
    let bandCount: Int
    var inputCount: Int { 2 * bandCount }
    /// For each band, its first bin (an index into `SpectralFlux.logMagnitudes`) and how many bins it holds.
    private let bandStart: UnsafeMutablePointer<Int>
    private let bandWidth: UnsafeMutablePointer<Int>
    private let pooled: UnsafeMutablePointer<Float>
    private let previous: UnsafeMutablePointer<Float>
    /// The newest complete frame's features: `bandCount` values, then `bandCount` rises.
    let vector: UnsafeMutablePointer<Float>
    private var hops = 0

    /// The lower edges of the bands, Hz: a sixth of an octave apart from `lowestHz`, and at least
    /// `minimumWidthHz` apart, so that every band holds at least one bin at every sample rate (the rhythm
    /// window makes bins 42.9–43.2 Hz wide) and the count is the same at every rate.
    static let lowerEdges: [Double] = {
        var edges = [lowestHz]
        while let last = edges.last, last * pow(2, 1 / bandsPerOctave) < highestHz, last + minimumWidthHz < highestHz {
            edges.append(max(last * pow(2, 1 / bandsPerOctave), last + minimumWidthHz))
        }
        return edges
    }()
    static let minimumWidthHz = 44.0

    /// Bands over the bins of a `SpectralFlux`: `binCount` bins from `lowBin`, `binHz` apart. A bin belongs to
    /// the band whose range holds its centre; the top band takes every bin above its lower edge. Below 32 kHz
    /// the bands above the Nyquist frequency hold no bin and read 0.
    init(lowBin: Int, binCount: Int, binHz: Double) {
        let edges = Self.lowerEdges
        var starts = [Int](repeating: 0, count: edges.count), widths = [Int](repeating: 0, count: edges.count)
        var bin = 0
        for b in edges.indices {
            while bin < binCount, Double(lowBin + bin) * binHz < edges[b] { bin += 1 }
            starts[b] = bin
            var end = bin
            while end < binCount, b + 1 == edges.count || Double(lowBin + end) * binHz < edges[b + 1] { end += 1 }
            widths[b] = end - bin
            bin = end
        }
        bandCount = starts.count
        bandStart = .allocate(capacity: bandCount)
        bandStart.initialize(from: starts, count: bandCount)
        bandWidth = .allocate(capacity: bandCount)
        bandWidth.initialize(from: widths, count: bandCount)
        pooled = .allocate(capacity: bandCount)
        previous = .allocate(capacity: bandCount)
        vector = .allocate(capacity: 2 * bandCount)
        reset()
    }

    /// Frees the buffers; call once, when the owner goes.
    func deallocate() {
        bandStart.deallocate()
        bandWidth.deallocate()
        pooled.deallocate()
        previous.deallocate()
        vector.deallocate()
    }

    mutating func reset() {
        pooled.initialize(repeating: 0, count: bandCount)
        previous.initialize(repeating: 0, count: bandCount)
        vector.initialize(repeating: 0, count: 2 * bandCount)
        hops = 0
    }

    /// Pools one hop's log magnitudes; returns true when `decimation` hops make a frame (`vector` is new).
    mutating func push(_ logMagnitudes: UnsafePointer<Float>, decimation: Int) -> Bool {
        for b in 0..<bandCount {
            let start = logMagnitudes + bandStart[b]
            var sum: Float = 0
            for i in 0..<bandWidth[b] { sum += start[i] }
            let mean = bandWidth[b] > 0 ? sum / Float(bandWidth[b]) : 0
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
        return true
    }
}
