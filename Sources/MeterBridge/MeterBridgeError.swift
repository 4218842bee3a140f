/// Why the meter bridge could not start.
public enum MeterBridgeError: Error, CustomStringConvertible, Equatable {
    /// The host is not a numeric IPv4 or IPv6 address (nor `localhost`).
    case invalidHost(String)
    /// The socket could not be bound (the port is taken, the address is not this machine's).
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            return "'\(host)' is not a numeric address: give 127.0.0.1 (this machine only), 0.0.0.0 (every network), an interface's address, or [::]"
        case .cannotListen(let address, let reason):
            return "cannot listen on \(address): \(reason)"
        }
    }
}
