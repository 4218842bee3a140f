#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A resolved socket address (IPv4 or IPv6), copied out of `getaddrinfo`'s list so it outlives
/// `freeaddrinfo` and can be stored in a `Sendable` value.
struct SocketAddress: Sendable, Equatable {
    /// The address bytes as a `sockaddr_in` or `sockaddr_in6`; `sockaddr_storage` fits either.
    private var storage: sockaddr_storage
    /// How many bytes of `storage` are meaningful.
    private(set) var length: socklen_t

    /// Copies `length` bytes from a `sockaddr` produced by the C library.
    init(copying address: UnsafePointer<sockaddr>, length: socklen_t) {
        var storage = sockaddr_storage()
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count))
        }
        self.storage = storage
        self.length = socklen_t(count)
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

    /// The IPv4 address, in network byte order, or nil for IPv6.
    var ipv4Address: in_addr? {
        guard family == Int32(AF_INET) else { return nil }
        return withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
        }
    }

    /// The IPv4 address's four bytes, most significant first; nil for IPv6.
    var ipv4Bytes: [UInt8]? {
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
    static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        guard lhs.length == rhs.length else { return false }
        return withUnsafeBytes(of: lhs.storage) { left in
            withUnsafeBytes(of: rhs.storage) { right in
                left.prefix(Int(lhs.length)).elementsEqual(right.prefix(Int(rhs.length)))
            }
        }
    }
}
