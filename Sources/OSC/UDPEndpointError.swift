/// Why a ``UDPEndpoint`` could not be made.
public enum UDPEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host did not resolve to an IPv4 or IPv6 address.
    case unresolvable(host: String, reason: String)
    /// The system gave no socket, or refused to bind it (the port is taken, the address is not local).
    case bindFailed(address: String, reason: String)

    public var description: String {
        switch self {
        case .unresolvable(let host, let reason): "cannot resolve '\(host)': \(reason)"
        case .bindFailed(let address, let reason): "cannot bind \(address): \(reason)"
        }
    }
}
