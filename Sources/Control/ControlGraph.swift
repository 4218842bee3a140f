/// The part of the JACK graph the control input may read and change: jacktap's own inputs and what feeds
/// them. ``JackControlGraph`` is the live one; tests supply their own.
///
/// Called from the control thread only, never from JACK's process callback (libjack allows connection
/// calls from any normal thread).
public protocol ControlGraph: AnyObject, Sendable {
    /// jacktap's JACK client name.
    var clientName: String { get }
    /// The server's sample rate, Hz.
    var sampleRate: Int { get }
    /// The server's period, frames.
    var periodFrames: Int { get }
    /// jacktap's inputs (full names, in order), each with the full names of the ports connected to it.
    func inputs() -> [(name: String, connections: [String])]
    /// Whether an audio output port (a source jacktap can tap) has this full name.
    func isSourcePort(_ name: String) -> Bool
    /// Connects source port `source` to jacktap's input `input` (full names); nil on success, else why not.
    func connect(_ source: String, to input: String) -> String?
    /// Disconnects `source` from jacktap's input `input`; whether a connection was removed.
    func disconnect(_ source: String, from input: String) -> Bool
    /// The session's status (JACK state, xruns, overruns), nil when there is none to report.
    func status() -> SessionStatus?
    /// The JACK metadata pretty name of port `name` ("Drums L"), nil when it has none.
    func prettyName(ofPort name: String) -> String?
}

extension ControlGraph {
    /// The session's status for a query; a graph without a server behind it (the tests') is always running.
    public func status() -> SessionStatus? { nil }
    /// The JACK metadata pretty name of port `name`, nil when it has none.
    public func prettyName(ofPort name: String) -> String? { nil }
}
