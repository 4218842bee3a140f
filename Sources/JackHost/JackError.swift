/// What can go wrong talking to JACK, each with the message a user needs.
public enum JackError: Error, CustomStringConvertible, Equatable {
    /// No server answered.
    case serverNotRunning(server: String)
    /// The server refused the client.
    case openFailed(status: UInt32)
    /// A port could not be registered.
    case registerFailed(port: String)
    /// A source port named on the command line does not exist; `nearest` are the closest existing names.
    case noSuchPort(name: String, nearest: [String])
    /// A connection failed.
    case connectFailed(source: String, destination: String)
    /// The client could not be activated.
    case activateFailed

    /// The message for the user.
    public var description: String {
        switch self {
        case .serverNotRunning(let server):
            return """
                no JACK server is running (server '\(server)'). Start one (qjackctl, or `jackd -d alsa`), \
                or try `jacktap demo`, which starts a private one.
                """
        case .openFailed(let status):
            return "JACK refused the client (status 0x\(String(status, radix: 16)))"
        case .registerFailed(let port):
            return "JACK could not register port '\(port)'"
        case .noSuchPort(let name, let nearest):
            let hint = nearest.isEmpty ? "the server has no audio output ports" : "nearest: " + nearest.joined(separator: ", ")
            return "no JACK port named '\(name)' (\(hint)); `jacktap ports` lists them all"
        case .connectFailed(let source, let destination):
            return "JACK could not connect \(source) to \(destination)"
        case .activateFailed:
            return "JACK could not activate the client"
        }
    }
}
