#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The UDP socket of multicast DNS (RFC 6762): port 5353, shared with every other responder on the machine
/// (SO_REUSEADDR, SO_REUSEPORT), a member of 224.0.0.251, its own datagrams looped back so that a browser on
/// this machine hears them. Every system call of the responder is here.
struct MDNSSocket {
    static let group = "224.0.0.251"
    static let port: UInt16 = 5353

    let fd: Int32

    /// Opens, binds and joins the group on the interface whose address is `interface` (network order; the
    /// default multicast interface when nil), and sends there too; the reason when any step fails.
    static func open(interface: UInt32?) -> Result<MDNSSocket, MDNSError> {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return .failure(.socket(call: "socket", errno: errno)) }
        func fail(_ call: String) -> Result<MDNSSocket, MDNSError> {
            let error = errno
            _ = Glibc.close(fd)
            return .failure(.socket(call: call, errno: error))
        }
        var yes: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, size) == 0 else { return fail("SO_REUSEADDR") }
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &yes, size) == 0 else { return fail("SO_REUSEPORT") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { return fail("bind 0.0.0.0:5353") }
        var membership = ip_mreq()
        membership.imr_multiaddr.s_addr = inet_addr(group)
        membership.imr_interface.s_addr = interface ?? INADDR_ANY
        guard setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership,
                         socklen_t(MemoryLayout<ip_mreq>.size)) == 0 else {
            return fail("IP_ADD_MEMBERSHIP 224.0.0.251")
        }
        // RFC 6762 11: responses go out with TTL 255; a receiver may drop others.
        var ttl: UInt8 = 255, loop: UInt8 = 1
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, 1)
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_LOOP, &loop, 1)
        if let interface {
            var outgoing = in_addr(s_addr: interface)
            guard setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_IF, &outgoing,
                             socklen_t(MemoryLayout<in_addr>.size)) == 0 else { return fail("IP_MULTICAST_IF") }
        }
        return .success(MDNSSocket(fd: fd))
    }

    /// A datagram and its sender's port, waiting at most `timeoutMs`; nil when none came.
    func receive(timeoutMs: Int32, into buffer: inout [UInt8]) -> (count: Int, port: UInt16, host: UInt32)? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMs) > 0 else { return nil }
        var from = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &from) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count > 0 else { return nil }
        return (count, UInt16(bigEndian: from.sin_port), from.sin_addr.s_addr)
    }

    /// Sends `bytes` to the group, or to `host`:`port` (network-order address) for a unicast answer.
    func send(_ bytes: [UInt8], host: UInt32? = nil, port: UInt16 = MDNSSocket.port) {
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = port.bigEndian
        to.sin_addr.s_addr = host ?? inet_addr(Self.group)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &to) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    func close() { _ = Glibc.close(fd) }

    /// This machine's IPv4 addresses (network order) on interfaces that are up but loopback; loopback's only when
    /// there is no other.
    static func interfaceAddresses() -> [UInt32] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var outside = [UInt32](), loopback = [UInt32]()
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  current.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            if current.pointee.ifa_flags & UInt32(IFF_LOOPBACK) != 0 {
                loopback.append(ipv4)
            } else {
                outside.append(ipv4)
            }
        }
        return outside.isEmpty ? loopback : outside
    }

    /// The machine's host name (`gethostname`).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "jacktap" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Why the responder could not start.
public enum MDNSError: Error, CustomStringConvertible, Equatable {
    case socket(call: String, errno: Int32)

    public var description: String {
        switch self {
        case .socket(let call, let code): "mDNS: \(call): \(String(cString: strerror(code)))"
        }
    }
}
