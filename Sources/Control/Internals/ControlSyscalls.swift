#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every C library call the control input makes, each wrapped once (as Sources/OSC/Internals/Syscalls.swift
/// does for sending; those wrappers are internal to the OSC module and a receiving socket needs other calls:
/// bind, a receive timeout, recvfrom and sendto to whoever asked).
enum ControlSyscalls {
    /// A failed call: the C library's wording.
    struct Failure: Error {
        var message: String
    }

    /// `getaddrinfo(host, port, {AF_UNSPEC, SOCK_DGRAM, IPPROTO_UDP, AI_PASSIVE | AI_NUMERICSERV})`: the
    /// addresses a listening socket can bind to, IPv4 first.
    static func resolveListen(host: String, port: UInt16) -> Result<[ControlPeer], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_UDP)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else { return .failure(Failure(message: String(cString: gai_strerror(status)))) }
        defer { freeaddrinfo(list) }
        var found = [ControlPeer]()
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                found.append(ControlPeer(copying: address, length: info.ai_addrlen))
            }
            entry = info.ai_next
        }
        return .success(found.filter { $0.family == AF_INET } + found.filter { $0.family == AF_INET6 })
    }

    /// `socket(family, SOCK_DGRAM | SOCK_CLOEXEC)`, `bind`, and `SO_RCVTIMEO`: a blocking receive that
    /// returns after `timeout` seconds without a datagram, so the receiving thread can notice a stop request.
    /// Close-on-exec so that no child process inherits the control port.
    static func boundSocket(_ address: ControlPeer, timeout: Double) -> Result<Int32, Failure> {
        let fd = socket(address.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Int32(IPPROTO_UDP))
        guard fd >= 0 else { return .failure(Failure(message: message(errno))) }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        let bound = address.withSockaddrPointer { pointer, length in bind(fd, pointer, length) }
        guard bound == 0 else {
            let error = errno
            close(fd)
            return .failure(Failure(message: message(error)))
        }
        guard setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let error = errno
            close(fd)
            return .failure(Failure(message: message(error)))
        }
        return .success(fd)
    }

    /// `getsockname(fd)`: the address the socket is bound to (the port the kernel chose for port 0).
    static func localAddress(_ fd: Int32) -> ControlPeer? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? ControlPeer(storage: storage, length: length) : nil
    }

    /// What one `recvfrom` gave.
    enum Received {
        /// A datagram of `count` bytes (0 is an empty datagram) from `peer`.
        case datagram(count: Int, peer: ControlPeer)
        /// The receive timeout passed (EAGAIN) or a signal interrupted the call (EINTR).
        case nothing
        /// Any other error (the socket is unusable, or an ICMP error from a previous reply).
        case failed
    }

    /// `recvfrom(fd, buffer, MSG_TRUNC)`: one datagram, blocking up to the socket's receive timeout.
    /// MSG_TRUNC makes Linux return a datagram's real length even when it did not fit, so an oversize
    /// one is recognised instead of being decoded cut short.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Received {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &length)
            }
        }
        if count >= 0 { return .datagram(count: count, peer: ControlPeer(storage: storage, length: length)) }
        let error = errno
        return error == EAGAIN || error == EWOULDBLOCK || error == EINTR ? .nothing : .failed
    }

    /// `sendto(fd, bytes, MSG_DONTWAIT, peer)`: a reply that is dropped rather than waited for when the send
    /// buffer is full. Returns whether the kernel took it.
    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8], to peer: ControlPeer) -> Bool {
        bytes.withUnsafeBytes { buffer in
            peer.withSockaddrPointer { pointer, length in
                sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), pointer, length) == buffer.count
            }
        }
    }

    /// `close(fd)`; errors are ignored (Linux frees the descriptor anyway).
    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    /// `strerror(code)`.
    static func message(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
