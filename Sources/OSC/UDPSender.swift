/// Sends each datagram to every destination without ever blocking or throwing, and counts per
/// destination what got out and what did not.
///
/// Each destination gets its own non-blocking UDP socket, connected to it. Linux reports an ICMP
/// "port unreachable" (nothing listening, receiver down) as ECONNREFUSED on a later send only when the
/// UDP socket is connected or has IP_RECVERR set (net/ipv4/udp.c, `__udp4_lib_err`), whatever udp(7)
/// says about RFC 1122; measured here, 10,000 sends to a closed loopback port gave no error from an
/// unconnected socket and 5,000 ECONNREFUSED from a connected one. A socket shared by several
/// destinations would also charge one destination's refusal to another. The datagram whose send
/// reports the refusal is dropped, which costs nothing while the receiver is down.
///
/// Not thread-safe: use one sender from one thread at a time (the counts are plain arrays).
public final class UDPSender {
    /// The destinations, in the order of the count arrays.
    public let destinations: [OSCDestination]
    /// Datagrams the kernel accepted for each destination.
    public private(set) var sentCounts: [Int]
    /// Datagrams not sent to each destination: refused (ECONNREFUSED, the receiver is down), no route
    /// (ENETUNREACH, EHOSTUNREACH), full send buffer (EAGAIN), too large (EMSGSIZE), or any other error.
    public private(set) var errorCounts: [Int]

    /// One descriptor per destination; -1 once closed.
    private var sockets: [Int32]
    /// Whether each socket is associated with its destination; false when `connect` failed (no route at
    /// start-up, say), so the next send tries again.
    private var connected: [Bool]
    /// The `errno` of each destination's latest failure, 0 for none; a number so recording allocates nothing.
    private var lastErrorNumbers: [Int32]

    /// How the sockets are set up beyond the defaults.
    public struct Options: Sendable, Equatable {
        /// Fail at start when the system refuses `SO_BROADCAST` (the user named a broadcast destination);
        /// otherwise broadcast is still enabled on every IPv4 socket, best effort.
        public var broadcast = false
        /// Hops a multicast datagram may take (`IP_MULTICAST_TTL`); 1, Linux's default, keeps it on the subnet.
        public var multicastTTL: UInt8 = 1
        /// Whether receivers on this host get multicast copies (`IP_MULTICAST_LOOP`), on by default so a
        /// visualiser beside jacktap (and the tests) receive.
        public var multicastLoop = true
        /// The IPv4 address of the interface multicast leaves by (`IP_MULTICAST_IF`); nil lets the routing
        /// table choose.
        public var multicastInterface: String?

        /// The defaults: best-effort broadcast, TTL 1, loop on, interface chosen by the routing table.
        public init(broadcast: Bool = false, multicastTTL: UInt8 = 1, multicastLoop: Bool = true,
                    multicastInterface: String? = nil) {
            self.broadcast = broadcast
            self.multicastTTL = multicastTTL
            self.multicastLoop = multicastLoop
            self.multicastInterface = multicastInterface
        }
    }

    /// Opens one non-blocking UDP socket per destination, using the address resolved when the destination
    /// was parsed, and applies `options` (multicast ones only to multicast destinations). Throws when the
    /// system gives no socket or refuses an option the user asked for; a destination that cannot be
    /// reached yet is not an error here, it shows up in ``errorCounts``.
    public init(destinations: [OSCDestination], options: Options = Options()) throws(OSCDestinationError) {
        self.destinations = destinations
        sentCounts = Array(repeating: 0, count: destinations.count)
        errorCounts = Array(repeating: 0, count: destinations.count)
        connected = Array(repeating: false, count: destinations.count)
        lastErrorNumbers = Array(repeating: 0, count: destinations.count)
        sockets = []
        var interface: SocketAddress?
        if let text = options.multicastInterface {
            guard case .success(let found) = Syscalls.resolveUDP(host: text, port: 9),
                  let first = found.first(where: { $0.family == Syscalls.addressFamilyIPv4 })
            else { throw .notAnInterfaceAddress(text: text) }
            interface = first
        }
        for destination in destinations {
            switch Syscalls.udpSocket(family: destination.address.family) {
            case .success(let fd):
                sockets.append(fd)
            case .failure(let error):
                sockets.forEach(Syscalls.close)
                throw .socketUnavailable(destination: destination.description, reason: error.description)
            }
            do throws(OSCDestinationError) {
                try Self.configure(sockets[sockets.count - 1], for: destination, options: options, interface: interface)
            } catch {
                sockets.forEach(Syscalls.close)
                throw error
            }
        }
        for index in destinations.indices {
            connected[index] = connect(index)
        }
    }

    /// Sets broadcast and, for a multicast group, TTL, loop and interface on `fd`.
    private static func configure(_ fd: Int32, for destination: OSCDestination, options: Options,
                                  interface: SocketAddress?) throws(OSCDestinationError) {
        let family = destination.address.family
        func check(_ result: Result<Void, Errno>, _ option: String) throws(OSCDestinationError) {
            if case .failure(let error) = result {
                throw .socketOptionRefused(destination: destination.description, option: option, reason: error.description)
            }
        }
        if family == Syscalls.addressFamilyIPv4 {
            // Always asked for: without it Linux refuses datagrams to a subnet's broadcast address (EACCES),
            // which cannot be recognised from the address alone. Required only when the user named broadcast.
            let result = Syscalls.enableBroadcast(fd)
            if options.broadcast || destination.isLimitedBroadcast { try check(result, "SO_BROADCAST") }
        }
        guard destination.isMulticast else { return }
        try check(Syscalls.setMulticastTTL(fd, family: family, ttl: options.multicastTTL), "the multicast TTL")
        try check(Syscalls.setMulticastLoop(fd, family: family, enabled: options.multicastLoop), "multicast loop")
        if let interface, family == Syscalls.addressFamilyIPv4 {
            try check(Syscalls.setMulticastInterface(fd, address: interface), "the multicast interface")
        }
    }

    deinit {
        close()
    }

    /// Sends `bytes` as one datagram to every destination. Never blocks, never throws, allocates nothing;
    /// each failure is counted in ``errorCounts``.
    public func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            for index in sockets.indices where sockets[index] >= 0 {
                send(buffer: buffer, to: index)
            }
        }
    }

    /// Sends `bytes` as one datagram to destination `index` only (each destination of a router gets its own
    /// packets). Never blocks, never throws, allocates nothing.
    public func send(_ bytes: UnsafeRawBufferPointer, to index: Int) {
        guard sockets.indices.contains(index), sockets[index] >= 0 else { return }
        send(buffer: bytes, to: index)
    }

    /// Encodes `packet` and sends it as one datagram to every destination.
    public func send(_ packet: OSCPacket) {
        send(packet.encoded)
    }

    /// The C library's message for each destination's latest failure ("Connection refused"), nil if it
    /// has had none.
    public var lastErrors: [String?] {
        lastErrorNumbers.map { $0 == 0 ? nil : Errno(rawValue: $0).description }
    }

    /// Closes the sockets; later sends do nothing. Called by deinit.
    public func close() {
        for index in sockets.indices where sockets[index] >= 0 {
            Syscalls.close(sockets[index])
            sockets[index] = -1
        }
    }

    /// Sends one datagram to destination `index` and counts the outcome.
    private func send(buffer: UnsafeRawBufferPointer, to index: Int) {
        if !connected[index] {
            // Dissolve any stale association first: Linux keeps a connected socket's source address,
            // which may have gone away with the route.
            _ = Syscalls.connect(sockets[index], to: .unspecified)
            connected[index] = connect(index)
            if !connected[index] {
                errorCounts[index] += 1
                return
            }
        }
        switch Syscalls.send(sockets[index], buffer) {
        case .success:
            sentCounts[index] += 1
        case .failure(let error):
            errorCounts[index] += 1
            lastErrorNumbers[index] = error.rawValue
            if Syscalls.routeErrors.contains(error.rawValue) {
                connected[index] = false
            }
        }
    }

    /// Associates socket `index` with its destination; records the error and returns false on failure.
    private func connect(_ index: Int) -> Bool {
        switch Syscalls.connect(sockets[index], to: destinations[index].address) {
        case .success:
            return true
        case .failure(let error):
            lastErrorNumbers[index] = error.rawValue
            return false
        }
    }
}
