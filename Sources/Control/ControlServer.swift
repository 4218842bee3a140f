import Dispatch
import Foundation
import OSC
import Synchronization

/// The control input (`--listen`): a UDP socket on its own normal-priority thread that decodes each datagram
/// as OSC, turns each message into a ``ControlCommand``, has a ``ControlSession`` carry it out, and sends the
/// replies back to the sender.
///
/// Nothing a packet says can run a program or read a file: the commands are the six verbs, and their
/// arguments are only checked and passed to the router, JACK and the analysis reset. Malformed packets and
/// unknown addresses are counted and dropped without a reply; replies are sent with `MSG_DONTWAIT`, so a
/// sender that does not read them cannot stall the thread. The thread never touches JACK's real-time thread
/// or the analysis thread; it shares only the router's mutex and the engine's reset flag with them.
///
/// `@unchecked Sendable`: the counts are atomics; the receive loop owns its buffer.
public final class ControlServer: @unchecked Sendable {
    /// The address the socket is bound to (with the port the kernel chose when 0 was asked for).
    public var boundAddress: ControlPeer { endpoint.localAddress }
    let session: ControlSession
    let endpoint: UDPEndpoint
    private let receiver: UDPReceiveLoop
    private let packets = Atomic<Int>(0)
    private let malformed = Atomic<Int>(0)
    private let unknown = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let commands = Atomic<Int>(0)

    /// How long a receive waits before the thread checks for a stop request, seconds.
    public static let receiveTimeout = 0.1

    /// Binds a UDP socket to `listen` (the first IPv4, else IPv6, address it resolves to). Does not start
    /// receiving until ``start()``.
    public init(listen: ListenAddress, session: ControlSession) throws(ControlServerError) {
        do throws(UDPEndpointError) {
            endpoint = try UDPEndpoint(host: listen.host, port: listen.port, receiveTimeout: Self.receiveTimeout)
        } catch {
            switch error {
            case .unresolvable(let host, let reason): throw .unresolvable(host: host, reason: reason)
            case .bindFailed(_, let reason): throw .bindFailed(address: listen.description, reason: reason)
            }
        }
        self.session = session
        receiver = UDPReceiveLoop(endpoint: endpoint, threadName: "jacktap-control")
    }

    deinit { stop() }

    /// Starts the receiving thread.
    public func start() {
        receiver.start { [self] bytes, peer in
            packets.add(1, ordering: .relaxed)
            handle(bytes, from: peer)
        }
    }

    /// Asks the thread to finish and waits until it has (at most about ``receiveTimeout``). Safe to call twice.
    public func stop() { receiver.stop() }

    /// What has been received so far.
    public var counts: ControlCounts {
        var counts = ControlCounts()
        counts.packets = packets.load(ordering: .relaxed)
        counts.malformed = malformed.load(ordering: .relaxed)
        counts.unknown = unknown.load(ordering: .relaxed)
        counts.rejected = rejected.load(ordering: .relaxed)
        counts.commands = commands.load(ordering: .relaxed)
        return counts
    }

    /// Decodes one datagram and answers each control message in it, in order (a bundle's time tag is not
    /// waited for: commands act at once).
    func handle(_ bytes: UnsafeRawBufferPointer?, from peer: ControlPeer) {
        // Cut short by the buffer (nil), it is not the packet that was sent: counted as malformed like an
        // undecodable one, without decoding what fitted.
        guard let bytes else {
            malformed.add(1, ordering: .relaxed)
            return
        }
        let packet: OSCPacket
        do {
            packet = try OSCPacket(decoding: bytes)
        } catch {
            malformed.add(1, ordering: .relaxed)
            return
        }
        for (_, message) in packet.messages() {
            let replies: [OSCMessage]
            do {
                let command = try ControlCommand(message, prefix: session.prefix)
                commands.add(1, ordering: .relaxed)
                replies = session.perform(command, counts: counts, listening: boundAddress.description)
            } catch {
                switch error {
                case .unknownAddress:
                    unknown.add(1, ordering: .relaxed)
                    continue
                case .badArguments(let address, let expected):
                    rejected.add(1, ordering: .relaxed)
                    replies = [ControlReply.error(address, "expected \(expected)")]
                }
            }
            for reply in replies { endpoint.send(reply.encoded, to: peer) }
        }
    }
}
