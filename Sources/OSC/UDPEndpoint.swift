/// A UDP socket bound to a local address that receives datagrams, waiting at most a timeout, and sends
/// datagrams to any address from that same port: for receivers that answer whoever asked (the control input)
/// and for protocols that want every message from one socket (NSM: "All messages MUST be sent from the same
/// socket as the announce message", because the server tells its clients apart by their return addresses).
///
/// Sends use `MSG_DONTWAIT`: a peer that does not read cannot stall the sender, its datagrams are dropped.
/// One thread may receive while others send: Linux serialises datagram calls on a descriptor, and the
/// receive buffer belongs to the caller. The socket is closed when the endpoint is released.
public final class UDPEndpoint: Sendable {
    /// The address the socket is bound to, with the port the kernel chose when 0 was asked for.
    public let localAddress: SocketAddress
    private let socket: Int32

    /// What one ``receive(into:)`` gave.
    public enum Received: Sendable, Equatable {
        /// A datagram of `count` bytes (0 is an empty datagram) from `sender`. A `count` larger than the
        /// buffer is the datagram's real length: only what fitted was stored.
        case datagram(count: Int, sender: SocketAddress)
        /// The receive timeout passed, or a signal interrupted the wait.
        case nothing
        /// Any other error: the socket is unusable, or an ICMP error from an earlier send was reported.
        case failed
    }

    /// Binds a blocking UDP socket to `host` (an address or a name; its first IPv4 address, else IPv6) and
    /// `port` (0 lets the kernel choose), with a receive that gives up after `receiveTimeout` seconds. With
    /// `sharedPort`, other sockets that ask for the same may bind the port too (SO_REUSEADDR).
    public init(host: String, port: UInt16, receiveTimeout: Double, sharedPort: Bool = false) throws(UDPEndpointError) {
        let found: [SocketAddress]
        switch Syscalls.resolveUDP(host: host, port: port, passive: true) {
        case .success(let addresses): found = addresses
        case .failure(let error): throw .unresolvable(host: host, reason: error.description)
        }
        let ipv4 = found.filter { $0.family == Syscalls.addressFamilyIPv4 }
        guard let address = ipv4.first ?? found.first(where: { $0.family == Syscalls.addressFamilyIPv6 }) else {
            throw .unresolvable(host: host, reason: "no IPv4 or IPv6 address")
        }
        let named = address.family == Syscalls.addressFamilyIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)"
        let fd: Int32
        switch Syscalls.udpSocket(family: address.family, nonBlocking: false) {
        case .success(let descriptor): fd = descriptor
        case .failure(let error): throw .bindFailed(address: named, reason: error.description)
        }
        let configured = (sharedPort ? Syscalls.enableAddressReuse(fd) : .success(()))
            .flatMap { _ in Syscalls.bind(fd, to: address) }
            .flatMap { _ in Syscalls.setReceiveTimeout(fd, seconds: receiveTimeout) }
            .flatMap { _ in Syscalls.localAddress(fd) }
        switch configured {
        case .success(let bound): localAddress = bound
        case .failure(let error):
            Syscalls.close(fd)
            throw .bindFailed(address: named, reason: error.description)
        }
        socket = fd
    }

    deinit {
        Syscalls.close(socket)
    }

    /// Waits up to the receive timeout for one datagram and stores as much of it as fits in `buffer`.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> Received {
        switch Syscalls.receive(socket, into: buffer) {
        case .success(let (count, sender)):
            return .datagram(count: count, sender: sender)
        case .failure(let error):
            return error.rawValue == Syscalls.wouldBlock || error.rawValue == Syscalls.interrupted ? .nothing : .failed
        }
    }

    /// This host's IPv4 address on the way to `peer` (the routing table's choice, found by connecting a UDP
    /// socket, which sends nothing), nil when there is no route or `peer` is not IPv4.
    public static func localIPv4(toward peer: SocketAddress) -> [UInt8]? {
        guard peer.ipv4Bytes != nil, case .success(let fd) = Syscalls.udpSocket(family: peer.family) else { return nil }
        defer { Syscalls.close(fd) }
        guard case .success = Syscalls.connect(fd, to: peer), case .success(let local) = Syscalls.localAddress(fd) else {
            return nil
        }
        return local.ipv4Bytes
    }

    /// Sends `bytes` as one datagram to `address` without waiting; returns whether the kernel took it whole.
    @discardableResult
    public func send(_ bytes: [UInt8], to address: SocketAddress) -> Bool {
        bytes.withUnsafeBytes { buffer in
            if case .success(let sent) = Syscalls.send(socket, buffer, to: address) { return sent == buffer.count }
            return false
        }
    }
}
