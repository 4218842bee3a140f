#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every C library call the OSC module makes, each wrapped exactly once (the pattern of swift-system's
/// `Internals/Syscalls.swift`): the rest of the module has no libc spelling in it, `errno` is read right
/// after the call that set it, and the module's whole system surface can be reviewed in this one file.
enum Syscalls {
    /// `socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP)`.
    ///
    /// Non-blocking because a sender must never stall the thread that produces measurements;
    /// close-on-exec so a child process (an NSM session helper, a hook script) does not inherit it.
    static func udpSocket(family: Int32) -> Result<Int32, Errno> {
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, type, Int32(IPPROTO_UDP))
        return fd >= 0 ? .success(fd) : .failure(Errno.current)
    }

    /// `setsockopt(fd, SOL_SOCKET, SO_BROADCAST, 1)`: without it Linux refuses (EACCES) datagrams to a
    /// broadcast address, and lighting users broadcast to a console subnet (e.g. 192.168.1.255).
    static func enableBroadcast(_ fd: Int32) -> Result<Void, Errno> {
        var on: Int32 = 1
        return setOption(fd, level: SOL_SOCKET, name: SO_BROADCAST, value: &on)
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

    /// `setsockopt(fd, level, name, &value, sizeof(value))`: the one call behind the four option wrappers
    /// above, so the option length always matches the value's type and `errno` is read right after the call.
    /// `BitwiseCopyable` because the kernel copies the value's bytes (an `Int32`, an `in_addr`).
    private static func setOption<T: BitwiseCopyable>(_ fd: Int32, level: Int32, name: Int32,
                                                      value: inout T) -> Result<Void, Errno> {
        let result = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<T>.size))
        return result == 0 ? .success(()) : .failure(Errno.current)
    }

    /// `connect(fd, address)` on a UDP socket: sends nothing, only fixes the peer, so the kernel reports
    /// ICMP errors from it (ECONNREFUSED on the next send); an `AF_UNSPEC` address dissolves the
    /// association (POSIX `connect`, Linux udp(7)).
    static func connect(_ fd: Int32, to address: SocketAddress) -> Result<Void, Errno> {
        let result = address.withSockaddrPointer { pointer, length in
            Glibc.connect(fd, pointer, length)
        }
        return result == 0 ? .success(()) : .failure(Errno.current)
    }

    /// `sendto(fd, bytes, MSG_DONTWAIT, NULL, 0)` on a connected socket: one whole datagram or an error.
    /// `MSG_DONTWAIT` as well as `SOCK_NONBLOCK` so the call cannot block even if the flags were changed.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        let sent = sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), nil, 0)
        return sent >= 0 ? .success(sent) : .failure(Errno.current)
    }

    /// `close(fd)`. Errors are ignored: Linux frees the descriptor even when close reports one, so a
    /// retry could close a descriptor another thread has just been given.
    static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// `getaddrinfo(host, port, {AF_UNSPEC, SOCK_DGRAM, IPPROTO_UDP, AI_NUMERICSERV})`, copying each
    /// result out before `freeaddrinfo`. Takes numeric addresses and names alike.
    static func resolveUDP(host: String, port: UInt16) -> Result<[SocketAddress], AddressInfoError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_UDP)
        hints.ai_flags = AI_NUMERICSERV
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
    /// `EAGAIN`, which Linux also spells `EWOULDBLOCK`: the socket's send buffer is full.
    static let wouldBlock = EAGAIN
    /// Errors after which a connected UDP socket should be re-associated, so that the kernel looks up
    /// the route and source address again (they are fixed at `connect` time): `ENETUNREACH`,
    /// `EHOSTUNREACH`, `ENETDOWN`, `EADDRNOTAVAIL`, `EINVAL`, `EDESTADDRREQ`.
    static let routeErrors: [Int32] = [ENETUNREACH, EHOSTUNREACH, ENETDOWN, EADDRNOTAVAIL, EINVAL, EDESTADDRREQ]
}
