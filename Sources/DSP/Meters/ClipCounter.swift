import Foundation

/// Counts clip events on one channel: runs of consecutive samples whose magnitude is at or above a
/// threshold, each run counted once, including a run that spans two blocks (or more).
///
/// `process` never allocates; a block with no sample at the threshold, the usual case, is checked eight
/// samples at a time. NaN is never a clip; ±Inf always is. Not thread-safe: call `process`, `events` and
/// `reset` from one thread.
public final class ClipCounter {
    /// The threshold, dBFS.
    public let thresholdDB: Float
    /// The threshold as a linear magnitude, 10^(dB/20).
    public let threshold: Float
    /// Clip events since the meter was made or reset.
    public var events: Int { eventCount }
    /// The count behind `events`: internal, so the compiler can prove its accesses exclusive and drop the
    /// run-time exclusivity check (swift_beginAccess) a public stored property keeps in `process`.
    var eventCount = 0
    /// Whether the last sample seen was at or above the threshold (a run in progress).
    var clipping = false

    /// A counter for samples at or above `thresholdDB` (0 dBFS: |x| ≥ 1).
    public init(thresholdDB: Float = 0) {
        self.thresholdDB = thresholdDB
        threshold = Float(pow(10, Double(thresholdDB) / 20))
    }

    /// Counts the clip events in `count` samples.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        guard count > 0 else { return }
        let threshold = self.threshold
        var clipping = false
        var events = eventCount
        if ClipCounter.reaches(threshold, samples, count: count) {
            clipping = self.clipping
            var i = 0
            while i < count {
                let clipped = abs(samples[i]) >= threshold
                if clipped && !clipping { events &+= 1 }
                clipping = clipped
                i &+= 1
            }
        }
        self.clipping = clipping
        eventCount = events
    }

    /// Whether any of `count` samples is at or above the threshold.
    @inline(__always)
    static func reaches(_ threshold: Float, _ samples: UnsafePointer<Float>, count: Int) -> Bool {
        let raw = UnsafeRawPointer(samples)
        let limit = SIMD8<Float>(repeating: threshold)
        let vectorCount = count & ~7
        var any = SIMDMask<SIMD8<Int32>>(repeating: false)
        var i = 0
        while i < vectorCount {
            let v = raw.loadUnaligned(fromByteOffset: i &* 4, as: SIMD8<Float>.self)
            let m = SIMD8<Float>(repeating: 0) - v
            any = any .| (v .>= limit) .| (m .>= limit)
            i &+= 8
        }
        if Swift.any(any) { return true }
        while i < count {
            if abs(samples[i]) >= threshold { return true }
            i &+= 1
        }
        return false
    }

    /// Clears the count. A run in progress is not counted again when it goes on in the next block.
    public func reset() {
        eventCount = 0
    }
}
