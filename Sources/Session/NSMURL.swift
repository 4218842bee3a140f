/// Where the NSM server listens, from the `NSM_URL` environment variable: liblo's URL form
/// `osc.udp://HOST:PORT/` (an IPv6 host in brackets), as `nsmd` sets it for the clients it launches.
public struct NSMURL: Sendable, Equatable, CustomStringConvertible {
    /// The host as written: a name (nsmd writes the machine's host name) or a numeric address.
    public let host: String
    /// The server's UDP port.
    public let port: UInt16

    /// The environment variable the NSM API tells clients to check at launch.
    public static let environmentVariable = "NSM_URL"

    /// A URL of `host` and `port`.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `osc.udp://HOST:PORT/` (the trailing slash and any path after it are optional).
    ///
    /// Only `osc.udp`: the API says a client's OSC server uses the protocol named in `NSM_URL`, and
    /// nsmd itself uses UDP only, so `osc.tcp` is refused rather than answered over the wrong protocol.
    public init(parsing text: String) throws(NSMURLError) {
        let separator = "://"
        guard let schemeEnd = text.range(of: separator) else { throw .notAnOSCURL(text: text) }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "osc.udp" else {
            throw scheme.hasPrefix("osc.") ? .unsupportedProtocol(text: text, scheme: scheme) : .notAnOSCURL(text: text)
        }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        var host = Substring("")
        var portText = Substring("")
        if authority.hasPrefix("[") {
            // RFC 3986, section 3.2.2: an IPv6 literal in brackets, then ":PORT".
            guard let close = authority.firstIndex(of: "]"), authority[authority.index(after: close)...].hasPrefix(":") else {
                throw .missingPort(text: text)
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            portText = authority[authority.index(close, offsetBy: 2)...]
        } else {
            guard let colon = authority.lastIndex(of: ":") else { throw .missingPort(text: text) }
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { throw .emptyHost(text: text) }
        guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = UInt16(portText), port != 0 else {
            throw .invalidPort(text: text, port: String(portText))
        }
        self.init(host: String(host), port: port)
    }

    /// `osc.udp://HOST:PORT/`, an IPv6 host in brackets.
    public var description: String {
        host.contains(":") ? "osc.udp://[\(host)]:\(port)/" : "osc.udp://\(host):\(port)/"
    }
}
