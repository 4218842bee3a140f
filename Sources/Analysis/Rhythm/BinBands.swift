import Foundation

/// Spectrum bins grouped into bands by their lower edges, and each band's mean: how both parts of the beat
/// features (`BeatFeatures`, `LongWindowBands`) pool a spectrum.
///
/// A bin belongs to the band whose range holds its centre; the top band takes every bin above its lower edge.
/// Bands above the Nyquist frequency hold no bin and read 0.
struct BinBands {
    let count: Int
    /// For each band, its first bin (an index into the pooled spectrum) and how many bins it holds.
    private let start: UnsafeMutablePointer<Int>
    private let width: UnsafeMutablePointer<Int>

    /// Bands with `lowerEdges` (Hz) over `binCount` bins from `lowBin`, `binHz` apart.
    init(lowerEdges edges: [Double], lowBin: Int, binCount: Int, binHz: Double) {
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
        count = edges.count
        start = .allocate(capacity: count)
        start.initialize(from: starts, count: count)
        width = .allocate(capacity: count)
        width.initialize(from: widths, count: count)
    }

    /// Lower edges from `lowestHz`, `perOctave` to the octave and at least `minimumWidthHz` apart (so that a
    /// band holds a bin wherever bins are no wider than that), up to `highestHz`.
    static func lowerEdges(from lowestHz: Double, to highestHz: Double, perOctave: Double,
                           minimumWidthHz: Double) -> [Double] {
        var edges = [lowestHz]
        let step = pow(2, 1 / perOctave)
        while let last = edges.last, max(last * step, last + minimumWidthHz) < highestHz {
            edges.append(max(last * step, last + minimumWidthHz))
        }
        return edges
    }

    /// Frees the tables; call once, when the owner goes.
    func deallocate() {
        start.deallocate()
        width.deallocate()
    }

    /// How many bins each band holds (for checks; it allocates).
    var binsPerBand: [Int] { (0..<count).map { width[$0] } }

    /// The mean of band `b`'s values in `spectrum` (0 for a band without bins).
    @inline(__always)
    func mean(_ spectrum: UnsafePointer<Float>, band b: Int) -> Float {
        let n = width[b]
        guard n > 0 else { return 0 }
        let first = spectrum + start[b]
        var sum: Float = 0
        for i in 0..<n { sum += first[i] }
        return sum / Float(n)
    }
}
