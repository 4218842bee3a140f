/// Why a control message was not a command.
public enum ControlCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The address is not one of the control addresses (counted and ignored; no reply).
    case unknownAddress(String)
    /// A control address with arguments that do not fit it (answered with an error reply).
    case badArguments(address: String, expected: String)

    public var description: String {
        switch self {
        case .unknownAddress(let address): "unknown address \(address)"
        case .badArguments(let address, let expected): "\(address) expects \(expected)"
        }
    }
}
