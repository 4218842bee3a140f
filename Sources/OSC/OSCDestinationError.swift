/// Why a destination given by the user cannot be sent to; each message names the text that was given and
/// the form that was expected, so it can be shown as it is.
public enum OSCDestinationError: Error, Equatable, CustomStringConvertible {
    /// The text is neither `HOST:PORT`, `[IPv6]:PORT` nor a bare port.
    case notHostPort(text: String)
    /// Nothing before the colon, as in `:9000`.
    case emptyHost(text: String)
    /// The port part is missing, not a number, or outside 1...65535 (port 0 cannot be sent to).
    case invalidPort(text: String, port: String)
    /// An IPv6 address without brackets: its own colons make the port ambiguous (RFC 3986, section 3.2.2).
    case unbracketedIPv6(text: String)
    /// `getaddrinfo` found no address for the host.
    case unresolvable(host: String, reason: String)
    /// The system would not give a UDP socket for the destination.
    case socketUnavailable(destination: String, reason: String)
    /// The system refused a socket option the destination asks for (broadcast, multicast TTL, interface).
    case socketOptionRefused(destination: String, option: String, reason: String)
    /// The multicast interface is not an IPv4 address.
    case notAnInterfaceAddress(text: String)

    /// The example shown with every syntax error.
    static let example = "(example: 127.0.0.1:9000)"

    /// A one-line message naming the bad text and the expected form.
    public var description: String {
        switch self {
        case .notHostPort(let text):
            "'\(text)' is not HOST:PORT \(Self.example)"
        case .emptyHost(let text):
            "'\(text)' has no host before the port; expected HOST:PORT \(Self.example)"
        case .invalidPort(let text, let port) where port.isEmpty:
            "'\(text)' has no port after the ':'; expected HOST:PORT with a port from 1 to 65535 \(Self.example)"
        case .invalidPort(let text, let port):
            "'\(text)' has port '\(port)', which is not a number from 1 to 65535 \(Self.example)"
        case .unbracketedIPv6(let text):
            "'\(text)' looks like an IPv6 address; write it in brackets as [ADDRESS]:PORT (example: [::1]:9000)"
        case .unresolvable(let host, let reason):
            "host '\(host)' does not resolve to an address: \(reason)"
        case .socketUnavailable(let destination, let reason):
            "cannot open a UDP socket to send to \(destination): \(reason)"
        case .socketOptionRefused(let destination, let option, let reason):
            "cannot set \(option) on the socket to \(destination): \(reason)"
        case .notAnInterfaceAddress(let text):
            "'\(text)' is not the IPv4 address of a network interface (example: interface=192.168.1.20)"
        }
    }
}
