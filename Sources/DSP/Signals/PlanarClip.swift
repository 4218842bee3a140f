import Synchronization

/// Audio held in memory, one plane per channel, played period by period from a real-time callback
/// (`jacktap generate --file`): plain data behind pointers, filled before the first period.
public struct PlanarClip: @unchecked Sendable {
    /// Channels held.
    public let channels: Int
    /// Frames per channel.
    public let frames: Int
    let storage: UnsafeMutablePointer<Float>
    /// Frames played so far: written by the real-time thread only, read by anyone.
    let played: UnsafeMutablePointer<Atomic<Int>>
    /// Playing starts when this is set (after the outputs are connected), so no frame is lost.
    let armed: UnsafeMutablePointer<Atomic<Bool>>

    /// Allocates a silent clip of `channels` × `frames`.
    public static func allocate(channels: Int, frames: Int) -> PlanarClip {
        let storage = UnsafeMutablePointer<Float>.allocate(capacity: max(channels * frames, 1))
        storage.initialize(repeating: 0, count: max(channels * frames, 1))
        let played = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 1)
        played.initialize(to: Atomic(0))
        let armed = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        armed.initialize(to: Atomic(false))
        return PlanarClip(channels: channels, frames: frames, storage: storage, played: played, armed: armed)
    }

    /// Frees the clip. Nothing may play it afterwards.
    public func deallocate() {
        storage.deallocate()
        played.deinitialize(count: 1)
        played.deallocate()
        armed.deinitialize(count: 1)
        armed.deallocate()
    }

    /// Starts playing from the next period on (until then, periods are silent).
    public func start() { armed.pointee.store(true, ordering: .releasing) }

    /// The samples of `channel`, to fill before playing.
    public func plane(_ channel: Int) -> UnsafeMutablePointer<Float> { storage + channel * frames }

    /// Frames played so far.
    public var framesPlayed: Int { played.pointee.load(ordering: .acquiring) }

    /// Whether every frame has been played.
    public var finished: Bool { framesPlayed >= frames }

    /// Where this period starts: the play position, or `frames` (silence) until `start` has been called.
    /// Read once per period, then pass it to `render` for every output and to `advance`.
    @inline(__always)
    public func periodStart() -> Int {
        armed.pointee.load(ordering: .acquiring) ? played.pointee.load(ordering: .relaxed) : frames
    }

    /// Writes `count` frames of channel `channel % channels` from `start` into `output` (silence past the
    /// end). No allocation, lock or syscall.
    @inline(__always)
    public func render(channel: Int, from start: Int, into output: UnsafeMutablePointer<Float>, count: Int) {
        let source = storage + (channel % max(channels, 1)) &* frames
        var i = 0
        while i < count {
            let k = start &+ i
            output[i] = k < frames ? source[k] : 0
            i &+= 1
        }
    }

    /// Ends a period that started at `start`: the play position moves on by `count` frames.
    @inline(__always)
    public func advance(from start: Int, by count: Int) {
        if start < frames { played.pointee.store(min(start &+ count, frames), ordering: .releasing) }
    }
}
