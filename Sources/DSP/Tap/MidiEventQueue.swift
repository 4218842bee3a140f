import Glibc
import Synchronization

/// MIDI messages the analysis thread schedules and the process callback writes into a JACK MIDI port, each
/// stamped with the stream frame it belongs at: a single-producer, single-consumer ring of plain data behind
/// pointers, allocated before the first period (`allocate`) and freed after the last (`deallocate`).
///
/// Frames are the tap ring's timeline (frames copied into the ring since the client started: what the
/// analysis reads), so a beat the analysis predicts at stream frame f is written at f's offset in the period
/// that carries f. The callback only reads plain memory and two atomics: no allocation, lock or syscall.
public struct MidiEventQueue: @unchecked Sendable {
    /// The longest message, bytes (a note on or off).
    public static let maximumSize = 3
    public let capacity: Int
    let frames: UnsafeMutablePointer<Int>
    let sizes: UnsafeMutablePointer<Int>
    /// `maximumSize` bytes per slot.
    let bytes: UnsafeMutablePointer<UInt8>
    /// Messages pushed and popped since the start (monotonic; slot = count mod capacity).
    let pushed: UnsafeMutablePointer<Atomic<Int>>
    let popped: UnsafeMutablePointer<Atomic<Int>>
    /// Messages the callback wrote after their frame had passed (at the start of a later period).
    let late: UnsafeMutablePointer<Atomic<Int>>

    /// A queue of at least `capacity` messages.
    public static func allocate(capacity minimum: Int) -> MidiEventQueue {
        var capacity = 1
        while capacity < minimum { capacity *= 2 }
        let frames = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        frames.initialize(repeating: 0, count: capacity)
        let sizes = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        sizes.initialize(repeating: 0, count: capacity)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * maximumSize)
        bytes.initialize(repeating: 0, count: capacity * maximumSize)
        let counters = (0..<3).map { _ -> UnsafeMutablePointer<Atomic<Int>> in
            let counter = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
            counter.initialize(to: Atomic(0))
            return counter
        }
        return MidiEventQueue(capacity: capacity, frames: frames, sizes: sizes, bytes: bytes, pushed: counters[0],
                              popped: counters[1], late: counters[2])
    }

    /// Frees everything. No thread may use the queue afterwards.
    public func deallocate() {
        frames.deallocate()
        sizes.deallocate()
        bytes.deallocate()
        for counter in [pushed, popped, late] {
            counter.deinitialize(count: 1)
            counter.deallocate()
        }
    }

    // MARK: Producer (the analysis thread)

    /// Queues `message` (1…3 bytes) for stream frame `frame`; messages must come in frame order. Returns false,
    /// queueing nothing, when the queue is full.
    @discardableResult
    public func push(frame: Int, _ message: [UInt8]) -> Bool {
        precondition((1...Self.maximumSize).contains(message.count), "a MIDI message of 1 to 3 bytes")
        let count = pushed.pointee.load(ordering: .relaxed)
        guard count &- popped.pointee.load(ordering: .acquiring) < capacity else { return false }
        let slot = count & (capacity - 1)
        frames[slot] = frame
        sizes[slot] = message.count
        for (i, byte) in message.enumerated() { bytes[slot * Self.maximumSize + i] = byte }
        pushed.pointee.store(count &+ 1, ordering: .releasing)
        return true
    }

    /// Messages written after their frame had passed, since the start.
    public var lateCount: Int { late.pointee.load(ordering: .relaxed) }

    /// Waits (polling every 2 ms) until the callback has taken every queued message, at most `seconds`: the
    /// last messages of a run (Stop, a note off) go out before the client closes.
    public func waitUntilTaken(seconds: Double) {
        var waited = 0.0
        while pending > 0 && waited < seconds {
            usleep(2_000)
            waited += 0.002
        }
    }

    /// Messages queued and not yet written.
    public var pending: Int { pushed.pointee.load(ordering: .acquiring) &- popped.pointee.load(ordering: .acquiring) }

    // MARK: Consumer (the real-time thread)

    /// The oldest queued message: its frame, its bytes and their count; nil when the queue is empty.
    @inline(__always)
    public func peek() -> (frame: Int, bytes: UnsafePointer<UInt8>, size: Int)? {
        let next = popped.pointee.load(ordering: .relaxed)
        guard next != pushed.pointee.load(ordering: .acquiring) else { return nil }
        let slot = next & (capacity &- 1)
        return (frames[slot], UnsafePointer(bytes + slot &* Self.maximumSize), sizes[slot])
    }

    /// Removes the oldest message, which `peek` returned; `late` counts it as written after its frame.
    @inline(__always)
    public func pop(late wasLate: Bool) {
        if wasLate { late.pointee.wrappingAdd(1, ordering: .relaxed) }
        popped.pointee.store(popped.pointee.load(ordering: .relaxed) &+ 1, ordering: .releasing)
    }
}
