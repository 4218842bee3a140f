import JSONOut
import Synchronization

/// The analysis thread's lines handed to the meter bridge's viewers: the newest tick for `GET /snapshot.json`,
/// and to every WebSocket viewer a queue of at most `backlog` lines.
///
/// A latest-value handoff: publishing takes a short lock and never waits on a viewer. A viewer that reads slower
/// than the ticks come (a stalled tablet, a dead Wi-Fi link the kernel has not noticed yet) loses its oldest
/// lines, counted in `dropped`; the analysis and the other viewers go on as before.
public final class LineBroadcast: JSONLineFeed, Sendable {
    /// Lines a viewer may fall behind before its oldest are dropped: about 3 s of ticks at the default 30 per
    /// second, with the events between them.
    public static let backlog = 96

    private struct State {
        var latestTick: String?
        var latestStatus: String?
        /// The alarms that are on, by programme and kind: a viewer who comes later is sent them.
        var alarmsOn: [String: String] = [:]
        var viewers: [Int: AsyncStream<String>.Continuation] = [:]
        var nextViewer = 0
        var dropped = 0
        var viewersServed = 0
    }

    private let state = Mutex(State())

    /// An empty broadcast: no tick yet, no viewer.
    public init() {}

    public func tick(_ line: String) {
        state.withLock { state in
            state.latestTick = line
            Self.send(line, in: &state)
        }
    }

    public func event(_ line: String) {
        state.withLock { Self.send(line, in: &$0) }
    }

    /// An alarm line goes out to every viewer, and while the alarm is on to every viewer who comes.
    public func alarm(_ line: String, key: String, on: Bool) {
        state.withLock { state in
            state.alarmsOn[key] = on ? line : nil
            Self.send(line, in: &state)
        }
    }

    /// A status line goes out when it differs from the last one (the main thread repeats it every second).
    public func status(_ line: String) {
        state.withLock { state in
            guard state.latestStatus != line else { return }
            state.latestStatus = line
            Self.send(line, in: &state)
        }
    }

    /// The newest tick line, nil before the first tick.
    public var latestTick: String? { state.withLock { $0.latestTick } }

    /// Viewers connected now.
    public var viewerCount: Int { state.withLock { $0.viewers.count } }

    /// Viewers connected since the start.
    public var viewersServed: Int { state.withLock { $0.viewersServed } }

    /// Lines dropped because a viewer had `backlog` lines it had not taken yet, over all viewers.
    public var dropped: Int { state.withLock { $0.dropped } }

    /// A new viewer: the lines it is to be sent, starting with the JACK status, the alarms that are on and the
    /// newest tick. The stream
    /// keeps the newest `backlog` lines; when it ends (finished, or its reader gone) the viewer is forgotten.
    public func addViewer() -> (lines: AsyncStream<String>, continuation: AsyncStream<String>.Continuation) {
        let (lines, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
        let id = state.withLock { state in
            defer { state.nextViewer += 1 }
            state.viewers[state.nextViewer] = continuation
            state.viewersServed += 1
            let alarms = state.alarmsOn.keys.sorted().compactMap { state.alarmsOn[$0] }
            for line in [state.latestStatus].compactMap({ $0 }) + alarms + [state.latestTick].compactMap({ $0 }) {
                continuation.yield(line)
            }
            return state.nextViewer
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.viewers.removeValue(forKey: id) }
        }
        return (lines, continuation)
    }

    /// Appends `line` to every viewer's queue. Inside the lock, so that every viewer gets the lines in one order;
    /// a yield only appends to the stream's buffer (dropping its oldest line when full) and never calls back here.
    private static func send(_ line: String, in state: inout State) {
        for continuation in state.viewers.values {
            if case .dropped = continuation.yield(line) { state.dropped += 1 }
        }
    }
}
