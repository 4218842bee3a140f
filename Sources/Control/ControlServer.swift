import Spawn
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
/// `@unchecked Sendable`: the receive buffer is used by the server's thread only; the counts are atomics.
public final class ControlServer: @unchecked Sendable {
    /// The address the socket is bound to (with the port the kernel chose when 0 was asked for).
    public var boundAddress: ControlPeer { endpoint.localAddress }
    let session: ControlSession
    let endpoint: UDPEndpoint
    let buffer: UnsafeMutableRawBufferPointer
    private let worker = WorkerThread(name: "jacktap-control")
    private let packets = Atomic<Int>(0)
    private let malformed = Atomic<Int>(0)
    private let unknown = Atomic<Int>(0)
    private let rejected = Atomic<Int>(0)
    private let commands = Atomic<Int>(0)

    /// How long a receive waits before the thread checks for a stop request, seconds.
    public static let receiveTimeout = 0.1
    /// Largest datagram taken whole: the largest UDP payload over IPv4 or IPv6 fits.
    public static let bufferSize = 65_536

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
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        stop()
        buffer.deallocate()
    }

    /// Starts the receiving thread.
    public func start() {
        worker.start { [self] in run() }
    }

    /// Asks the thread to finish and waits until it has (at most about ``receiveTimeout``). Safe to call twice.
    public func stop() {
        worker.stop()
    }

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

    func run() {
        while !worker.isStopping {
            switch endpoint.receive(into: buffer) {
            case .nothing:
                continue
            case .failed:
                // Not expected on a bound UDP socket; waiting keeps a persistent error from spinning a core.
                usleep(10_000)
            case .datagram(let count, let peer):
                packets.add(1, ordering: .relaxed)
                handle(UnsafeRawBufferPointer(rebasing: buffer[0..<min(count, buffer.count)]),
                       oversize: count > buffer.count, from: peer)
            }
        }
    }

    /// Decodes one datagram and answers each control message in it, in order (a bundle's time tag is not
    /// waited for: commands act at once).
    func handle(_ bytes: UnsafeRawBufferPointer, oversize: Bool, from peer: ControlPeer) {
        // Cut short by the buffer, it is not the packet that was sent: counted as malformed like an
        // undecodable one, without decoding what fitted.
        guard !oversize else {
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
