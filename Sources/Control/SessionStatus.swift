import OSC
import OSCOut
import Synchronization

/// What JACK is doing to the session, for `/status` once a second, the control input's `query` and the
/// terminal view: the connection's state and the counts of xruns and analysis overruns over the whole run
/// (across server restarts). Written by the main thread, read by any.
public final class SessionStatus: Sendable {
    /// The connection to the JACK server.
    public enum State: String, Sendable {
        /// Connected, inputs registered, analysing.
        case running
        /// The server went away (or has not answered yet); jacktap retries.
        case disconnected
    }

    private let stateValue = Atomic<Int>(0)
    private let xrunCount = Atomic<Int>(0)
    private let overrunCount = Atomic<Int>(0)

    /// Starts disconnected, with no xrun and no overrun.
    public init() { stateValue.store(1, ordering: .relaxed) }

    /// The state now.
    public var state: State {
        get { stateValue.load(ordering: .acquiring) == 0 ? .running : .disconnected }
        set { stateValue.store(newValue == .running ? 0 : 1, ordering: .releasing) }
    }

    /// Xruns the server reported, over the whole run.
    public var xruns: Int {
        get { xrunCount.load(ordering: .relaxed) }
        set { xrunCount.store(newValue, ordering: .relaxed) }
    }

    /// Periods metered but not analysed because the analysis fell behind, over the whole run.
    public var overruns: Int {
        get { overrunCount.load(ordering: .relaxed) }
        set { overrunCount.store(newValue, ordering: .relaxed) }
    }

    /// The OSC arguments of `/status`: s state, i xruns, i overruns, as the publisher writes the message.
    public var arguments: [OSCArgument] { message.arguments }

    /// `/status` without prefix, as every destination and OSCQuery get it.
    public var message: OSCMessage {
        OSCPublisher(prefix: "").statusMessage(state: state.rawValue, xruns: xruns, overruns: overruns)
    }

    /// One line for the terminal view and stderr.
    public var line: String { "JACK \(state.rawValue) · xruns \(xruns) · overruns \(overruns)" }
}
