import OSC

/// Why a destination's text (`HOST:PORT,key=value,…`) was refused; each message names the bad key or value.
public enum DestinationSettingsError: Error, Equatable, CustomStringConvertible {
    /// The `HOST:PORT` part is wrong or does not resolve.
    case address(OSCDestinationError)
    /// A key that destinations do not have.
    case unknownKey(text: String, key: String)
    /// A known key with a value it cannot take.
    case badValue(text: String, key: String, value: String, expected: String)

    /// The keys a destination takes, for the messages.
    static let keys = "filter, prefix, rate, bundles, plain, scale, floor, ceiling, attack, release, broadcast, "
        + "ttl, interface, maxsize"

    /// A one-line message naming the text and the key.
    public var description: String {
        switch self {
        case .address(let error):
            error.description
        case .unknownKey(let text, let key):
            "'\(text)': unknown key '\(key)' (keys: \(Self.keys))"
        case .badValue(let text, let key, let value, let expected):
            "'\(text)': \(key)=\(value) is not valid; expected \(expected)"
        }
    }
}
