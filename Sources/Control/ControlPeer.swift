#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A UDP socket address (IPv4 or IPv6): where a control packet came from, so the reply goes back there, or
/// where the control socket listens.
public struct ControlPeer: Sendable, Equatable, CustomStringConvertible {
    private var storage: sockaddr_storage
    private var length: socklen_t

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
    }

    init(copying address: UnsafePointer<sockaddr>, length: socklen_t) {
        var storage = sockaddr_storage()
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count)) }
        self.init(storage: storage, length: socklen_t(count))
    }

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// The numeric host ("127.0.0.1", "::1").
    public var host: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafePointer(to: storage) { pointer in
            if family == AF_INET {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            } else if family == AF_INET6 {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The UDP port.
    public var port: UInt16 {
        withUnsafePointer(to: storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// `HOST:PORT`, an IPv6 host in brackets.
    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    func withSockaddrPointer<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        withUnsafePointer(to: storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    public static func == (lhs: ControlPeer, rhs: ControlPeer) -> Bool {
        lhs.length == rhs.length && withUnsafeBytes(of: lhs.storage) { left in
            withUnsafeBytes(of: rhs.storage) { right in left.prefix(Int(lhs.length)).elementsEqual(right.prefix(Int(rhs.length))) }
        }
    }
}
