import Synchronization

/// The state the real-time tap writes every period and the analysis thread reads: plain data behind pointers,
/// allocated before the first period (`allocate`) and freed after the last (`deallocate`).
///
/// Contracts, per channel:
/// - `peak`: the largest sanitised |sample| since the previous `takePeak` ("max since last read", as in
///   Fons Adriaensen's meters): the writer raises it with a compare-exchange loop on the float's bit pattern,
///   the reader takes it with `exchange(0)`, so no peak is lost between two reads.
/// - `sumOfSquares`: the sum of squares since the previous `takeSumOfSquares`, a Double's bit pattern, added
///   with a compare-exchange loop by the writer, taken with `exchange(0)` by the reader.
/// And for the tap as a whole:
/// - `frames`: frames measured since the previous `takeFrames`.
/// - `overruns`: periods that found the ring full and were measured but not copied (never blocks).
///
/// The JACK process callback and the file reader both call `process(channel:…)` for each channel and then
/// `endPeriod`, in the same period sizes, so a file and a live run give the same figures.
public struct Tap: @unchecked Sendable {
    /// Number of channels tapped.
    public let channels: Int
    /// The frames of every channel, for the analysis thread.
    public let ring: PlanarRing
    let peaks: UnsafeMutablePointer<Atomic<UInt32>>
    let sumsOfSquares: UnsafeMutablePointer<Atomic<UInt64>>
    let frames: UnsafeMutablePointer<Atomic<Int>>
    let overrunCount: UnsafeMutablePointer<Atomic<Int>>

    /// Allocates the tap and a ring of at least `ringFrames` frames per channel.
    public static func allocate(channels: Int, ringFrames: Int) -> Tap {
        let peaks = UnsafeMutablePointer<Atomic<UInt32>>.allocate(capacity: max(channels, 1))
        let sums = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: max(channels, 1))
        for c in 0..<max(channels, 1) {
            (peaks + c).initialize(to: Atomic(0))
            (sums + c).initialize(to: Atomic(0))
        }
        let frames = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        frames.initialize(to: Atomic(0))
        let overruns = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        overruns.initialize(to: Atomic(0))
        return Tap(channels: channels, ring: .allocate(channels: channels, minimumFrames: ringFrames),
                   peaks: peaks, sumsOfSquares: sums, frames: frames, overrunCount: overruns)
    }

    /// Frees everything. No thread may use the tap afterwards.
    public func deallocate() {
        ring.deallocate()
        peaks.deinitialize(count: max(channels, 1))
        peaks.deallocate()
        sumsOfSquares.deinitialize(count: max(channels, 1))
        sumsOfSquares.deallocate()
        frames.deinitialize(count: 1)
        frames.deallocate()
        overrunCount.deinitialize(count: 1)
        overrunCount.deallocate()
    }

    // MARK: Writer (real-time thread): no allocation, no lock, no syscall.

    /// Starts a period of `count` frames; returns whether its frames fit in the ring. When they do not, the
    /// period is still measured but not copied, and an overrun is counted.
    @inline(__always)
    public func beginPeriod(frames count: Int) -> Bool {
        if ring.writableFrames() >= count { return true }
        overrunCount.pointee.wrappingAdd(1, ordering: .relaxed)
        return false
    }

    /// Measures one channel's period and, when `copy` is true, copies its sanitised frames into the ring.
    @inline(__always)
    public func process(channel: Int, samples: UnsafePointer<Float>, count: Int, copy: Bool) {
        var measure: TapKernel.Measure
        if copy {
            let (first, firstCount, second, secondCount) = ring.writeRegions(channel: channel, count: count)
            measure = TapKernel.measure(samples, into: first, count: firstCount)
            if secondCount > 0 {
                let rest = TapKernel.measure(samples + firstCount, into: second, count: secondCount)
                measure.peak = max(measure.peak, rest.peak)
                measure.sumOfSquares += rest.sumOfSquares
            }
        } else {
            measure = TapKernel.measure(samples, into: nil, count: count)
        }
        raisePeak(channel: channel, to: measure.peak)
        addSumOfSquares(channel: channel, Double(measure.sumOfSquares))
    }

    /// Ends a period: publishes its frames to the ring (when copied) and counts them.
    @inline(__always)
    public func endPeriod(frames count: Int, copied: Bool) {
        if copied { ring.commitWrite(count) }
        frames.pointee.wrappingAdd(count, ordering: .releasing)
    }

    @inline(__always)
    func raisePeak(channel: Int, to value: Float) {
        let cell = peaks + channel
        let bits = value.bitPattern
        var current = cell.pointee.load(ordering: .relaxed)
        while bits > current {
            let (exchanged, original) = cell.pointee.compareExchange(
                expected: current, desired: bits, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    @inline(__always)
    func addSumOfSquares(channel: Int, _ value: Double) {
        let cell = sumsOfSquares + channel
        var current = cell.pointee.load(ordering: .relaxed)
        while true {
            let desired = (Double(bitPattern: current) + value).bitPattern
            let (exchanged, original) = cell.pointee.compareExchange(
                expected: current, desired: desired, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
    }

    // MARK: Reader (analysis thread)

    /// The peak of `channel` since the previous call (linear, ≥ 0).
    public func takePeak(channel: Int) -> Float {
        Float(bitPattern: peaks[channel].exchange(0, ordering: .relaxed))
    }

    /// The sum of squares of `channel` since the previous call.
    public func takeSumOfSquares(channel: Int) -> Double {
        Double(bitPattern: sumsOfSquares[channel].exchange(0, ordering: .relaxed))
    }

    /// Frames measured since the previous call.
    public func takeFrames() -> Int {
        frames.pointee.exchange(0, ordering: .acquiring)
    }

    /// Periods dropped from the ring since the tap was allocated.
    public var overruns: Int { overrunCount.pointee.load(ordering: .relaxed) }
}
