import Foundation
import Spawn

/// The receiving thread of a ``UDPEndpoint``: takes each datagram whole into a buffer of its own and hands it
/// to a handler, until stopped. The control input and the NSM client both listen this way.
///
/// `@unchecked Sendable`: the buffer is used by the receiving thread only.
public final class UDPReceiveLoop: @unchecked Sendable {
    /// Largest datagram taken whole: the largest UDP payload over IPv4 or IPv6 fits.
    public static let bufferSize = 65_536

    private let endpoint: UDPEndpoint
    private let buffer: UnsafeMutableRawBufferPointer
    private let worker: WorkerThread

    /// A loop receiving on `endpoint` (whose receive timeout bounds how long `stop` waits) on a thread named
    /// `threadName`; nothing is received before `start`.
    public init(endpoint: UDPEndpoint, threadName: String) {
        self.endpoint = endpoint
        worker = WorkerThread(name: threadName)
        buffer = .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        stop()
        buffer.deallocate()
    }

    /// Starts receiving: `handle` gets each datagram and its sender, on the loop's thread; nil for a datagram
    /// larger than the buffer, which is not the packet that was sent.
    public func start(_ handle: @escaping @Sendable (UnsafeRawBufferPointer?, SocketAddress) -> Void) {
        worker.start { [self] in
            while !worker.isStopping {
                switch endpoint.receive(into: buffer) {
                case .nothing:
                    continue
                case .failed:
                    // Not expected on a bound UDP socket; waiting keeps a persistent error from spinning a core.
                    usleep(10_000)
                case .datagram(let count, let sender):
                    handle(count <= buffer.count ? UnsafeRawBufferPointer(rebasing: buffer[0..<count]) : nil, sender)
                }
            }
        }
    }

    /// Stops the thread and waits for it (at most about the endpoint's receive timeout). Safe to call twice.
    public func stop() { worker.stop() }
}
