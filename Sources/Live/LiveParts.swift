import Analysis
import Control
import Foundation
import JSONOut
import JackHost
import OSC
import OSCOut
import PrometheusExport
import Spawn
import Synchronization
import TerminalOut

/// The parts of a live session that outlive each opening of the JACK client: the OSC router, the status,
/// the source plan, the terminal view, the control input's session. Messages about the session go through
/// here: `/status` and `/restarted` to every destination, lines on stderr (or the view's status line).
///
/// `@unchecked Sendable`: the port follower's thread calls `say`; everything it touches is a mutex or an
/// atomic. `control` and `feed` are set once, before any other thread starts.
public final class LiveParts: @unchecked Sendable {
    public let router: OSCRouter?
    let status: SessionStatus
    public let plan: SharedSourcePlan
    let view: TerminalView?
    let quiet: Bool
    /// The control input's session, when `--listen` is given.
    public var control: ControlSession?
    /// The meter bridge's lines, when `--http` is given: the status goes there as well as to the destinations.
    var feed: JSONLineFeed?
    /// The newest figures for OSCQuery, when `--oscquery` is given: the run's news goes there too.
    var latest: LatestFigures?
    /// What `GET /metrics` reads, when `--metrics` or `--http` is given: the restarts go there too.
    var scrape: ScrapeState?
    /// Set by the control input's `reset`, SIGUSR1 and the view's `r`; the main loop hands it to the analysis.
    let resetRequests = Atomic<Bool>(false)
    /// The control input's and the view's loudness commands, in order; the main loop hands them to the analysis.
    let loudnessRequests = Mutex<[(LoudnessCommand, String?)]>([])
    /// The loudness programmes of the running analysis (empty without the loudness meter).
    let programmeNames = Mutex<[String]>([])
    /// The programmes paused now: a new opening of the client (a server restart, more inputs) pauses them again.
    let pausedProgrammes = Mutex<Set<String>>([])
    /// Whether the view's `p` paused every programme (it resumes them next).
    let viewPaused = Atomic<Bool>(false)
    /// Destinations from the command line or the configuration file (not subscribed ones).
    let fixedDestinations: Mutex<[OSCDestination]>
    /// The newest line said, shown on the view's status line.
    private let lastLine = Mutex<String>("")
    private let carriedXruns = Atomic<Int>(0)
    private let carriedOverruns = Atomic<Int>(0)

    init(router: OSCRouter?, status: SessionStatus, plan: SharedSourcePlan, view: TerminalView?, quiet: Bool) {
        self.router = router
        self.status = status
        self.plan = plan
        self.view = view
        self.quiet = quiet
        fixedDestinations = Mutex(router?.destinations.map(\.destination) ?? [])
    }

    /// Tells the user: a line on stderr, or on the terminal view's status line while it is shown.
    func say(_ line: String) {
        if view != nil {
            lastLine.withLock { $0 = line }
        } else if !quiet {
            StandardOutput.error("jacktap: \(line)\n")
        }
    }

    /// The view's status line: the JACK state and counts, then the newest message.
    var statusLine: String {
        let message = lastLine.withLock { $0 }
        return message.isEmpty ? status.line : status.line + " · " + message
    }

    /// `/status s:state i:xruns i:overruns` to every destination, and the same as a line to the meter bridge.
    func sendStatus() {
        let message = status.message
        router?.publish(immediate: message)
        latest?.record(news: message)
        feed?.status(JSONLines.statusLine(state: status.state.rawValue, xruns: status.xruns, overruns: status.overruns))
    }

    /// `/restarted s:reason i:samplerate i:period` to every destination: the analysis started again (at the
    /// start, after a server restart, a sample-rate change or more inputs), so the integrated loudness, the
    /// maxima and the tempo start again too.
    func announceRestart(reason: String, sampleRate: Int, period: Int) {
        let message = OSCPublisher(prefix: "").restartedMessage(reason: reason, sampleRate: sampleRate, period: period)
        router?.publish(immediate: message)
        latest?.record(news: message)
        scrape?.recordRestart(reason: reason)
        if reason != "start" { say("analysis restarted (\(reason)): \(sampleRate) Hz, \(period) frames") }
    }

    /// Queues a loudness command for the analysis; false when `programme` (nil: every one) names none.
    func requestLoudness(_ command: LoudnessCommand, programme: String?) -> Bool {
        let names = programmeNames.withLock { $0 }
        guard programme.map(names.contains) ?? !names.isEmpty else { return false }
        loudnessRequests.withLock { $0.append((command, programme)) }
        let chosen = programme.map { [$0] } ?? names
        pausedProgrammes.withLock { paused in
            switch command {
            case .pause: paused.formUnion(chosen)
            case .resume: paused.subtract(chosen)
            case .reset: break
            }
        }
        return true
    }

    /// Adds an opening's counts to the run's, before its client closes.
    func carry(xruns: Int, overruns: Int) {
        carriedXruns.add(xruns, ordering: .relaxed)
        carriedOverruns.add(overruns, ordering: .relaxed)
        updateCounts(xruns: 0, overruns: 0)
    }

    /// The run's counts with the current opening's `xruns` and `overruns`.
    func updateCounts(xruns: Int, overruns: Int) {
        status.xruns = carriedXruns.load(ordering: .relaxed) + xruns
        status.overruns = carriedOverruns.load(ordering: .relaxed) + overruns
    }

    /// Applies a reread configuration: destinations replaced (subscribed ones kept), sources and globs
    /// replaced in the plan. Returns what was done, for the user.
    func apply(_ reloaded: LiveSession.Reloaded) -> String {
        let newDestinations = reloaded.destinations.map(\.destination)
        var failures = [String]()
        if let router {
            let old = fixedDestinations.withLock { $0 }
            for destination in old where !newDestinations.contains(destination) {
                router.remove(host: destination.host, port: destination.port)
            }
            for settings in reloaded.destinations {
                do { try router.add(settings) } catch { failures.append("\(settings.destination): \(error)") }
            }
        } else if !reloaded.destinations.isEmpty {
            failures.append("no OSC router: start jacktap with --config to add destinations by rereading it")
        }
        fixedDestinations.withLock { $0 = newDestinations }
        control?.replaceFixed(newDestinations)
        plan.withLock { $0.replace(named: reloaded.sources, globs: reloaded.globs) }
        var summary = "configuration reread: \(newDestinations.count) destination(s), \(reloaded.sources.count) source(s), "
            + "\(reloaded.globs.count) glob(s)"
        if !reloaded.needRestart.isEmpty {
            summary += "; kept until a restart: " + reloaded.needRestart.joined(separator: ", ")
        }
        if !failures.isEmpty { summary += "; not applied: " + failures.joined(separator: "; ") }
        return summary
    }
}
