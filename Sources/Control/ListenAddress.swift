/// Where the control input listens: `--listen HOST:PORT`, `[IPv6]:PORT`, or a bare `PORT` meaning 127.0.0.1.
///
/// Loopback unless the user names another address: whoever can reach the port can change jacktap's routing
/// and connections, so exposing it to a network has to be a deliberate choice.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host as given (an address or a name resolved when the socket is bound).
    public let host: String
    /// The UDP port; 0 lets the kernel choose one (the server reports which).
    public let port: UInt16

    /// The host of a bare port.
    public static let defaultHost = "127.0.0.1"

    /// A listen address of `host` and `port`.
    public init(host: String = defaultHost, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, `[IPv6]:PORT` or `PORT`.
    public init(parsing text: String) throws(ControlServerError) {
        func bad(_ reason: String) -> ControlServerError { .invalidListenAddress(text: text, reason: reason) }
        var host = Self.defaultHost
        var portText = Substring(text)
        if text.hasPrefix("[") {
            // RFC 3986 section 3.2.2: an IPv6 literal is written in brackets when a port follows.
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw bad("expected [IPv6]:PORT")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            guard !host.contains(":") else { throw bad("write an IPv6 address in brackets: [::1]:PORT") }
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw bad("the host is empty") }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText) else {
            throw bad("the port must be a number from 0 to 65535")
        }
        self.init(host: host, port: port)
    }

    /// `HOST:PORT`, an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
