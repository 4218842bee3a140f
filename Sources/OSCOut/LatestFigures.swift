import Analysis
import OSC
import Synchronization

/// The newest value of every address jacktap sends, for readers that ask rather than listen (OSCQuery's VALUE):
/// the newest tick, each port's newest events and the run's newest news. The analysis thread hands them over
/// under a mutex held only to swap a reference; a reader never waits on the analysis, only on another reader's
/// copy of a few references.
public final class LatestFigures: Sendable {
    private struct State {
        var snapshot: Snapshot?
        /// Per address without prefix (`/in_1/beat`), the newest event message.
        var events: [String: OSCMessage] = [:]
        /// Per address without prefix (`/status`), the newest message of the run.
        var news: [String: OSCMessage] = [:]
    }

    private let state = Mutex(State())
    private let publisher = OSCPublisher(prefix: "")

    /// Nothing yet.
    public init() {}

    /// A tick was published.
    public func record(_ snapshot: Snapshot) {
        var newest: Snapshot? = snapshot
        state.withLock { swap(&$0.snapshot, &newest) }
        // `newest` now holds the previous tick: its arrays are freed here, after the lock, not while a reader waits.
    }

    /// An event was published: its messages (`/beat`, `/bar`, `/downbeat`; `/onset`) become the newest.
    public func record(_ event: AnalysisEvent) {
        let messages = publisher.messages(for: event)
        state.withLock { state in
            for message in messages { state.events[message.address] = message }
        }
    }

    /// The run's news (`/status`, `/restarted`), its address without prefix.
    public func record(news message: OSCMessage) {
        state.withLock { $0.news[message.address] = message }
    }

    /// The newest message of every address, without prefix, and the tick's port, programme and pair names.
    public func read() -> (messages: [String: OSCMessage], ports: [String], programmes: [String], pairs: [String]) {
        let (snapshot, events, news) = state.withLock { ($0.snapshot, $0.events, $0.news) }
        var messages = events.merging(news) { a, _ in a }
        for message in snapshot.map(publisher.messages(for:)) ?? [] { messages[message.address] = message }
        return (messages,
                snapshot?.ports.map { OSCAddress.sanitizedPart($0.name) } ?? [],
                snapshot?.programmes.map { OSCAddress.sanitizedPart($0.name) } ?? [],
                snapshot?.pairs.map { OSCAddress.sanitizedPart($0.name) } ?? [])
    }
}
