#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every C library call the OSC module makes, each wrapped exactly once (the pattern of swift-system's
/// `Internals/Syscalls.swift`): the rest of the module has no libc spelling in it, `errno` is read right
/// after the call that set it, and the module's whole system surface can be reviewed in this one file.
enum Syscalls {
    /// `socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP)`, or without `SOCK_NONBLOCK`
    /// when `nonBlocking` is false.
    ///
    /// Non-blocking because a sender must never stall the thread that produces measurements; a receiving
    /// socket blocks instead, up to its receive timeout (``setReceiveTimeout(_:seconds:)``), and sends with
    /// `MSG_DONTWAIT`. Close-on-exec so a child process (an NSM session helper, a hook script) does not
    /// inherit it.
    static func udpSocket(family: Int32, nonBlocking: Bool = true) -> Result<Int32, Errno> {
        var type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let fd = socket(family, type, Int32(IPPROTO_UDP))
        return fd >= 0 ? .success(fd) : .failure(Errno.current)
    }

    /// `socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP)`: a TCP stream (OS2L) that
    /// connects and sends without blocking; the caller waits for it with ``poll(_:events:milliseconds:)``.
    static func tcpSocket(family: Int32) -> Result<Int32, Errno> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(family, type, Int32(IPPROTO_TCP))
        return fd >= 0 ? .success(fd) : .failure(Errno.current)
    }

    /// `setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, 1)`: each small message leaves at once instead of waiting
    /// for the previous one's acknowledgement (Nagle), which would also glue two messages into one segment.
    static func disableNagle(_ fd: Int32) -> Result<Void, Errno> {
        var on: Int32 = 1
        return setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: &on)
    }

    /// `poll({fd, events}, 1, milliseconds)`: the events that happened (`POLLOUT`, `POLLIN`, `POLLERR`,
    /// `POLLHUP`), or 0 when the time ran out.
    static func poll(_ fd: Int32, events: Int16, milliseconds: Int32) -> Result<Int16, Errno> {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let count = Glibc.poll(&entry, 1, milliseconds)
        return count >= 0 ? .success(count == 0 ? 0 : entry.revents) : .failure(Errno.current)
    }

    /// `getsockopt(fd, SOL_SOCKET, SO_ERROR)`: the outcome of a non-blocking `connect` once the socket is
    /// writable (0 when it connected).
    static func pendingError(_ fd: Int32) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) == 0 ? value : Errno.current.rawValue
    }

    /// `send(fd, bytes, MSG_DONTWAIT | MSG_NOSIGNAL)` on a stream: how many bytes the kernel took (perhaps
    /// fewer than offered). `MSG_NOSIGNAL` so a receiver that went away gives EPIPE, not a SIGPIPE that
    /// would end jacktap.
    static func sendStream(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        return sent >= 0 ? .success(sent) : .failure(Errno.current)
    }

    /// `recv(fd, buffer, MSG_DONTWAIT)` on a stream: bytes read, 0 when the peer closed it.
    static func receiveStream(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        return count >= 0 ? .success(count) : .failure(Errno.current)
    }

    /// `setsockopt(fd, SOL_SOCKET, SO_BROADCAST, 1)`: without it Linux refuses (EACCES) datagrams to a
    /// broadcast address, and lighting users broadcast to a console subnet (e.g. 192.168.1.255).
    static func enableBroadcast(_ fd: Int32) -> Result<Void, Errno> {
        var on: Int32 = 1
        return setOption(fd, level: SOL_SOCKET, name: SO_BROADCAST, value: &on)
    }

    /// `setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, 1)`: a well-known port (Art-Net's 6454) that another program on
    /// the same host may also listen on; a broadcast reaches every socket bound to it with the option.
    static func enableAddressReuse(_ fd: Int32) -> Result<Void, Errno> {
        var on: Int32 = 1
        return setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: &on)
    }

    /// `setsockopt(fd, IPPROTO_IP, IP_MULTICAST_TTL, ttl)` (or `IPV6_MULTICAST_HOPS` for IPv6): how many
    /// routers a multicast datagram may cross. Linux's default is 1 (ip(7)), the local subnet only.
    static func setMulticastTTL(_ fd: Int32, family: Int32, ttl: UInt8) -> Result<Void, Errno> {
        var value = Int32(ttl)
        return family == AF_INET6
            ? setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_MULTICAST_HOPS, value: &value)
            : setOption(fd, level: Int32(IPPROTO_IP), name: IP_MULTICAST_TTL, value: &value)
    }

    /// `setsockopt(fd, IPPROTO_IP, IP_MULTICAST_LOOP, on)` (or `IPV6_MULTICAST_LOOP`): whether receivers on
    /// this host that joined the group get a copy (a visualiser beside jacktap, and the tests).
    static func setMulticastLoop(_ fd: Int32, family: Int32, enabled: Bool) -> Result<Void, Errno> {
        var value: Int32 = enabled ? 1 : 0
        return family == AF_INET6
            ? setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_MULTICAST_LOOP, value: &value)
            : setOption(fd, level: Int32(IPPROTO_IP), name: IP_MULTICAST_LOOP, value: &value)
    }

    /// `setsockopt(fd, IPPROTO_IP, IP_MULTICAST_IF, in_addr)`: the interface (named by one of its IPv4
    /// addresses) multicast leaves by, instead of the one the routing table picks for the group.
    static func setMulticastInterface(_ fd: Int32, address: SocketAddress) -> Result<Void, Errno> {
        guard var ipv4 = address.ipv4Address else { return .failure(Errno(rawValue: EAFNOSUPPORT)) }
        return setOption(fd, level: Int32(IPPROTO_IP), name: IP_MULTICAST_IF, value: &ipv4)
    }

    /// `setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, seconds)`: a blocking receive returns EAGAIN after `seconds`
    /// without a datagram, so a receiving thread can notice a stop request.
    static func setReceiveTimeout(_ fd: Int32, seconds: Double) -> Result<Void, Errno> {
        var time = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        return setOption(fd, level: SOL_SOCKET, name: SO_RCVTIMEO, value: &time)
    }

    /// `setsockopt(fd, level, name, &value, sizeof(value))`: the one call behind the option wrappers
    /// above, so the option length always matches the value's type and `errno` is read right after the call.
    /// `BitwiseCopyable` because the kernel copies the value's bytes (an `Int32`, an `in_addr`).
    private static func setOption<T: BitwiseCopyable>(_ fd: Int32, level: Int32, name: Int32,
                                                      value: inout T) -> Result<Void, Errno> {
        let result = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<T>.size))
        return result == 0 ? .success(()) : .failure(Errno.current)
    }

    /// `connect(fd, address)`. On a UDP socket it sends nothing, only fixes the peer, so the kernel reports
    /// ICMP errors from it (ECONNREFUSED on the next send); an `AF_UNSPEC` address dissolves the
    /// association (POSIX `connect`, Linux udp(7)). On a non-blocking TCP socket it starts the handshake and
    /// fails with EINPROGRESS; the socket turns writable when the handshake ends (`pendingError` tells how).
    static func connect(_ fd: Int32, to address: SocketAddress) -> Result<Void, Errno> {
        let result = address.withSockaddrPointer { pointer, length in
            Glibc.connect(fd, pointer, length)
        }
        return result == 0 ? .success(()) : .failure(Errno.current)
    }

    /// `sendto(fd, bytes, MSG_DONTWAIT, address)`, or to the connected peer when `address` is nil: one whole
    /// datagram or an error. `MSG_DONTWAIT` so the call cannot block, whatever the socket's flags: a full send
    /// buffer drops the datagram instead of stalling the caller.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, to address: SocketAddress? = nil) -> Result<Int, Errno> {
        let sent = if let address {
            address.withSockaddrPointer { pointer, length in
                sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), pointer, length)
            }
        } else {
            sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), nil, 0)
        }
        return sent >= 0 ? .success(sent) : .failure(Errno.current)
    }

    /// `bind(fd, address)`.
    static func bind(_ fd: Int32, to address: SocketAddress) -> Result<Void, Errno> {
        let result = address.withSockaddrPointer { pointer, length in Glibc.bind(fd, pointer, length) }
        return result == 0 ? .success(()) : .failure(Errno.current)
    }

    /// `getsockname(fd)`: the address the socket is bound to (with the port the kernel chose for port 0).
    static func localAddress(_ fd: Int32) -> Result<SocketAddress, Errno> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? .success(SocketAddress(storage: storage, length: length)) : .failure(Errno.current)
    }

    /// `recvfrom(fd, buffer, MSG_TRUNC)`: one datagram's length and sender, blocking up to the socket's
    /// receive timeout. MSG_TRUNC makes Linux return a datagram's real length even when it did not fit
    /// (udp(7)), so an oversize one is recognised instead of being taken cut short.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<(Int, SocketAddress), Errno> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_TRUNC), $0, &length)
            }
        }
        return count >= 0 ? .success((count, SocketAddress(storage: storage, length: length))) : .failure(Errno.current)
    }

    /// `inet_ntop(family, address)`: the numeric host of an `in_addr` or `in6_addr` ("127.0.0.1", "::1").
    static func numericHost(family: Int32, _ address: UnsafeRawBufferPointer) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        _ = inet_ntop(family, address.baseAddress, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `close(fd)`. Errors are ignored: Linux frees the descriptor even when close reports one, so a
    /// retry could close a descriptor another thread has just been given.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `getaddrinfo(host, port, {AF_UNSPEC, SOCK_DGRAM, IPPROTO_UDP, AI_NUMERICSERV})`, copying each
    /// result out before `freeaddrinfo`. Takes numeric addresses and names alike. `passive` adds
    /// `AI_PASSIVE`: addresses to bind to rather than to send to.
    static func resolveUDP(host: String, port: UInt16, passive: Bool = false) -> Result<[SocketAddress], AddressInfoError> {
        resolve(host: host, port: port, stream: false, passive: passive)
    }

    /// The same for TCP (`SOCK_STREAM`, `IPPROTO_TCP`).
    static func resolveTCP(host: String, port: UInt16) -> Result<[SocketAddress], AddressInfoError> {
        resolve(host: host, port: port, stream: true, passive: false)
    }

    private static func resolve(host: String, port: UInt16, stream: Bool, passive: Bool)
        -> Result<[SocketAddress], AddressInfoError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(stream ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue)
        hints.ai_protocol = Int32(stream ? IPPROTO_TCP : IPPROTO_UDP)
        hints.ai_flags = passive ? AI_NUMERICSERV | AI_PASSIVE : AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let systemError = status == EAI_SYSTEM ? Errno.current : nil
            return .failure(AddressInfoError(code: status, systemError: systemError))
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let sockaddr = info.ai_addr {
                addresses.append(SocketAddress(copying: sockaddr, length: info.ai_addrlen))
            }
            entry = info.ai_next
        }
        return .success(addresses)
    }

    /// `gai_strerror(code)`: the resolver's own wording, e.g. "Name or service not known".
    static func addressInfoErrorMessage(_ code: Int32) -> String {
        String(cString: gai_strerror(code))
    }

    /// `strerror(code)`: the C library's wording, e.g. "Connection refused".
    static func errorMessage(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }

    /// The thread's current `errno`.
    static var currentErrno: Int32 { errno }
}

/// The C library constants the module refers to outside this file.
extension Syscalls {
    /// `AF_INET`.
    static let addressFamilyIPv4 = Int32(AF_INET)
    /// `AF_INET6`.
    static let addressFamilyIPv6 = Int32(AF_INET6)
    /// `EAGAIN`, which Linux also spells `EWOULDBLOCK`: the socket's send buffer is full, or a blocking
    /// receive's timeout passed.
    static let wouldBlock = EAGAIN
    /// `EINTR`: a signal interrupted the call before anything happened.
    static let interrupted = EINTR
    /// `EINPROGRESS`: a non-blocking TCP connect has started.
    static let inProgress = EINPROGRESS
    /// `poll` events: writable, readable, error, hang-up.
    static let pollOut = Int16(POLLOUT)
    static let pollIn = Int16(POLLIN)
    static let pollErrorOrHangUp = Int16(POLLERR | POLLHUP)
    /// Errors after which a connected UDP socket should be re-associated, so that the kernel looks up
    /// the route and source address again (they are fixed at `connect` time): `ENETUNREACH`,
    /// `EHOSTUNREACH`, `ENETDOWN`, `EADDRNOTAVAIL`, `EINVAL`, `EDESTADDRREQ`.
    static let routeErrors: [Int32] = [ENETUNREACH, EHOSTUNREACH, ENETDOWN, EADDRNOTAVAIL, EINVAL, EDESTADDRREQ]
}
