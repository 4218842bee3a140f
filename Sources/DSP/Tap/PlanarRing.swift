import Synchronization

/// A lock-free single-producer/single-consumer ring of multichannel audio, one plane per channel.
///
/// All channels share one pair of indices, so a period is either written for every channel or for none, and
/// the reader always sees the channels in step. The indices count frames since creation and only ever grow
/// (wrapping `Int` arithmetic); `writeIndex` is stored only by the producer (the real-time thread),
/// `readIndex` only by the consumer (the analysis thread). Release/acquire on them publishes the frames.
///
/// Plain data behind pointers: copying the struct copies the handles, not the ring. `allocate` and
/// `deallocate` happen outside the real-time thread.
public struct PlanarRing: @unchecked Sendable {
    /// Number of channels (planes).
    public let channels: Int
    /// Frames per plane; a power of two.
    public let capacity: Int
    let mask: Int
    let storage: UnsafeMutablePointer<Float>
    let writeIndex: UnsafeMutablePointer<Atomic<Int>>
    let readIndex: UnsafeMutablePointer<Atomic<Int>>

    /// Allocates a ring holding at least `minimumFrames` frames of `channels` channels, zero-filled.
    public static func allocate(channels: Int, minimumFrames: Int) -> PlanarRing {
        var capacity = 1
        while capacity < max(minimumFrames, 2) { capacity <<= 1 }
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(channels, 1) * capacity)
        storage.initialize(repeating: 0, count: max(channels, 1) * capacity)
        let w = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        w.initialize(to: Atomic(0))
        let r = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        r.initialize(to: Atomic(0))
        return PlanarRing(channels: channels, capacity: capacity, mask: capacity - 1, storage: storage,
                          writeIndex: w, readIndex: r)
    }

    /// Frees the storage. No thread may use the ring afterwards.
    public func deallocate() {
        storage.deallocate()
        writeIndex.deinitialize(count: 1)
        writeIndex.deallocate()
        readIndex.deinitialize(count: 1)
        readIndex.deallocate()
    }

    // MARK: Producer (real-time thread)

    /// Frames the producer may write now.
    @inline(__always)
    public func writableFrames() -> Int {
        let w = writeIndex.pointee.load(ordering: .relaxed)
        let r = readIndex.pointee.load(ordering: .acquiring)
        return capacity &- (w &- r)
    }

    /// The (up to two) contiguous regions of `channel`'s plane where the next `count` frames go.
    @inline(__always)
    public func writeRegions(channel: Int, count: Int)
        -> (UnsafeMutablePointer<Float>, Int, UnsafeMutablePointer<Float>, Int) {
        let start = writeIndex.pointee.load(ordering: .relaxed) & mask
        let plane = storage + channel &* capacity
        let first = min(count, capacity &- start)
        return (plane + start, first, plane, count &- first)
    }

    /// Frames written since the ring was made (the producer's view): the stream timeline the analysis reads.
    @inline(__always)
    public var writtenFrames: Int { writeIndex.pointee.load(ordering: .relaxed) }

    /// Publishes `count` frames written on every channel.
    @inline(__always)
    public func commitWrite(_ count: Int) {
        let w = writeIndex.pointee.load(ordering: .relaxed)
        writeIndex.pointee.store(w &+ count, ordering: .releasing)
    }

    // MARK: Consumer (analysis thread)

    /// Frames available to the consumer.
    public func readableFrames() -> Int {
        let r = readIndex.pointee.load(ordering: .relaxed)
        let w = writeIndex.pointee.load(ordering: .acquiring)
        return w &- r
    }

    /// Copies `count` readable frames of `channel`, starting `offset` frames after the oldest, into
    /// `destination` without consuming them.
    public func peek(channel: Int, offset: Int = 0, count: Int, into destination: UnsafeMutablePointer<Float>) {
        let start = (readIndex.pointee.load(ordering: .relaxed) + offset) & mask
        let plane = storage + channel * capacity
        let first = min(count, capacity - start)
        destination.update(from: plane + start, count: first)
        if count > first { (destination + first).update(from: plane, count: count - first) }
    }

    /// The (up to two) contiguous regions holding `count` readable frames of `channel`, starting `offset`
    /// frames after the oldest; the split falls at the same frame for every channel.
    public func readRegions(channel: Int, offset: Int = 0, count: Int)
        -> (UnsafePointer<Float>, Int, UnsafePointer<Float>, Int) {
        let start = (readIndex.pointee.load(ordering: .relaxed) + offset) & mask
        let plane = storage + channel * capacity
        let first = min(count, capacity - start)
        return (UnsafePointer(plane + start), first, UnsafePointer(plane), count - first)
    }

    /// Frames consumed since the ring was made (the consumer's view).
    public var consumedFrames: Int { readIndex.pointee.load(ordering: .relaxed) }

    /// Consumes `count` frames on every channel, giving their space back to the producer.
    public func consume(_ count: Int) {
        let r = readIndex.pointee.load(ordering: .relaxed)
        readIndex.pointee.store(r + count, ordering: .releasing)
    }
}
