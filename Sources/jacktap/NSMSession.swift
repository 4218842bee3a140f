import ArgumentParser
import Foundation
import Glibc
import JackHost
import Live
import OSC
import OSCOut
import Session
import Spawn
import Yams

/// jacktap under the New Session Manager (NSM_URL set): it announces itself before it touches JACK, waits for
/// `/nsm/client/open`, opens JACK under the client id the session gives (`jacktap.nABCD`), keeps its state in
/// `PATH.yaml` (the `--config` format: the options it runs with, destinations and connections added through
/// `--listen` included), creates a default state when there is none (two unconnected inputs, OSC to
/// 127.0.0.1:9000), saves on `/nsm/client/save` and quits cleanly on SIGTERM, as the NSM API document asks.
///
/// Out of order: a save before any open, or a second open (jacktap does not announce `:switch:`, so the
/// session restarts it instead), is refused with ERR_NOT_NOW. A session manager that dies is not noticed
/// (UDP says nothing): jacktap keeps running and keeps its state file.
struct NSMSession {
    /// The state a new session starts with.
    static let defaultState = header + "inputs: 2\nosc: 127.0.0.1:9000\n"

    let url: NSMURL

    /// The session manager's address when NSM_URL is set; a malformed one is reported and ignored, as the
    /// document asks of clients.
    static func url() -> NSMURL? {
        do { return try NSMClient.url() } catch {
            StandardOutput.error("jacktap: NSM_URL ignored: \(error)\n")
            return nil
        }
    }

    func run() throws(Failure) {
        let nsm: NSMClient
        do { nsm = try NSMClient(url: url) } catch {
            throw Failure(description: "NSM: \(error)", code: Failure.noServer)
        }
        nsm.start()
        defer { nsm.stop() }
        _ = nsm.announce(appName: "jacktap", capabilities: [])
        guard let (path, clientID) = try waitForOpen(nsm) else { return }
        let statePath = path + ".yaml"
        let run: Run
        do throws(Failure) {
            run = try Self.load(statePath: statePath)
        } catch {
            _ = nsm.replyError(to: .open, code: .badProject, message: error.description)
            throw error
        }
        var session = run.session()
        session.clientName = clientID
        session.wait = true
        // The state holds the options; the session never exits for a missing server or port.
        let store = StateStore(path: statePath)
        session.started = { parts in
            store.parts = parts
            _ = nsm.replyOK(to: .open, message: "opened \(clientID)")
        }
        session.poll = {
            for event in nsm.takeEvents() {
                switch event {
                case .save:
                    do throws(Failure) {
                        try store.save()
                        _ = nsm.replyOK(to: .save, message: "saved \(statePath)")
                    } catch {
                        _ = nsm.replyError(to: .save, code: .saveFailed, message: error.description)
                    }
                case .open:
                    _ = nsm.replyError(to: .open, code: .notNow, message: "jacktap has a session open; it cannot switch")
                default:
                    break
                }
            }
            return false
        }
        try session.run()
    }

    /// Waits for `/nsm/client/open`, refusing a save before it; nil when a stop signal came first.
    private func waitForOpen(_ nsm: NSMClient) throws(Failure) -> (path: String, clientID: String)? {
        while true {
            if let signal = SignalWaiter.pending(), signal != SIGUSR1 { return nil }
            for event in nsm.waitForEvents(timeout: 0.1) {
                switch event {
                case .announceError(let code, let message):
                    throw Failure(description: "NSM refused jacktap (\(code)): \(message)", code: Failure.noServer)
                case .open(let path, _, let clientID):
                    return (path, clientID)
                case .save:
                    _ = nsm.replyError(to: .save, code: .notNow, message: "no session is open yet")
                default:
                    break
                }
            }
        }
    }

    /// The options in the state file, which is created with the default state when there is none. The
    /// command line's own options still win, as with `--config`.
    static func load(statePath: String) throws(Failure) -> Run {
        if !FileManager.default.fileExists(atPath: statePath) {
            do {
                try FileManager.default.createDirectory(
                    atPath: (statePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try defaultState.write(toFile: statePath, atomically: true, encoding: .utf8)
            } catch {
                throw Failure(description: "cannot create the state file '\(statePath)': \(error.localizedDescription)",
                              code: Failure.badFile)
            }
        }
        let original = Array(CommandLine.arguments.dropFirst()) + ["--config", statePath]
        let expansion = try ConfigFile.expand(original)
        ConfigFile.started.withLock { $0 = (original, expansion.arguments, statePath) }
        let command: ParsableCommand
        do { command = try Jacktap.parseAsRoot(expansion.arguments) } catch {
            throw Failure(description: "state file '\(statePath)': \(Jacktap.message(for: error))", code: Failure.usage)
        }
        guard let run = command as? Run else {
            throw Failure(description: "state file '\(statePath)' does not describe a live run", code: Failure.usage)
        }
        return run
    }
}

/// Writes a session's state: the state file as it is, with its destinations, sources and globs replaced by
/// those running now (subscribed destinations and `--listen` connections included).
final class StateStore: @unchecked Sendable {
    let path: String
    /// The running session's parts; set once they exist, read on the main thread.
    var parts: LiveParts?

    init(path: String) { self.path = path }

    func save() throws(Failure) {
        guard let parts else { throw Failure(description: "nothing to save yet", code: Failure.usage) }
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var entries = [(Node, Node)]()
        // The file's own destinations stay as written (a string or a mapping each); subscriptions follow.
        var osc = [Node]()
        do {
            if let mapping = try Yams.compose(yaml: text)?.mapping {
                entries = mapping.filter { !["osc", "source", "connect"].contains($0.key.string ?? "") }
                    .map { ($0.key, $0.value) }
                switch mapping["osc"] {
                case .sequence(let items)?: osc = Array(items)
                case let single?: osc = [single]
                case nil: break
                }
            }
        } catch {
            throw Failure(description: "state file '\(path)' is not valid YAML: \(error)", code: Failure.badFile)
        }
        let plan = parts.plan.current
        let subscribed = parts.control?.subscriptions ?? []
        for settings in parts.router?.destinations ?? [] where subscribed.contains(settings.destination) {
            osc.append(Node(Self.text(subscribed: settings)))
        }
        func list(_ values: [String]) -> Node { .sequence(Node.Sequence(values.map { Node($0) })) }
        if !osc.isEmpty { entries.append((Node("osc"), .sequence(Node.Sequence(osc)))) }
        if !plan.named.isEmpty { entries.append((Node("source"), list(plan.named))) }
        if !plan.globs.isEmpty { entries.append((Node("connect"), list(plan.globs))) }
        do {
            let yaml = try Yams.serialize(node: .mapping(Node.Mapping(entries)))
            try (NSMSession.header + yaml).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write the state file '\(path)': \(error)", code: Failure.badFile)
        }
    }

    /// A subscribed destination as `HOST:PORT[,filter=…]`, which is all a subscription sets.
    static func text(subscribed settings: DestinationSettings) -> String {
        let filters = settings.filters.map(\.pattern).joined(separator: "|")
        return settings.destination.description + (filters.isEmpty ? "" : ",filter=" + filters)
    }
}

extension NSMSession {
    static let header = "# jacktap's state in this NSM session: the --config format (see examples/rig.yaml).\n"
}
