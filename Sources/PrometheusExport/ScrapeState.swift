import Analysis
import Schema
import Synchronization

/// What `GET /metrics` reads (``MetricSchema``): the newest tick, the maxima since the previous scrape, and
/// counters that only grow. The analysis thread hands each tick and event over under a mutex held only to store
/// a reference and fold a few numbers per port; a scrape copies them under the same mutex and writes the text
/// after it, so a scrape never waits on the analysis and the analysis never waits on the writing of a scrape.
public final class ScrapeState: Sendable {
    /// The run's own figures, fixed at start.
    public struct Run: Sendable {
        /// The JACK client's name: the `client` label of every sample.
        public var client: String
        public var version: String
        public var target: LoudnessTarget
        /// The alarms that are on (`--alarms`): each programme exposes these kinds.
        public var alarms: [AlarmKind]

        public init(client: String, version: String, target: LoudnessTarget, alarms: [AlarmKind] = []) {
            self.client = client
            self.version = version
            self.target = target
            self.alarms = alarms
        }
    }

    /// The JACK connection and the run's counts, read at each scrape (``SessionStatus`` keeps them).
    public struct Session: Sendable {
        public var running: Bool
        public var xruns: Int
        public var periodsDropped: Int

        public init(running: Bool, xruns: Int, periodsDropped: Int) {
            self.running = running
            self.xruns = xruns
            self.periodsDropped = periodsDropped
        }
    }

    /// A port's counts, and its maxima since the previous scrape.
    struct PortCounts {
        var name: String
        var peakMax: Float?
        var truePeakMax: Float?
        var beats = 0
        /// Clip events carried over the engine's resets and restarts, and the engine's count at the newest tick.
        var clips = 0
        var clipsSeen = 0
    }

    private struct State {
        var snapshot: Snapshot?
        var ports: [PortCounts] = []
        var restarts = 0
        var scrapes = 0
        /// The newest tick's time: a tick earlier than it comes from a new engine.
        var lastTime = -Double.infinity
        /// Per programme and kind: whether the alarm is on, and how many times it started.
        var alarmsOn: [String: Set<AlarmKind>] = [:]
        var alarmStarts: [String: [AlarmKind: Int]] = [:]
    }

    public let run: Run
    private let state = Mutex(State())
    private let session: @Sendable () -> Session
    private let sources: @Sendable () -> [String?]

    /// `session` gives the JACK state and counts, `sources` the source port feeding each input (in input
    /// order; nil for none); both are read at each scrape.
    public init(run: Run, session: @escaping @Sendable () -> Session,
                sources: @escaping @Sendable () -> [String?] = { [] }) {
        self.run = run
        self.session = session
        self.sources = sources
    }

    /// A tick was published.
    public func record(_ snapshot: Snapshot) {
        var newest: Snapshot? = snapshot
        state.withLock { state in
            // A new engine (a restart, a rate change) counts its clips from 0 again.
            if snapshot.time < state.lastTime {
                for i in state.ports.indices { state.ports[i].clipsSeen = 0 }
            }
            state.lastTime = snapshot.time
            if state.ports.count != snapshot.ports.count
                || zip(state.ports, snapshot.ports).contains(where: { $0.name != $1.name }) {
                state.ports = Self.adopt(snapshot.ports, from: state.ports)
            }
            for i in snapshot.ports.indices {
                let reading = snapshot.ports[i]
                state.ports[i].peakMax = max(state.ports[i].peakMax ?? reading.peakDB, reading.peakDB)
                if let truePeak = reading.meters.truePeakDB {
                    state.ports[i].truePeakMax = max(state.ports[i].truePeakMax ?? truePeak, truePeak)
                }
                if let clips = reading.meters.clips {
                    // The engine's count starts again at a reset or a restart; the counter goes on growing.
                    let seen = state.ports[i].clipsSeen
                    state.ports[i].clips += clips >= seen ? clips - seen : clips
                    state.ports[i].clipsSeen = clips
                }
            }
            swap(&state.snapshot, &newest)
        }
        // `newest` holds the previous tick: its arrays are freed here, outside the lock.
    }

    /// An event was published: a beat counts, an alarm is on or off.
    public func record(_ event: AnalysisEvent) {
        switch event.kind {
        case .beat:
            state.withLock { state in
                if let i = state.ports.firstIndex(where: { $0.name == event.port }) { state.ports[i].beats += 1 }
            }
        case .alarm(let kind, let on):
            state.withLock { state in
                if on {
                    state.alarmsOn[event.port, default: []].insert(kind)
                    state.alarmStarts[event.port, default: [:]][kind, default: 0] += 1
                } else {
                    state.alarmsOn[event.port]?.remove(kind)
                }
            }
        case .onset: break
        }
    }

    /// The analysis started (again); `reconnect` (the JACK server came back) counts as a server restart. (The new
    /// engine's clip counts, which start from 0, are told apart by their ticks' time, which starts again too.)
    public func recordRestart(reason: String) {
        guard reason == "reconnect" else { return }
        state.withLock { $0.restarts += 1 }
    }

    /// The ports of a new input list, keeping the counts of those of the same name.
    private static func adopt(_ readings: [PortReading], from old: [PortCounts]) -> [PortCounts] {
        readings.map { reading in
            var counts = old.first(where: { $0.name == reading.name }) ?? PortCounts(name: reading.name)
            counts.clipsSeen = 0
            return counts
        }
    }

    /// A scrape: the exposition of every metric, and the maxima start again.
    public func scrape() -> String {
        let (snapshot, ports, restarts, alarmsOn, alarmStarts) = state.withLock { state in
            let taken = (state.snapshot, state.ports, state.restarts, state.alarmsOn, state.alarmStarts)
            for i in state.ports.indices {
                state.ports[i].peakMax = nil
                state.ports[i].truePeakMax = nil
            }
            state.scrapes += 1
            return taken
        }
        return PrometheusExposition(run: run, session: session(), sources: sources())
            .text(snapshot: snapshot, ports: ports, restarts: restarts, alarmsOn: alarmsOn, alarmStarts: alarmStarts)
    }

    /// Scrapes served so far.
    public var scrapes: Int { state.withLock { $0.scrapes } }
}
