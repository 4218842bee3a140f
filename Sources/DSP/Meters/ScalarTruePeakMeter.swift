/// The scalar reference `TruePeakMeter` is tested against: the same filter and the same arithmetic, one
/// sample and one phase at a time, with no chunks, vectors or bit tricks. Too slow for the process
/// callback; it exists so the fast kernel has a definition to agree with (bit for bit).
public final class ScalarTruePeakMeter {
    /// Oversampling factor: 4, 2 or 1.
    public let oversampling: Int
    let filter: TruePeakFilter
    /// The newest `taps` sanitised samples, oldest first.
    var window: [Float]
    var peak: Float = 0

    /// A reference meter for `sampleRate`.
    public init(sampleRate: Double) {
        filter = TruePeakFilter(sampleRate: sampleRate)
        oversampling = filter.factor
        window = Array(repeating: 0, count: filter.factor > 1 ? filter.taps : 0)
    }

    /// Meters `count` samples.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        for i in 0..<count {
            let x = Float(bitPattern: UInt32(bitPattern: TruePeakMeter.sanitized(
                Int32(bitPattern: samples[i].bitPattern))))
            peak = max(peak, abs(x))
            guard oversampling > 1 else { continue }
            window.removeFirst()
            window.append(x)
            // The grid between the window's two middle samples: sample, interpolated points, sample.
            var grid = [window[filter.halfLength - 1]]
            for p in 0..<(oversampling - 1) {
                var acc: Float = 0
                for t in 0..<filter.taps { acc = acc + filter.coefficients[p * filter.taps + t] * window[t] }
                grid.append(acc)
            }
            grid.append(window[filter.halfLength])
            for k in 1..<oversampling {
                peak = max(peak, abs(TruePeakMeter.refined(grid[k - 1], grid[k], grid[k + 1])))
            }
        }
    }

    /// The largest magnitude since the previous read; clears it.
    public func read() -> Float {
        defer { peak = 0 }
        return peak
    }
}
