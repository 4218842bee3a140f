import OSC

/// A UDP socket address (IPv4 or IPv6): where a control packet came from, so the reply goes back there, or
/// where the control socket listens. The OSC module's ``SocketAddress``, which its ``UDPEndpoint`` reports.
public typealias ControlPeer = SocketAddress
