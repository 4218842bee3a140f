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
