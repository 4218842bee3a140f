import Synchronization

/// When the newest period reached the ring: the ring's write count after it, and the host's clock in
/// microseconds at the start of its cycle (JACK's `current_usecs`, the instant its frames became available).
///
/// The process callback stamps every period it copies; the analysis thread pairs the stream with the wall clock
/// and Link's clock from the stamp, not from the instant it woke, so a loaded machine that wakes it late moves
/// no timetag and no Link beat (the callback runs when the server runs; the analysis thread runs when the
/// scheduler lets it, which on a loaded 2-core machine was 23–155 ms late).
///
/// A sequence lock: the writer (one real-time thread) never waits, it makes the sequence odd, writes both
/// figures and makes it even again; a reader that saw an odd sequence, or a different one afterwards, raced a
/// write and reads again.
public struct PeriodStamp: @unchecked Sendable {
    /// The sequence, the ring's write count, the microseconds.
    let cells: UnsafeMutablePointer<Atomic<UInt64>>

    public static func allocate() -> PeriodStamp {
        let cells = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: 3)
        for i in 0..<3 { (cells + i).initialize(to: Atomic(0)) }
        return PeriodStamp(cells: cells)
    }

    /// Frees the stamp. No thread may use it afterwards.
    public func deallocate() {
        cells.deinitialize(count: 3)
        cells.deallocate()
    }

    // MARK: Writer (real-time thread)

    /// Records that the ring's write count reached `frames` with the period whose cycle began at `micros`.
    @inline(__always)
    public func record(frames: Int, micros: UInt64) {
        let sequence = cells[0].load(ordering: .relaxed)
        cells[0].store(sequence &+ 1, ordering: .relaxed)
        atomicMemoryFence(ordering: .releasing)
        cells[1].store(UInt64(truncatingIfNeeded: frames), ordering: .relaxed)
        cells[2].store(micros, ordering: .relaxed)
        cells[0].store(sequence &+ 2, ordering: .releasing)
    }

    // MARK: Reader (analysis thread)

    /// The newest period's stamp, or nil before the first.
    public func read() -> (frames: Int, micros: UInt64)? {
        while true {
            let before = cells[0].load(ordering: .acquiring)
            if before == 0 { return nil }
            let frames = cells[1].load(ordering: .relaxed)
            let micros = cells[2].load(ordering: .relaxed)
            atomicMemoryFence(ordering: .acquiring)
            if before & 1 == 0, cells[0].load(ordering: .relaxed) == before {
                return (Int(truncatingIfNeeded: frames), micros)
            }
        }
    }
}
