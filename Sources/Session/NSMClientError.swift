/// Why an ``NSMClient`` could not start talking to the server named by `NSM_URL`.
public enum NSMClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL's host did not resolve to an IPv4 or IPv6 address.
    case unresolvable(url: String, reason: String)
    /// The system gave no socket, or refused to bind one.
    case socketUnavailable(reason: String)

    public var description: String {
        switch self {
        case .unresolvable(let url, let reason): "cannot resolve NSM server \(url): \(reason)"
        case .socketUnavailable(let reason): "no socket for NSM: \(reason)"
        }
    }
}
