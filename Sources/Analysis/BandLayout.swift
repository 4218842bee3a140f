import DSP
import Foundation

/// Log-spaced bands over a spectrum: which FFT bins each band sums.
///
/// Band i spans lowest·(highest/lowest)^(i/N) to lowest·(highest/lowest)^((i+1)/N). A band sums the power of the
/// bins whose centre frequency falls inside it; a band narrower than a bin (at the low end) takes the power of
/// the bin nearest its geometric centre, so no band is ever empty.
public struct BandLayout: Sendable {
    /// Band edges in Hz, count + 1 of them.
    public let edges: [Double]
    /// First and one-past-last bin of each band.
    let binRanges: [Range<Int>]

    /// `count` bands from `lowest` to `highest` Hz over an FFT of `fftSize` at `sampleRate`.
    public init(count: Int, lowest: Double, highest: Double, fftSize: Int, sampleRate: Double) {
        let top = min(highest, sampleRate / 2)
        let ratio = top / lowest
        self.init(edges: (0...count).map { lowest * pow(ratio, Double($0) / Double(count)) }, fftSize: fftSize,
                  sampleRate: sampleRate)
    }

    /// Bands between consecutive `edges` (Hz, ascending; edges above half the sample rate are clipped to it).
    public init(edges requested: [Double], fftSize: Int, sampleRate: Double) {
        precondition(requested.count >= 2, "a band needs two edges")
        let edges = requested.map { min($0, sampleRate / 2) }
        let count = edges.count - 1
        self.edges = edges
        let binWidth = sampleRate / Double(fftSize)
        let lastBin = fftSize / 2
        var ranges = [Range<Int>]()
        for i in 0..<count {
            let first = Int((edges[i] / binWidth).rounded(.up))
            let end = min(Int((edges[i + 1] / binWidth).rounded(.up)), lastBin + 1)
            if first < end {
                ranges.append(first..<end)
            } else {
                let centre = min(Int(((edges[i] * edges[i + 1]).squareRoot() / binWidth).rounded()), lastBin)
                ranges.append(centre..<(centre + 1))
            }
        }
        binRanges = ranges
    }

    /// Number of bands.
    public var count: Int { binRanges.count }

    /// Writes each band's level, 0…1 (dB mapped linearly from `floorDB`…0), into `levels`.
    public func levels(of power: [Float], floorDB: Float, into levels: inout [Float]) {
        for (i, range) in binRanges.enumerated() {
            var sum: Double = 0
            for k in range { sum += Double(power[k]) }
            levels[i] = Decibels.unit(Decibels.power(sum), low: floorDB)
        }
    }
}
