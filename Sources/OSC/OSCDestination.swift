/// Where to send OSC: a host and UDP port, parsed from user text and resolved once with `getaddrinfo`.
///
/// Resolution happens in the initializer so that a mistyped host is reported when the option is parsed,
/// not as silently failing sends later. Two destinations are equal when their host text and port are.
public struct OSCDestination: Sendable, Equatable, CustomStringConvertible {
    /// The host as given: an IPv4 address, an IPv6 address (without brackets) or a name.
    public let host: String
    /// The UDP port, 1...65535.
    public let port: UInt16
    /// The address the host resolved to when this value was made.
    public let address: SocketAddress

    /// The host a bare port refers to. IPv4 loopback rather than "localhost", which may resolve to ::1
    /// first, where IPv4-only receivers (QLC+, many consoles) do not listen.
    public static let defaultHost = "127.0.0.1"

    /// Parses `HOST:PORT`, `[IPv6]:PORT`, or a bare `PORT` meaning 127.0.0.1, then resolves the host.
    public init(parsing text: String) throws(OSCDestinationError) {
        let (host, portText) = try Self.split(text)
        guard !portText.isEmpty, portText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = Int(portText), (1...65535).contains(number)
        else {
            throw .invalidPort(text: text, port: portText)
        }
        try self.init(host: host, port: UInt16(number))
    }

    /// Resolves `host` (a numeric address or a name) for UDP on `port`.
    ///
    /// When a name has both IPv4 and IPv6 addresses the first IPv4 one is used: lighting consoles and
    /// most OSC receivers listen on IPv4 only, and a datagram sent to an address nobody listens on is lost.
    public init(host: String, port: UInt16) throws(OSCDestinationError) {
        guard !host.isEmpty else { throw .emptyHost(text: ":\(port)") }
        guard port != 0 else { throw .invalidPort(text: "\(host):0", port: "0") }
        let addresses: [SocketAddress]
        switch Syscalls.resolveUDP(host: host, port: port) {
        case .success(let found): addresses = found
        case .failure(let error): throw .unresolvable(host: host, reason: error.description)
        }
        let usable = addresses.filter {
            $0.family == Syscalls.addressFamilyIPv4 || $0.family == Syscalls.addressFamilyIPv6
        }
        guard let chosen = usable.first(where: { $0.family == Syscalls.addressFamilyIPv4 }) ?? usable.first else {
            throw .unresolvable(host: host, reason: "no IPv4 or IPv6 address")
        }
        self.host = host
        self.port = port
        self.address = chosen
    }

    /// Whether the host is a multicast group (IPv4 224.0.0.0/4, IPv6 ff00::/8): ``UDPSender`` then sets the
    /// multicast hop limit and loopback on the destination's socket.
    public var isMulticast: Bool { address.isMulticast }

    /// Whether the host is the limited broadcast address 255.255.255.255 (RFC 919). A subnet's directed
    /// broadcast address (192.168.1.255) cannot be told from a host's address without the interface's
    /// netmask, so ``UDPSender`` allows broadcast on every IPv4 socket.
    public var isLimitedBroadcast: Bool { address.ipv4Bytes == [255, 255, 255, 255] }

    /// The resolved IPv4 address as dotted text, nil for IPv6.
    public var ipv4Text: String? { address.ipv4Bytes.map { $0.map(String.init).joined(separator: ".") } }

    /// `HOST:PORT`, with an IPv6 host in brackets so the text parses back to the same destination.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Equal when host text and port are equal; the resolved address may differ between two lookups of
    /// the same name (round-robin DNS) without the user having meant another destination.
    public static func == (lhs: OSCDestination, rhs: OSCDestination) -> Bool {
        lhs.host == rhs.host && lhs.port == rhs.port
    }

    /// Splits user text into host and port text, without judging the port.
    private static func split(_ text: String) throws(OSCDestinationError) -> (host: String, port: String) {
        if text.isEmpty { throw .notHostPort(text: text) }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return (defaultHost, text)
        }
        if text.hasPrefix("[") {
            // RFC 3986 section 3.2.2: an IPv6 literal is written in brackets when a port follows.
            guard let close = text.firstIndex(of: "]") else { throw .notHostPort(text: text) }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .notHostPort(text: text) }
            guard !host.isEmpty else { throw .emptyHost(text: text) }
            return (host, String(rest.dropFirst()))
        }
        guard let colon = text.lastIndex(of: ":") else { throw .notHostPort(text: text) }
        let host = String(text[..<colon])
        if host.contains(":") { throw .unbracketedIPv6(text: text) }
        guard !host.isEmpty else { throw .emptyHost(text: text) }
        return (host, String(text[text.index(after: colon)...]))
    }
}
