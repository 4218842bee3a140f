import Dispatch
import Foundation
import OSC
import OSCOut
import Spawn
import Synchronization

/// OS2L beat messages over TCP (`--os2l HOST:PORT`), for QLC+'s OS2L input (TCP 9996) and DJ-lighting
/// software: one `{"evt":"beat","change":…,"pos":…,"bpm":…,"strength":…}` per beat of the beat source, sent as
/// it is announced (`--beat-lead` before its instant).
///
/// The analysis thread only hands beats over; a ``StreamSender`` thread connects, sends and reconnects. Beats
/// that waited longer than a second (the receiver was away) are dropped rather than sent late: a lighting desk
/// would flash them all at once.
///
/// QLC+ parses everything one read returns as a single JSON document, so each message goes in a write of its
/// own with Nagle off (two glued together would both be lost there).
public final class OS2LSender: @unchecked Sendable {
    public struct Beat: Sendable {
        /// The beat's number since the tracker locked: OS2L's `pos`.
        public var count: Int
        public var bpm: Double
        /// The beat's place in its bar (1 is the downbeat).
        public var beatInBar: Int
        /// The first beat of a new beat grid (the tracker locked, or found its pulse, again): OS2L's `change`.
        public var change: Bool
        public init(count: Int, bpm: Double, beatInBar: Int, change: Bool) {
            self.count = count
            self.bpm = bpm
            self.beatInBar = beatInBar
            self.change = change
        }
    }

    /// A receiver that is down is tried again every second; one that stops reading gets half a second; beats
    /// older than a second are dropped; 16 wait at most (more than a second of any tempo in the range).
    static let settings: StreamSender.Settings = {
        var settings = StreamSender.Settings(label: "OS2L")
        settings.stale = 1
        return settings
    }()

    public var host: String { stream.host }
    public var port: UInt16 { stream.port }
    private let stream: StreamSender

    /// A sender to `host`:`port`; `say` reports connections and losses (stderr, once per change).
    public init(host: String, port: UInt16, say: @escaping @Sendable (String) -> Void) {
        stream = StreamSender(host: host, port: port, settings: Self.settings, say: say)
    }

    /// Beats sent, and beats dropped (receiver away or slow), so far.
    public var sent: Int { stream.sent }
    public var dropped: Int { stream.dropped }

    public func start() { stream.start() }

    /// Stops the thread and closes the connection, waiting at most a few seconds (``StreamSender/stop()``).
    public func stop() { stream.stop() }

    /// Hands a beat over (any thread; returns at once).
    public func send(_ beat: Beat) { stream.send(Array(Self.message(beat).utf8)) }

    /// The OS2L message of `beat`. `change` is true on the first beat of a new beat grid; `strength` is 1 on
    /// the downbeat and 0.5 on the other beats of the bar.
    public static func message(_ beat: Beat) -> String {
        let bpm = (beat.bpm * 100).rounded() / 100
        let strength = beat.beatInBar == 1 ? "1.0" : "0.5"
        return "{\"evt\":\"beat\",\"change\":\(beat.change),\"pos\":\(beat.count),\"bpm\":\(bpm),\"strength\":\(strength)}"
    }
}
