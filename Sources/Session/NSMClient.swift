import Foundation
import OSC
import Synchronization

/// A client of the New Session Manager (NSM API 1.1.1, linuxaudio/new-session-manager
/// docs/src/api/index.adoc): announces itself to the server named by `NSM_URL`, receives its requests on a
/// thread of its own and queues them as ``NSMEvent``s for the owner, and sends the owner's replies.
///
/// One UDP socket sends and receives, because the API requires every client message to come "from the same
/// socket as the announce message": the server tells its clients apart by their return addresses. The
/// socket is bound to loopback when the server is on loopback (nothing else can then reach it), otherwise
/// to every interface, on a port the kernel chooses.
///
/// Replies go to the address the server's latest message came from, which starts as `NSM_URL`'s: nsmd
/// writes its host name into the URL, and a name that resolves to 127.0.1.1 (Debian's /etc/hosts) does not
/// match the 127.0.0.1 its answers come from. Datagrams from any sender are decoded, as liblo clients do.
///
/// Robustness: malformed datagrams and unknown or ill-formed messages are counted and dropped; requests out
/// of order are passed on for the owner to refuse (see ``NSMEvent``); sends never block (`MSG_DONTWAIT`) and
/// never throw, a failure is counted. A server that disappears cannot be detected: an unconnected UDP socket
/// gets no ICMP errors on Linux, and nsmd ends its clients with SIGTERM, which the owner handles.
///
/// Threading: ``start()`` and ``stop()`` from the owner's thread; the send methods and ``takeEvents()`` from
/// any thread. `@unchecked Sendable`: the receive loop owns its buffer, the event queue
/// is guarded by its condition, the counts are atomics and the server address is behind a mutex.
public final class NSMClient: @unchecked Sendable {
    /// The API version this client implements and announces ("API 1.1.1"; the announce carries major and
    /// minor). nsmd refuses a client whose major version is newer than its own.
    public static let apiVersion = (major: Int32(1), minor: Int32(1))
    /// How long a receive waits before the thread checks for a stop request, seconds.
    public static let receiveTimeout = 0.1
    /// Events kept for an owner that has not taken them; later ones are dropped and counted. The server
    /// sends a handful per session, so only a flood reaches this.
    public static let maximumPendingEvents = 256

    /// The server's URL, as parsed from `NSM_URL`.
    public let url: NSMURL
    /// The address the client's socket is bound to.
    public var localAddress: SocketAddress { endpoint.localAddress }

    let endpoint: UDPEndpoint
    private let server: Mutex<SocketAddress>
    private let announced = Mutex<NSMCapabilities>([])
    private let queue = NSCondition()
    /// Guarded by `queue`.
    private var pending: [NSMEvent] = []
    private let receiver: UDPReceiveLoop
    private let packets = Atomic<Int>(0)
    private let malformed = Atomic<Int>(0)
    private let unknown = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let events = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)
    private let sendFailures = Atomic<Int>(0)

    /// The server's URL from `environment`: nil when `NSM_URL` is unset or empty (no session manager; go on
    /// as usual), an error when it is set but not `osc.udp://HOST:PORT/`.
    public static func url(from environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(NSMURLError) -> NSMURL? {
        guard let text = environment[NSMURL.environmentVariable], !text.isEmpty else { return nil }
        return try NSMURL(parsing: text)
    }

    /// Resolves the server's host and binds the client's socket. Sends nothing and does not receive until
    /// ``start()``; datagrams that arrive before are kept by the kernel.
    public init(url: NSMURL) throws(NSMClientError) {
        let address: SocketAddress
        do throws(OSCDestinationError) {
            address = try OSCDestination(host: url.host, port: url.port).address
        } catch {
            throw .unresolvable(url: url.description, reason: error.description)
        }
        let bindHost = switch (address.isIPv6, address.isLoopback) {
        case (false, true): "127.0.0.1"
        case (false, false): "0.0.0.0"
        case (true, true): "::1"
        case (true, false): "::"
        }
        do throws(UDPEndpointError) {
            endpoint = try UDPEndpoint(host: bindHost, port: 0, receiveTimeout: Self.receiveTimeout)
        } catch {
            throw .socketUnavailable(reason: error.description)
        }
        self.url = url
        server = Mutex(address)
        receiver = UDPReceiveLoop(endpoint: endpoint, threadName: "jacktap-nsm")
    }

    deinit { stop() }

    /// Starts the receiving thread.
    public func start() {
        receiver.start { [self] bytes, sender in
            packets.add(1, ordering: .relaxed)
            // Cut short by the buffer (nil), it is not the packet that was sent: counted as malformed.
            guard let bytes else {
                malformed.add(1, ordering: .relaxed)
                return
            }
            handle(bytes, from: sender)
        }
    }

    /// Asks the thread to finish and waits until it has (at most about ``receiveTimeout``). Safe to call twice.
    public func stop() { receiver.stop() }

    /// The events received since the last call, oldest first; empty when there are none. Never blocks for
    /// longer than the receive thread holds the queue to append one event.
    public func takeEvents() -> [NSMEvent] {
        queue.lock()
        defer { queue.unlock() }
        let taken = pending
        pending.removeAll()
        return taken
    }

    /// Like ``takeEvents()``, but waits up to `timeout` seconds for at least one event: for the start-up wait
    /// for the announce reply and `open`, and for tests.
    public func waitForEvents(timeout: Double) -> [NSMEvent] {
        let deadline = Date(timeIntervalSinceNow: timeout)
        queue.lock()
        defer { queue.unlock() }
        while pending.isEmpty, queue.wait(until: deadline) {}
        let taken = pending
        pending.removeAll()
        return taken
    }

    /// What has been received and sent so far.
    public var counts: NSMCounts {
        var counts = NSMCounts()
        counts.packets = packets.load(ordering: .relaxed)
        counts.malformed = malformed.load(ordering: .relaxed)
        counts.unknown = unknown.load(ordering: .relaxed)
        counts.rejected = rejected.load(ordering: .relaxed)
        counts.events = events.load(ordering: .relaxed)
        counts.dropped = dropped.load(ordering: .relaxed)
        counts.sendFailures = sendFailures.load(ordering: .relaxed)
        return counts
    }

    /// Sends `/nsm/server/announce s:application_name s:capabilities s:executable_name i:api_version_major
    /// i:api_version_minor i:pid`. `appName` is the name the client would give `jack_client_open`;
    /// `executable` is the name the program was launched with (`argv[0]`). The capabilities announced here
    /// decide which of ``sendDirty(_:)``, ``sendMessage(priority:text:)`` and ``sendProgress(_:)`` send:
    /// the API forbids them without.
    @discardableResult
    public func announce(appName: String, capabilities: NSMCapabilities = [],
                         executable: String = CommandLine.arguments.first ?? "jacktap",
                         pid: Int32 = ProcessInfo.processInfo.processIdentifier) -> Bool {
        announced.withLock { $0 = capabilities }
        return send(OSCMessage("/nsm/server/announce", [
            .string(appName), .string(capabilities.text), .string(executable),
            .int32(Self.apiVersion.major), .int32(Self.apiVersion.minor), .int32(pid),
        ]))
    }

    /// `/reply s:address s:message`: the request was carried out. Send it once the project is open or saved.
    @discardableResult
    public func replyOK(to request: NSMRequest, message: String) -> Bool {
        send(OSCMessage("/reply", [.string(request.address), .string(message)]))
    }

    /// `/error s:address i:error_code s:message`: the request could not be carried out; `message` is shown
    /// to the user.
    @discardableResult
    public func replyError(to request: NSMRequest, code: NSMErrorCode, message: String) -> Bool {
        send(OSCMessage("/error", [.string(request.address), .int32(code.rawValue), .string(message)]))
    }

    /// `/nsm/client/is_dirty` or `/nsm/client/is_clean`; sent only when `:dirty:` was announced.
    @discardableResult
    public func sendDirty(_ dirty: Bool) -> Bool {
        guard announced.withLock({ $0.contains(.dirty) }) else { return false }
        return send(OSCMessage(dirty ? "/nsm/client/is_dirty" : "/nsm/client/is_clean"))
    }

    /// `/nsm/client/message i:priority s:message`, priority clamped to the API's 0...3 (3 most important);
    /// sent only when `:message:` was announced.
    @discardableResult
    public func sendMessage(priority: Int, text: String) -> Bool {
        guard announced.withLock({ $0.contains(.message) }) else { return false }
        return send(OSCMessage("/nsm/client/message", [.int32(Int32(min(max(priority, 0), 3))), .string(text)]))
    }

    /// `/nsm/client/progress f:progress`, 0...1 with 1 done, during a long open or save (whose reply is
    /// still required); sent only when `:progress:` was announced.
    @discardableResult
    public func sendProgress(_ fraction: Float) -> Bool {
        guard announced.withLock({ $0.contains(.progress) }) else { return false }
        return send(OSCMessage("/nsm/client/progress", [.float32(min(max(fraction, 0), 1))]))
    }

    /// Sends one message to the server from the client's socket; a failure is counted, never thrown.
    private func send(_ message: OSCMessage) -> Bool {
        let destination = server.withLock { $0 }
        guard endpoint.send(message.encoded, to: destination) else {
            sendFailures.add(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Decodes one datagram and queues an event for each NSM message in it, in order.
    func handle(_ bytes: UnsafeRawBufferPointer, from sender: SocketAddress) {
        let packet: OSCPacket
        do {
            packet = try OSCPacket(decoding: bytes)
        } catch {
            malformed.add(1, ordering: .relaxed)
            return
        }
        for (_, message) in packet.messages() {
            switch NSMEvent.decode(message) {
            case .unknown: unknown.add(1, ordering: .relaxed)
            case .rejected: rejected.add(1, ordering: .relaxed)
            case .event(let event):
                server.withLock { $0 = sender }
                enqueue(event)
            }
        }
    }

    private func enqueue(_ event: NSMEvent) {
        queue.lock()
        defer { queue.unlock() }
        guard pending.count < Self.maximumPendingEvents else {
            dropped.add(1, ordering: .relaxed)
            return
        }
        pending.append(event)
        events.add(1, ordering: .relaxed)
        queue.broadcast()
    }
}
