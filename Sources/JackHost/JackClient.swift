import CJack
import Glibc

/// A JACK client: open, ports, connections, activation. Everything here may block and runs outside the
/// process callback.
public final class JackClient {
    let handle: OpaquePointer
    /// The name JACK gave the client (jackd2 renames a duplicate, e.g. `jacktap-01`).
    public let name: String
    /// The server's sample rate now, Hz: every rate jacktap uses comes from here. Under PipeWire it can change
    /// while the client runs (clock.force-rate); `LiveTap` is told when it does.
    public var sampleRate: Int { JackCalls.sampleRate(handle) }
    /// The server's period, frames.
    public var bufferSize: Int { JackCalls.bufferSize(handle) }
    var closed = false
    /// The ports this client gave a pretty name, to remove it again before they go (`deactivate`).
    private var named = [OpaquePointer]()

    /// Opens a client named `name` on the server JACK_DEFAULT_SERVER selects, never starting one.
    public init(name: String) throws(JackError) {
        JackCalls.silenceLibraryMessages()
        var status = jack_status_t(0)
        guard let handle = JackCalls.open(name: name, status: &status) else {
            if status.rawValue & JackServerFailed.rawValue != 0 || status.rawValue & JackFailure.rawValue != 0 {
                let server = getenv("JACK_DEFAULT_SERVER").map { String(cString: $0) } ?? "default"
                throw .serverNotRunning(server: server)
            }
            throw .openFailed(status: status.rawValue)
        }
        self.handle = handle
        self.name = JackCalls.clientName(handle)
    }

    deinit { close() }

    /// Closes the client: its ports are unregistered and its connections dropped.
    public func close() {
        guard !closed else { return }
        closed = true
        JackCalls.close(handle)
    }

    /// Registers an audio port named `shortName` (input or output); `prettyName` goes to JACK metadata.
    public func register(_ shortName: String, input: Bool, midi: Bool = false, prettyName: String? = nil)
        throws(JackError) -> OpaquePointer {
        guard let port = JackCalls.register(handle, port: shortName, input: input, midi: midi) else {
            throw .registerFailed(port: shortName)
        }
        if let prettyName { setPrettyName(port, prettyName) }
        return port
    }

    /// The full name ("client:port") of one of this client's ports.
    public func fullName(of port: OpaquePointer) -> String { JackCalls.portName(port) }

    /// Audio ports that can feed an input (other clients' outputs), in JACK's order.
    public func sourcePorts() -> [String] {
        JackCalls.ports(handle, flags: JackPortIsOutput.rawValue, audioOnly: true)
    }

    /// Every port with its direction, type and connections.
    public func describePorts() -> [PortDescription] {
        JackCalls.ports(handle, flags: 0, audioOnly: false).compactMap { name in
            guard let port = JackCalls.portByName(handle, name) else { return nil }
            let flags = UInt32(bitPattern: JackCalls.portFlags(port))
            return PortDescription(name: name, isOutput: flags & JackPortIsOutput.rawValue != 0,
                                   type: JackCalls.portType(port), connections: JackCalls.connections(handle, port))
        }
    }

    /// The JACK metadata pretty name of port `name` ("Drums L"), nil when it has none.
    public func prettyName(ofPort name: String) -> String? { JackCalls.prettyName(handle, port: name) }

    /// Sets the pretty name of one of this client's ports (JACK metadata, shown by qjackctl and Carla).
    public func setPrettyName(_ port: OpaquePointer, _ pretty: String) {
        JackCalls.setPrettyName(handle, port, pretty)
        if !named.contains(port) { named.append(port) }
    }

    /// Full names of the ports connected to port `name` (empty when it has none or does not exist).
    public func connections(ofPort name: String) -> [String] {
        guard let port = JackCalls.portByName(handle, name) else { return [] }
        return JackCalls.connections(handle, port)
    }

    /// Whether an audio output port named `name` exists.
    public func hasSourcePort(_ name: String) -> Bool {
        guard let port = JackCalls.portByName(handle, name) else { return false }
        return UInt32(bitPattern: JackCalls.portFlags(port)) & JackPortIsOutput.rawValue != 0
    }

    /// Connects `source` to `destination` (full names); connecting an existing connection is not an error.
    public func connect(_ source: String, to destination: String) throws(JackError) {
        let result = JackCalls.connect(handle, source, destination)
        guard result == 0 || result == EEXIST else { throw .connectFailed(source: source, destination: destination) }
    }

    /// Disconnects `source` from `destination` (full names). Returns whether JACK removed a connection:
    /// false when the two were not connected or a port is gone.
    public func disconnect(_ source: String, from destination: String) -> Bool {
        JackCalls.disconnect(handle, source, destination) == 0
    }

    /// Starts the process callback.
    public func activate() throws(JackError) {
        guard JackCalls.activate(handle) == 0 else { throw .activateFailed }
    }

    /// Removes the pretty names this client set, stops the process callback (blocks until the current period
    /// is done), then stops asking for notifications, so that the server sends none while the client closes
    /// (`JackCalls.clearNotifications`).
    ///
    /// The names go first because jackd2 removes the properties of each port it unregisters while the client
    /// closes and announces every removal to every client, the closing one too, which reads nothing by then:
    /// with 48 named inputs its socket filled and the server waited on it until jacktap's 10 s teardown
    /// watchdog gave up. Removed here, while the client still reads, each is announced once and the ports
    /// leave with nothing to announce.
    public func deactivate() {
        for port in named { JackCalls.removePrettyName(handle, port) }
        named.removeAll()
        _ = JackCalls.deactivate(handle)
        JackCalls.clearNotifications(handle)
    }

    func setProcess(_ callback: JackProcessCallback, _ argument: UnsafeMutableRawPointer) {
        _ = JackCalls.setProcess(handle, callback, argument)
    }

    func onShutdown(_ callback: JackInfoShutdownCallback, plain: JackShutdownCallback, _ argument: UnsafeMutableRawPointer) {
        JackCalls.onShutdown(handle, callback, plain: plain, argument)
    }

    func setNotifications(_ argument: UnsafeMutableRawPointer) { JackCalls.setNotifications(handle, argument) }
}

/// One JACK port as `jacktap ports` lists it.
public struct PortDescription: Sendable, Equatable {
    /// Full name, "client:port".
    public let name: String
    /// True for a port that produces audio (a source jacktap can tap).
    public let isOutput: Bool
    /// JACK port type ("32 bit float mono audio", "8 bit raw midi").
    public let type: String
    /// Full names of the ports it is connected to.
    public let connections: [String]
}
