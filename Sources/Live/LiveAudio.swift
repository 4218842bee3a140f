import DSP
import JackHost

/// What the analysis loop reads of an opening of the JACK client: the tap the process callback fills, the
/// server's rate and period as they are now, whether the server went away, and the wake-up the callback posts.
/// `LiveTap` is the real one; unit tests drive the runtime with a fake that fills the tap from a thread of
/// their own, so the loop's behaviour (ticks, a rate change, the server going away) is reachable without a server.
public protocol LiveAudio: AnyObject, Sendable {
    var tap: Tap { get }
    var inputNames: [String] { get }
    /// Frames a second now (a rate change shows here first).
    var sampleRate: Int { get }
    var periodFrames: Int { get }
    var serverStopped: Bool { get }
    /// Waits until the callback posts that frames arrived, at most `timeout` seconds; false when none did.
    func waitForFrames(timeout: Double) -> Bool
    /// Wakes a thread waiting in ``waitForFrames(timeout:)``.
    func wakeWaiters()
    /// The newest period the callback copied into the ring: the ring's write count after it and `hostMicros`
    /// when its cycle began; nil before the first.
    var newestPeriod: (frames: Int, micros: UInt64)? { get }
    /// The server's clock now, microseconds.
    var hostMicros: UInt64 { get }
    /// The queue of a registered JACK MIDI output, nil when there is none by that name.
    func midiQueue(_ name: String) -> MidiEventQueue?
}

extension LiveTap: LiveAudio {}
