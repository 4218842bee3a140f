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

    /// Opens one non-blocking UDP socket per destination, using the address resolved when the destination
    /// was parsed. Throws only when the system gives no socket; a destination that cannot be reached yet
    /// is not an error here, it shows up in ``errorCounts``.
    public init(destinations: [OSCDestination]) throws(OSCDestinationError) {
        self.destinations = destinations
        sentCounts = Array(repeating: 0, count: destinations.count)
        errorCounts = Array(repeating: 0, count: destinations.count)
        connected = Array(repeating: false, count: destinations.count)
        lastErrorNumbers = Array(repeating: 0, count: destinations.count)
        sockets = []
        for destination in destinations {
            switch Syscalls.udpSocket(family: destination.address.family) {
            case .success(let fd):
                sockets.append(fd)
            case .failure(let error):
                sockets.forEach(Syscalls.close)
                throw .socketUnavailable(destination: destination.description, reason: error.description)
            }
            if destination.address.family == Syscalls.addressFamilyIPv4 {
                // Best effort: without it only a broadcast destination fails, and that is counted.
                _ = Syscalls.enableBroadcast(sockets[sockets.count - 1])
            }
        }
        for index in destinations.indices {
            connected[index] = connect(index)
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
                send(buffer, to: index)
            }
        }
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
    private func send(_ buffer: UnsafeRawBufferPointer, to index: Int) {
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
