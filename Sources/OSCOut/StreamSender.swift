import Dispatch
import Foundation
import OSC
import Spawn
import Synchronization

/// Messages to a TCP receiver from a thread of its own, for the outputs that take TCP (OS2L's beats, OSC over
/// TCP): whoever hands a message over only takes a short lock around an array, never waits on the network. The
/// thread connects, sends and reconnects: a receiver that is down is tried again after `retry` seconds, doubling
/// up to `maxRetry` while it stays down; one that stops reading gets `sendTimeout` to take a message before the
/// connection is dropped and made again. At most `capacity` messages wait; a slow or absent receiver loses the
/// oldest, counted, and messages that waited longer than `stale` seconds (when given) are dropped rather than
/// sent late.
public final class StreamSender: @unchecked Sendable {
    public struct Settings: Sendable {
        /// What it is, for what is said: "OS2L", "OSC over TCP".
        public var label: String
        public var retry = 1.0
        public var maxRetry = 1.0
        public var connectTimeout = 1.0
        public var sendTimeout = 0.5
        public var stale: Double?
        public var capacity = 16

        public init(label: String) { self.label = label }

        /// The longest a connect and a send can take, and a margin.
        var stopSeconds: Double { connectTimeout + sendTimeout + 0.5 }
    }

    public let host: String
    public let port: UInt16
    public let settings: Settings
    private let say: @Sendable (String) -> Void
    private let pending = Mutex<[(bytes: [UInt8], queued: Double)]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let worker: WorkerThread
    private let sentCount = Atomic<Int>(0)
    private let droppedCount = Atomic<Int>(0)
    private let connectedFlag = Atomic<Bool>(false)
    private let connectionCount = Atomic<Int>(0)

    /// A sender to `host`:`port`; `say` reports connections and losses (once per change).
    public init(host: String, port: UInt16, settings: Settings, say: @escaping @Sendable (String) -> Void) {
        self.host = host
        self.port = port
        self.settings = settings
        self.say = say
        worker = WorkerThread(name: "jacktap-tcp")
    }

    /// Messages sent, and messages dropped (receiver away or slow), so far.
    public var sent: Int { sentCount.load(ordering: .relaxed) }
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }
    /// Whether a connection is up now, and how many were made so far.
    public var isConnected: Bool { connectedFlag.load(ordering: .relaxed) }
    public var connections: Int { connectionCount.load(ordering: .relaxed) }

    public func start() {
        worker.start { [self] in run() }
    }

    /// Stops the thread (after the message it may be sending) and closes the connection, waiting at most
    /// `stopSeconds`: a receiver's name whose lookup hangs (an unreachable DNS server: glibc waits 5 s a try)
    /// must not hold up jacktap's exit. A thread still in the lookup is left to end with the process.
    public func stop() {
        if !worker.stop(wake: { wake.signal() }, waitingAtMost: settings.stopSeconds) {
            say("\(settings.label): gave up waiting for the lookup of \(host)")
        }
    }

    /// Hands a message over (any thread; returns at once).
    public func send(_ bytes: [UInt8]) {
        let now = Self.seconds()
        let overflow = pending.withLock { queue -> Bool in
            queue.append((bytes, now))
            guard queue.count > settings.capacity else { return false }
            queue.removeFirst()
            return true
        }
        if overflow { droppedCount.wrappingAdd(1, ordering: .relaxed) }
        wake.signal()
    }

    private func run() {
        var stream: TCPStream?
        var lastFailure: String?
        var nextAttempt = 0.0
        var retry = settings.retry
        let label = settings.label
        while !worker.isStopping {
            _ = wake.wait(timeout: .now() + min(retry, 1))
            if worker.isStopping { break }
            if let open = stream, open.peerClosed {
                open.close()
                stream = nil
                connectedFlag.store(false, ordering: .relaxed)
                report(&lastFailure, "\(label) receiver \(host):\(port) closed the connection; trying again")
            }
            if stream == nil, Self.seconds() >= nextAttempt {
                switch TCPStream.connect(host: host, port: port, timeout: settings.connectTimeout) {
                case .success(let connected):
                    stream = connected
                    lastFailure = nil
                    retry = settings.retry
                    connectedFlag.store(true, ordering: .relaxed)
                    connectionCount.wrappingAdd(1, ordering: .relaxed)
                    say("\(label) to \(connected.peer)")
                case .failure(let error):
                    nextAttempt = Self.seconds() + retry
                    report(&lastFailure, "\(label): \(error); trying again")
                    retry = min(retry * 2, settings.maxRetry)
                }
            }
            let now = Self.seconds()
            let messages = pending.withLock { queue in
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            }
            for (bytes, queued) in messages {
                guard !worker.isStopping, let open = stream, settings.stale.map({ now - queued <= $0 }) ?? true else {
                    droppedCount.wrappingAdd(1, ordering: .relaxed)
                    continue
                }
                switch open.send(bytes, timeout: settings.sendTimeout) {
                case .success:
                    sentCount.wrappingAdd(1, ordering: .relaxed)
                case .failure(let error):
                    open.close()
                    stream = nil
                    connectedFlag.store(false, ordering: .relaxed)
                    droppedCount.wrappingAdd(1, ordering: .relaxed)
                    report(&lastFailure, "\(label): \(error); connecting again")
                }
            }
        }
        stream?.close()
        connectedFlag.store(false, ordering: .relaxed)
    }

    /// Says `text` unless it was the last thing said (a receiver that stays down is reported once).
    private func report(_ last: inout String?, _ text: String) {
        guard last != text else { return }
        last = text
        say(text)
    }

    private static func seconds() -> Double { Date().timeIntervalSince1970 }
}
