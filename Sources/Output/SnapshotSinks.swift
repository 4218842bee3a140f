import Analysis
import Glibc
import JSONOut
import LoudnessLog
import OSC
import OSCOut
import PrometheusExport
import Spawn
import TerminalOut

/// Where snapshots go: OSC destinations, JSON lines on stdout, the meter bridge's viewers, the terminal view. Used by the analysis
/// thread only (live) or the main thread (files), never by the real-time callback.
public final class SnapshotSinks {
    let router: OSCRouter?
    let json: Bool
    let view: TerminalView?
    /// The meter bridge (`--http`): the same lines as `--json`, written once for both.
    let feed: JSONLineFeed?
    /// Where the JSON lines and the view go: stdout, or a buffer the caller prints later.
    let write: (String) -> Void
    /// The newest figures, for OSCQuery (`--oscquery`).
    let latest: LatestFigures?
    /// Each programme's paused state at the previous tick: `/loudness/paused` goes out when it changes.
    private var paused: [String: Bool] = [:]
    /// What `GET /metrics` reads (`--metrics`, `--http`).
    let scrape: ScrapeState?
    /// Each programme's log and reports (`--loudness-log`).
    let loudnessLog: LoudnessLogFeed?
    /// WLED's audio sync (`--wled`).
    let wled: WLEDAudioSync?
    /// Outputs that follow figures by address (`--dmx`).
    let followers: [FigureFollower]
    private let unprefixed = OSCPublisher(prefix: "")

    /// Sends OSC through `router` (each destination with its own settings), prints JSON lines when `json`,
    /// hands the same lines to `feed` when given, draws `view` when given; text goes to `write` (stdout unless
    /// told otherwise).
    public init(router: OSCRouter?, json: Bool, view: TerminalView?, feed: JSONLineFeed? = nil,
                latest: LatestFigures? = nil, scrape: ScrapeState? = nil, loudnessLog: LoudnessLogFeed? = nil,
                wled: WLEDAudioSync? = nil, followers: [FigureFollower] = [],
                write: @escaping (String) -> Void = StandardOutput.write) {
        self.followers = followers
        self.loudnessLog = loudnessLog
        self.wled = wled
        self.latest = latest
        self.scrape = scrape
        self.router = router
        self.json = json
        self.view = view
        self.feed = feed
        self.write = write
    }

    /// Publishes one tick everywhere. A destination that is down only counts an error (UDPSender never blocks).
    /// With a `clock` (live), bundles carry the wall-clock instants the values describe.
    public func publish(_ snapshot: Snapshot, clock: StreamClock? = nil) {
        router?.publish(snapshot, clock: clock)
        latest?.record(snapshot)
        scrape?.record(snapshot)
        wled?.publish(snapshot)
        if !followers.isEmpty {
            let messages = unprefixed.messages(for: snapshot)
            for follower in followers { follower.follow(tick: messages) }
        }
        if let loudnessLog, let clock { loudnessLog.record(snapshot, wall: clock.wall + snapshot.time - clock.stream) }
        for programme in snapshot.programmes where paused[programme.name, default: false] != programme.paused {
            paused[programme.name] = programme.paused
            let message = unprefixed.pausedMessage(programme: programme.name, paused: programme.paused)
            router?.publish(immediate: message)
            latest?.record(news: message)
            for follower in followers { follower.follow(change: message) }
        }
        if json || feed != nil {
            let line = JSONLines.line(for: snapshot)
            if json { write(line + "\n") }
            feed?.tick(line)
        }
        if let view { write(view.render(snapshot)) }
    }

    /// Publishes one event at once, in a datagram of its own: a bundle timetagged with the instant the event
    /// describes (`timetag`: a beat's predicted wall-clock time, so that receivers that honour timetags act on
    /// the beat), or a plain message for destinations that take plain messages. Never rate-limited. `instant`
    /// is the same time in Unix seconds, for the followers (a DMX flash starts then).
    public func publish(_ event: AnalysisEvent, timetag: OSCTimetag = .immediately, instant: Double? = nil) {
        router?.publish(event, timetag: timetag)
        if !followers.isEmpty {
            let messages = unprefixed.messages(for: event)
            for follower in followers { follower.follow(event: messages, instant: instant) }
        }
        latest?.record(event)
        scrape?.record(event)
        wled?.note(event)
        if json || feed != nil {
            let line = JSONLines.line(for: event)
            if json { write(line + "\n") }
            if case .alarm(let kind, let on) = event.kind {
                feed?.alarm(line, key: event.port + "/" + kind.rawValue, on: on)
            } else {
                feed?.event(line)
            }
        }
        view?.note(event)
    }

    /// Prints the run's summary line (with `--json`).
    public func finish(_ summary: RunSummary) {
        if json { write(JSONLines.line(for: summary) + "\n") }
    }
}
