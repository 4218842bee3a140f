/// Why a `TCPStream` could not connect or send.
public enum TCPStreamError: Error, Equatable, CustomStringConvertible {
    case resolve(String)
    case connect(String)
    case send(String)
    case closed

    public var description: String {
        switch self {
        case .resolve(let detail): "cannot resolve \(detail)"
        case .connect(let detail): "cannot connect to \(detail)"
        case .send(let detail): "cannot send to \(detail)"
        case .closed: "the connection is closed"
        }
    }
}
