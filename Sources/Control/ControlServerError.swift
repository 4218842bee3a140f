/// Why the control input could not start.
public enum ControlServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--listen` text that is not `HOST:PORT`, `[IPv6]:PORT` or `PORT`.
    case invalidListenAddress(text: String, reason: String)
    /// The host did not resolve to an IPv4 or IPv6 address.
    case unresolvable(host: String, reason: String)
    /// The system gave no socket, or refused to bind it (the port is taken, the address is not local).
    case bindFailed(address: String, reason: String)

    public var description: String {
        switch self {
        case .invalidListenAddress(let text, let reason): "'\(text)' is not HOST:PORT or PORT: \(reason)"
        case .unresolvable(let host, let reason): "cannot resolve '\(host)': \(reason)"
        case .bindFailed(let address, let reason): "cannot listen on \(address): \(reason)"
        }
    }
}
