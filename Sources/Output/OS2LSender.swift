import Dispatch
import Foundation
import OSC
import Spawn
import Synchronization

/// OS2L beat messages over TCP (`--os2l HOST:PORT`), for QLC+'s OS2L input (TCP 9996) and DJ-lighting
/// software: one `{"evt":"beat","change":…,"pos":…,"bpm":…,"strength":…}` per beat of the beat source, sent as
/// it is announced (`--beat-lead` before its instant).
///
/// The analysis thread only hands beats over (`send`, a short lock around an array, never the network); a
/// thread of its own connects, sends and reconnects. A receiver that is down is tried again every
/// `retrySeconds`; one that stops reading gets `sendTimeout` to take a message before the connection is
/// dropped and made again. Beats that waited longer than `staleSeconds` (the receiver was away) are dropped
/// rather than sent late: a lighting desk would flash them all at once.
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

    static let retrySeconds = 1.0
    static let connectTimeout = 1.0
    static let sendTimeout = 0.5
    static let staleSeconds = 1.0
    /// The longest a connect and a send can take, and a margin.
    static let stopSeconds = connectTimeout + sendTimeout + 0.5
    /// Beats held while the receiver is away: more than `staleSeconds` of any tempo in the range.
    static let capacity = 16

    public let host: String
    public let port: UInt16
    private let say: @Sendable (String) -> Void
    private let pending = Mutex<[(beat: Beat, queued: Double)]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let worker: WorkerThread
    private let sentCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)

    /// A sender to `host`:`port`; `say` reports connections and losses (stderr, once per change).
    public init(host: String, port: UInt16, say: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.port = port
        self.say = say
        worker = WorkerThread(name: "jacktap-os2l")
    }

    /// Beats sent, and beats dropped (receiver away or slow), so far.
    public var sent: Int { sentCount.load(ordering: .relaxed) }
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    public func start() {
        worker.start { [self] in run() }
    }

    /// Stops the thread (after the message it may be sending) and closes the connection, waiting at most
    /// `stopSeconds`: a receiver's name whose lookup hangs (an unreachable DNS server: glibc waits 5 s a try)
    /// must not hold up jacktap's exit. A thread still in the lookup is left to end with the process.
    public func stop() {
        if !worker.stop(wake: { wake.signal() }, waitingAtMost: Self.stopSeconds) {
            say("OS2L: gave up waiting for the lookup of \(host)")
        }
    }

    /// Hands a beat over (any thread; returns at once).
    public func send(_ beat: Beat) {
        let now = Self.seconds()
        let overflow = pending.withLock { queue -> Bool in
            queue.append((beat, now))
            guard queue.count > Self.capacity else { return false }
            queue.removeFirst()
            return true
        }
        if overflow { droppedCount.wrappingAdd(1, ordering: .relaxed) }
        wake.signal()
    }

    /// The OS2L message of `beat`. `change` is true on the first beat of a new beat grid; `strength` is 1 on
    /// the downbeat and 0.5 on the other beats of the bar.
    public static func message(_ beat: Beat) -> String {
        let bpm = (beat.bpm * 100).rounded() / 100
        let strength = beat.beatInBar == 1 ? "1.0" : "0.5"
        return "{\"evt\":\"beat\",\"change\":\(beat.change),\"pos\":\(beat.count),\"bpm\":\(bpm),\"strength\":\(strength)}"
    }

    private func run() {
        var stream: TCPStream?
        var lastFailure: String?
        var nextAttempt = 0.0
        while !worker.isStopping {
            _ = wake.wait(timeout: .now() + Self.retrySeconds)
            if worker.isStopping { break }
            if let open = stream, open.peerClosed {
                open.close()
                stream = nil
                report(&lastFailure, "OS2L receiver \(host):\(port) closed the connection; trying again")
            }
            if stream == nil, Self.seconds() >= nextAttempt {
                switch TCPStream.connect(host: host, port: port, timeout: Self.connectTimeout) {
                case .success(let connected):
                    stream = connected
                    lastFailure = nil
                    say("OS2L to \(connected.peer)")
                case .failure(let error):
                    nextAttempt = Self.seconds() + Self.retrySeconds
                    report(&lastFailure, "OS2L: \(error); trying again every \(Int(Self.retrySeconds)) s")
                }
            }
            let now = Self.seconds()
            let beats = pending.withLock { queue in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            for (beat, queued) in beats {
                guard !worker.isStopping, let open = stream, now - queued <= Self.staleSeconds else {
                    droppedCount.wrappingAdd(1, ordering: .relaxed)
                    continue
                }
                switch open.send(Array(Self.message(beat).utf8), timeout: Self.sendTimeout) {
                case .success:
                    sentCount.wrappingAdd(1, ordering: .relaxed)
                case .failure(let error):
                    open.close()
                    stream = nil
                    droppedCount.wrappingAdd(1, ordering: .relaxed)
                    report(&lastFailure, "OS2L: \(error); connecting again")
                }
            }
        }
        stream?.close()
    }

    /// Says `text` unless it was the last thing said (a receiver that stays down is reported once).
    private func report(_ last: inout String?, _ text: String) {
        guard last != text else { return }
        last = text
        say(text)
    }

    private static func seconds() -> Double { Date().timeIntervalSince1970 }
}
