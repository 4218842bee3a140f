#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A UDP socket address (IPv4 or IPv6): one resolved by `getaddrinfo` and copied out of its list so it
/// outlives `freeaddrinfo`, the address a ``UDPEndpoint`` is bound to, or where a datagram came from, so that
/// the answer goes back there.
public struct SocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address bytes as a `sockaddr_in` or `sockaddr_in6`; `sockaddr_storage` fits either.
    private var storage: sockaddr_storage
    /// How many bytes of `storage` are meaningful.
    private(set) var length: socklen_t

    /// Takes the first `length` bytes of `storage`, as `getsockname` or `recvfrom` filled them.
    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
    }

    /// Copies `length` bytes from a `sockaddr` produced by the C library.
    init(copying address: UnsafePointer<sockaddr>, length: socklen_t) {
        var storage = sockaddr_storage()
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count))
        }
        self.init(storage: storage, length: socklen_t(count))
    }

    /// An address of family `AF_UNSPEC`; connecting a UDP socket to it dissolves its association.
    static var unspecified: SocketAddress {
        var address = sockaddr()
        address.sa_family = sa_family_t(AF_UNSPEC)
        return withUnsafePointer(to: &address) { pointer in
            SocketAddress(copying: pointer, length: socklen_t(MemoryLayout<sockaddr>.size))
        }
    }

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// Whether this is an IPv6 address (`AF_INET6`) rather than IPv4.
    public var isIPv6: Bool { family == Int32(AF_INET6) }

    /// The numeric host ("127.0.0.1", "::1").
    public var host: String {
        withUnsafePointer(to: storage) { pointer in
            if family == Int32(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    withUnsafeBytes(of: $0.pointee.sin6_addr) { Syscalls.numericHost(family: family, $0) }
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                withUnsafeBytes(of: $0.pointee.sin_addr) { Syscalls.numericHost(family: family, $0) }
            }
        }
    }

    /// The UDP port.
    public var port: UInt16 {
        withUnsafePointer(to: storage) { pointer in
            if family == Int32(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// `HOST:PORT`, an IPv6 host in brackets (RFC 3986, section 3.2.2).
    public var description: String { family == Int32(AF_INET6) ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// A loopback address: IPv4 127.0.0.0/8 (RFC 1122, section 3.2.1.3) or IPv6 ::1 (RFC 4291, section 2.5.3).
    public var isLoopback: Bool {
        if let bytes = ipv4Bytes { return bytes[0] == 127 }
        guard family == Int32(AF_INET6) else { return false }
        return withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                withUnsafeBytes(of: address.pointee.sin6_addr) { $0.elementsEqual([UInt8](repeating: 0, count: 15) + [1]) }
            }
        }
    }

    /// The IPv4 address, in network byte order, or nil for IPv6.
    var ipv4Address: in_addr? {
        guard family == Int32(AF_INET) else { return nil }
        return withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        }
    }

    /// The IPv4 address's four bytes, most significant first; nil for IPv6.
    public var ipv4Bytes: [UInt8]? {
        guard let address = ipv4Address else { return nil }
        let value = UInt32(bigEndian: address.s_addr)
        return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A multicast group: IPv4 224.0.0.0/4 (RFC 5771) or IPv6 ff00::/8 (RFC 4291, section 2.7).
    var isMulticast: Bool {
        if let bytes = ipv4Bytes { return bytes[0] & 0xF0 == 0xE0 }
        guard family == Int32(AF_INET6) else { return false }
        return withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr.__in6_u.__u6_addr8.0 == 0xFF }
        }
    }

    /// Calls `body` with the address as the C library expects it.
    func withSockaddrPointer<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Byte-for-byte equality of the meaningful part.
    public static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        guard lhs.length == rhs.length else { return false }
        return withUnsafeBytes(of: lhs.storage) { left in
            withUnsafeBytes(of: rhs.storage) { right in
                left.prefix(Int(lhs.length)).elementsEqual(right.prefix(Int(rhs.length)))
            }
        }
    }
}
