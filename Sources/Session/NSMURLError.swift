/// Why `NSM_URL` is not a URL jacktap can announce to. The API says a client proceeds without session
/// management when the URL is invalid; the owner decides whether to say so and go on, or stop.
public enum NSMURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not `SCHEME://HOST:PORT/` with an `osc.` scheme.
    case notAnOSCURL(text: String)
    /// An OSC URL over another protocol than UDP (`osc.tcp`, `osc.unix`).
    case unsupportedProtocol(text: String, scheme: String)
    /// No `:PORT` after the host.
    case missingPort(text: String)
    /// Nothing between `//` and `:PORT`.
    case emptyHost(text: String)
    /// A port that is not a number from 1 to 65535.
    case invalidPort(text: String, port: String)

    public var description: String {
        switch self {
        case .notAnOSCURL(let text): "NSM_URL '\(text)' is not osc.udp://HOST:PORT/"
        case .unsupportedProtocol(let text, let scheme): "NSM_URL '\(text)': \(scheme) is not supported, only osc.udp"
        case .missingPort(let text): "NSM_URL '\(text)' has no port (expected osc.udp://HOST:PORT/)"
        case .emptyHost(let text): "NSM_URL '\(text)' has no host"
        case .invalidPort(let text, let port): "NSM_URL '\(text)': port '\(port)' is not a number from 1 to 65535"
        }
    }
}
