import JackHost
import Synchronization

/// The live ``ControlGraph``: jacktap's inputs on the JACK server, whichever opening of the client is current.
///
/// The session attaches each new ``LiveTap`` (after a server restart, a rate change that reopened, more
/// inputs) and detaches it before closing its client; a control command holds the lock for its JACK calls,
/// so detaching waits for one in flight and no call ever reaches a closed client. While detached (the
/// server is gone) commands answer that jacktap is waiting for it. Connections made or removed here go into
/// the session's ``SharedSourcePlan``, so they survive restarts and are saved with the session.
///
/// `@unchecked Sendable`: `LiveTap` and `JackClient` are classes without locks; the mutex serialises every
/// use of them here, and the control thread only calls libjack's thread-safe entry points through them.
public final class JackControlGraph: ControlGraph, @unchecked Sendable {
    private let attached = Mutex<LiveTap?>(nil)
    private let plan: SharedSourcePlan
    private let sessionStatus: SessionStatus
    public let clientName: String

    /// A graph for the client named `clientName`, recording connections in `plan`.
    public init(clientName: String, plan: SharedSourcePlan, status: SessionStatus) {
        self.clientName = clientName
        self.plan = plan
        sessionStatus = status
    }

    /// Makes `live` the current opening (nil: the server is gone).
    public func attach(_ live: LiveTap?) {
        attached.withLock { $0 = live }
    }

    public var sampleRate: Int { attached.withLock { $0?.sampleRate ?? 0 } }
    public var periodFrames: Int { attached.withLock { $0?.periodFrames ?? 0 } }

    public func status() -> SessionStatus? { sessionStatus }

    public func inputs() -> [(name: String, connections: [String])] {
        attached.withLock { live in
            guard let live else { return [] }
            return live.inputNames.indices.map { index in
                let name = live.inputFullName(index)
                return (name, live.client.connections(ofPort: name))
            }
        }
    }

    public func isSourcePort(_ name: String) -> Bool { attached.withLock { $0?.client.hasSourcePort(name) ?? false } }

    public func prettyName(ofPort name: String) -> String? { attached.withLock { $0?.client.prettyName(ofPort: name) } }

    public func connect(_ source: String, to input: String) -> String? {
        attached.withLock { live in
            guard let live else { return Self.waiting }
            guard let index = live.inputNames.indices.first(where: { live.inputFullName($0) == input }) else {
                return "\(clientName) has no input \(input)"
            }
            do throws(JackError) { try live.connect(source, toInput: index) } catch { return error.description }
            _ = plan.withLock { $0.add(source, input: index) }
            return nil
        }
    }

    public func disconnect(_ source: String, from input: String) -> Bool {
        attached.withLock { live in
            guard let live, live.client.disconnect(source, from: input) else { return false }
            plan.withLock { $0.remove(source) }
            return true
        }
    }

    static let waiting = "the JACK server is not running; jacktap is waiting for it"
}
