/// Why the meter bridge could not start.
public enum MeterBridgeError: Error, CustomStringConvertible, Equatable {
    /// The socket could not be bound (the port is taken, the address is not this machine's, the name does
    /// not resolve).
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case .cannotListen(let address, let reason):
            return "cannot listen on \(address): \(reason)"
        }
    }
}
