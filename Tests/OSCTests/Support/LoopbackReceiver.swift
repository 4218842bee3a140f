import Glibc

/// A UDP socket bound to 127.0.0.1 on a port the kernel picks, standing in for an OSC receiver.
final class LoopbackReceiver {
    /// The descriptor, -1 once closed.
    private var fd: Int32
    /// The port the kernel gave.
    let port: UInt16

    init() {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        precondition(fd >= 0, "socket failed")
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        precondition(bound, "bind to 127.0.0.1:0 failed")
        self.fd = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close() }

    /// Waits up to `timeout` seconds for one datagram; nil if none came.
    func receive(timeout: Double = 2) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count >= 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Closes the socket, so its port has nobody listening.
    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// A loopback port that was free a moment ago and now has nothing bound to it.
    static func closedPort() -> UInt16 {
        let receiver = LoopbackReceiver()
        receiver.close()
        return receiver.port
    }
}

/// The C library's wording for the errors the sender tests expect (kept here so test files need not import
/// Glibc: with Glibc imported, Swift 6.3 rejected the Testing macros' compile-time test records).
enum SystemErrorMessage {
    /// strerror(ECONNREFUSED).
    static var connectionRefused: String { String(cString: strerror(ECONNREFUSED)) }
    /// strerror(EMSGSIZE).
    static var messageTooLong: String { String(cString: strerror(EMSGSIZE)) }
}
