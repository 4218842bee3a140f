import Control
import Foundation
import Glibc
import JackHost
import TerminalOut

/// The main thread of a live session: signals, keys, NSM's messages, the once-a-second `/status`, the
/// view's heading; and the conditions that end one opening of the client (a stop, the server gone, more
/// inputs needed, `--duration` reached). It never waits more than 50 ms at a time.
final class MainLoopControls {
    let parts: LiveParts
    let keys: KeyReader
    let reload: (() throws(Failure) -> LiveSession.Reloaded)?
    let poll: (() -> Bool)?
    private var lastStatus = Date.distantPast
    /// The opening being run, so a reread configuration can wake its port follower.
    private var current: LiveTap?

    init(parts: LiveParts, keys: KeyReader, reload: (() throws(Failure) -> LiveSession.Reloaded)?, poll: (() -> Bool)?) {
        self.parts = parts
        self.keys = keys
        self.reload = reload
        self.poll = poll
    }

    /// Runs one opening until it ends, and says why.
    func run(live: LiveTap, loop: AnalysisLoop, follower: PortFollower) -> LiveSession.Ending {
        current = live
        defer { current = nil }
        var shownLabels = -1
        while true {
            if handleInputs() { return .stop }
            if live.serverStopped { return .serverGone }
            if follower.needsMoreInputs { return .moreInputs }
            if loop.reachedLimit { return .stop }
            if parts.resetRequests.exchange(false, ordering: .acquiring) { loop.requestReset() }
            for (command, programme) in parts.loudnessRequests.withLock({ requests in
                defer { requests.removeAll() }
                return requests
            }) { loop.requestLoudness(command, programme: programme) }
            parts.updateCounts(xruns: live.xruns, overruns: live.tap.overruns)
            if let view = parts.view {
                let destinations = parts.router?.destinations.map(\.destination.description) ?? []
                let title = "jacktap · \(live.client.name) · \(live.sampleRate) Hz / \(live.periodFrames) frames"
                    + (destinations.isEmpty ? "" : " · OSC → " + destinations.joined(separator: ", "))
                view.setHeader(title: title, status: parts.statusLine)
                if follower.labelsRevision != shownLabels {
                    shownLabels = follower.labelsRevision
                    view.setSources(follower.sourceLabels)
                }
            }
            sendStatusEverySecond()
        }
    }

    /// Waits `seconds` while no server answers, still taking signals and keys; true when asked to stop.
    func waitWhileDisconnected(seconds: Double) -> Bool {
        let until = Date().addingTimeInterval(seconds)
        repeat {
            if handleInputs() { return true }
            parts.view?.setHeader(title: "jacktap · waiting for the JACK server", status: parts.statusLine)
            sendStatusEverySecond()
        } while Date() < until
        return false
    }

    private func sendStatusEverySecond() {
        let now = Date()
        guard now.timeIntervalSince(lastStatus) >= 1 else { return }
        lastStatus = now
        parts.sendStatus()
    }

    /// Signals, keys (waiting up to 50 ms for one) and NSM's messages; true when asked to stop.
    private func handleInputs() -> Bool {
        if let signal = SignalWaiter.pending() {
            switch signal {
            case SIGUSR1:
                parts.resetRequests.store(true, ordering: .releasing)
            case SIGHUP where reload != nil:
                rereadConfiguration()
            default:
                return true
            }
        }
        switch TerminalView.handleKey(bytes: keys.read(milliseconds: 50)) {
        case .next?: parts.view?.selectNextPort()
        case .previous?: parts.view?.selectPreviousPort()
        case .resetHolds?: parts.resetRequests.store(true, ordering: .releasing)
        case .pauseLoudness?:
            let pause = !parts.viewPaused.load(ordering: .relaxed)
            if parts.requestLoudness(pause ? .pause : .resume, programme: nil) {
                parts.viewPaused.store(pause, ordering: .relaxed)
                parts.say(pause ? "loudness paused: integrated, range and maxima ignore the audio" : "loudness resumed")
            }
        case .quit?: return true
        case nil: break
        }
        return poll?() ?? false
    }

    /// SIGHUP: rereads the configuration file; a file that does not parse keeps the running configuration.
    private func rereadConfiguration() {
        guard let reload else { return }
        do throws(Failure) {
            let reloaded = try reload()
            parts.say(parts.apply(reloaded))
            current?.wakeGraphWaiters()
        } catch {
            parts.say("configuration not reread, the running one is kept: \(error.description)")
        }
    }
}
