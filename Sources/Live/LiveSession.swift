import Analysis
import Control
import Foundation
import Glibc
import JackHost
import Lighting
import LoudnessLog
import MeterBridge
import OSC
import OSCOut
import Output
import PrometheusExport
import ServiceDiscovery
import Spawn
import Sync
import TerminalOut

/// A live run: jacktap's inputs on the JACK server, connected to their sources, analysed and published until
/// a stop signal, `q` or `--duration`. Used by the default command, by `demo` and under NSM.
///
/// What outlives the JACK client: the OSC destinations, the control input, the terminal view and the
/// ``SourcePlan`` (which source feeds which input). When the server goes away (restarted from qjackctl,
/// crashed, PipeWire restarted) jacktap says so (stderr and `/status s:"disconnected"`), keeps all of that,
/// and tries the server again every `reconnect` seconds; when one answers it reopens under the same name,
/// registers the same inputs, connects the same sources, adopts the server's rate and period, and carries on
/// with the same OSC paths (`/restarted s:"reconnect"`, then `/status s:"running"`). A source that appears
/// after more sources than inputs asks for another input: the client is reopened with one more
/// (`/restarted s:"inputs"`).
public struct LiveSession {
    /// What a reread configuration (SIGHUP) may change without reopening the client.
    public struct Reloaded {
        public var destinations: [DestinationSettings]
        public var sources: [String]
        public var globs: [String]
        /// Options that changed but need a restart to take effect (kept as they were).
        public var needRestart: [String]

        public init(destinations: [DestinationSettings], sources: [String], globs: [String], needRestart: [String]) {
            self.destinations = destinations
            self.sources = sources
            self.globs = globs
            self.needRestart = needRestart
        }
    }

    public var clientName: String
    public var sources: [String]
    public var globs: [String]
    public var inputCount: Int
    public var analysis: AnalysisConfig
    public var output: LiveOutput
    /// The meter settings for the inputs of an opening, by their names (a programme naming no input is an error).
    public var meterConfig: @Sendable ([String]) throws(Failure) -> MeterConfig
    /// The version a control query reports.
    public var version = "unreleased"
    public var quiet: Bool
    /// Stop after this many seconds of audio; nil runs until a stop signal.
    public var duration: Double? = nil
    /// Where the OSC control input listens (`--listen`); nil for none.
    public var listen: ListenAddress? = nil
    /// Where the meter bridge listens (`--http`); nil for none.
    public var http: ListenAddress? = nil
    /// Where the OSCQuery server listens (`--oscquery`); nil for none.
    public var oscQuery: ListenAddress? = nil
    /// Where `GET /metrics` alone is served (`--metrics`); nil for none (`--http` serves it too).
    public var metrics: ListenAddress? = nil
    /// The loudness target and tolerance (`--target`).
    public var target = LoudnessTarget.ebuR128
    /// WLED audio sync (`--wled`): where, and the input it follows; nil for none.
    public var wled: (destination: OSCDestination, source: String)? = nil
    /// DMX universes (`--dmx`); none when empty.
    public var dmx: [DMXUniverseMap] = []
    /// The programmes' alarms (`--alarms`): /metrics exposes these kinds.
    public var alarmKinds: Set<AlarmKind> = []
    /// Where each programme's log and reports go (`--loudness-log`); nil for none.
    public var loudnessLog: String? = nil
    /// Wait for the server and for named sources instead of failing (`--wait`; always under NSM).
    public var wait = false
    /// Seconds between attempts to reach a server that went away; nil exits 74 (`--no-reconnect`).
    public var reconnect: Double? = 1
    /// Rereads the configuration file (SIGHUP); nil when there is none, and SIGHUP then stops jacktap.
    public var reload: (() throws(Failure) -> Reloaded)? = nil
    /// Told the parts that outlive the client once they exist (NSM saves them).
    public var started: ((LiveParts) -> Void)? = nil
    /// Called from the main loop about every 50 ms (NSM's messages); returns true to stop the session.
    public var poll: (() -> Bool)? = nil
    /// JACK MIDI outputs to register (`clock` for `--midi-clock`).
    public var midiOutputs: [String] = []
    /// The input (0-based) whose beat tracker drives the MIDI clock and OS2L (`--beat-source`).
    public var beatSource = 0
    /// The input (0-based) whose pitch tracker `--midi-notes` plays (`--note-source`).
    public var noteSource = 0
    /// Where OS2L beat messages go (`--os2l`); nil for none.
    public var os2l: (host: String, port: UInt16)? = nil
    /// Ableton Link (`--link`, `--link-follow`, `--link-quantum`); nil for none.
    public var link: (quantum: Double, follow: Bool)? = nil

    /// Gives the terminal back (raw keys off, the alternate screen left), from any thread.
    struct TerminalRestore: @unchecked Sendable {
        let keys: KeyReader
        let interactive: Bool

        func run() {
            keys.restore()
            if interactive { StandardOutput.write(TerminalView.leaveSequence) }
        }
    }

    /// Why one opening of the client ended.
    enum Ending { case stop, serverGone, moreInputs }

    /// Runs until stopped; returns normally on a clean stop, throws a `Failure` otherwise.
    /// A session with what every run names; the rest keeps its default until set.
    public init(clientName: String, sources: [String], globs: [String], inputCount: Int, analysis: AnalysisConfig,
                output: LiveOutput, meterConfig: @escaping @Sendable ([String]) throws(Failure) -> MeterConfig,
                quiet: Bool, duration: Double? = nil, listen: ListenAddress? = nil) {
        self.clientName = clientName
        self.sources = sources
        self.globs = globs
        self.inputCount = inputCount
        self.analysis = analysis
        self.output = output
        self.meterConfig = meterConfig
        self.quiet = quiet
        self.duration = duration
        self.listen = listen
    }

    public func run() throws(Failure) {
        guard !(sources.isEmpty && globs.isEmpty && inputCount == 0) else {
            throw Failure(description: """
                nothing to tap: name source ports (jacktap system:capture_1), match them (--connect 'system:*'), \
                or register unconnected inputs (--inputs 2). `jacktap ports` lists the ports; `jacktap demo` \
                shows jacktap at work.
                """, code: Failure.usage)
        }
        // With a control input or a configuration to reread there is always a router, so that `subscribe`
        // and SIGHUP have somewhere to add destinations.
        let router = try output.makeRouter(analysisRate: analysis.rate)
            ?? (listen == nil && reload == nil && started == nil ? nil : try? OSCRouter([], analysisRate: analysis.rate))
        let interactive = !quiet && !output.json && StandardOutput.isTerminal(1)
        let parts = LiveParts(
            router: router, status: SessionStatus(),
            plan: SharedSourcePlan(SourcePlan(named: sources, globs: globs, inputs: inputCount)),
            view: interactive ? TerminalView(title: "jacktap · \(clientName)") : nil, quiet: quiet)
        let graph = JackControlGraph(clientName: clientName, plan: parts.plan, status: parts.status)
        var control: ControlServer?
        if let listen, let router {
            let session = ControlSession(router: router, graph: graph, prefix: output.prefix,
                                         bundles: output.bundles, version: version,
                                         requestReset: { parts.resetRequests.store(true, ordering: .releasing) },
                                         requestLoudness: { parts.requestLoudness($0, programme: $1) })
            do { control = try ControlServer(listen: listen, session: session) } catch {
                throw Failure(description: "--listen \(error)", code: Failure.usage)
            }
            parts.control = session
            if let control { parts.say("OSC control on \(control.boundAddress) (\(session.prefix)/subscribe, …)") }
        }
        // Prometheus's figures outlive the client: a scrape while the server is gone reads jacktap_up 0.
        if http != nil || metrics != nil {
            let status = parts.status, plan = parts.plan
            parts.scrape = ScrapeState(
                run: .init(client: clientName, version: version, target: target,
                           alarms: AlarmKind.allCases.filter(alarmKinds.contains)),
                session: {
                    .init(running: status.state == .running, xruns: status.xruns, periodsDropped: status.overruns)
                },
                sources: { plan.current.assignments })
        }
        var metricsServer: MetricsServer?
        if let metrics, let scrape = parts.scrape {
            do { metricsServer = try MetricsServer(host: metrics.host, port: metrics.port, metrics: scrape) } catch {
                control?.stop()
                throw Failure(description: "--metrics \(error)", code: Failure.usage)
            }
            if let metricsServer { parts.say("Prometheus metrics on http://\(metricsServer.boundAddress)/metrics") }
        }
        defer { metricsServer?.stop() }
        // The meter bridge outlives the client too: a viewer at front of house sees the server go and come back.
        var bridge: MeterBridgeServer?
        if let http {
            do {
                bridge = try MeterBridgeServer(host: http.host, port: http.port, prefix: output.prefix,
                                               broadcast: LineBroadcast(), metrics: parts.scrape)
            } catch {
                metricsServer?.stop()
                control?.stop()
                throw Failure(description: "--http \(error)", code: Failure.usage)
            }
            parts.feed = bridge?.broadcast
            if let bridge { parts.say("meter bridge on http://\(bridge.boundAddress)/ (read-only)") }
        }
        defer {
            if let bridge {
                bridge.stop()
                if !quiet {
                    StandardOutput.error("jacktap: meter bridge \(bridge.boundAddress): \(bridge.broadcast.viewersServed) viewers, "
                                         + "\(bridge.broadcast.dropped) lines skipped for slow viewers\n")
                }
            }
        }
        var query: OSCQueryServer?
        var advertiser: MDNSResponder?
        if let oscQuery {
            let latest = LatestFigures()
            let namespace = OSCQueryNamespace(prefix: output.prefix, controlInput: control != nil)
            let listening = control.map { (host: $0.boundAddress.host, port: $0.boundAddress.port) }
            do {
                query = try OSCQueryServer(host: oscQuery.host, port: oscQuery.port, namespace: namespace,
                                           latest: latest, name: clientName, control: listening)
            } catch {
                bridge?.stop()
                control?.stop()
                throw Failure(description: "--oscquery \(error)", code: Failure.usage)
            }
            parts.latest = latest
            if let query { parts.say("OSCQuery on http://\(query.boundAddress)/") }
            advertiser = advertise(query: query, control: listening, say: parts.say)
        }
        defer {
            advertiser?.stop()
            query?.stop()
        }
        started?(parts)
        var logFeed: LoudnessLogFeed?
        if let loudnessLog {
            do {
                let writer = try LoudnessLogWriter(directory: loudnessLog) { parts.say($0) }
                logFeed = LoudnessLogFeed(recorder: ProgrammeRecorder(client: clientName, target: target), writer: writer)
            } catch {
                advertiser?.stop()
                query?.stop()
                bridge?.stop()
                metricsServer?.stop()
                control?.stop()
                throw Failure(description: "--loudness-log \(error)", code: Failure.usage)
            }
            parts.say("loudness log in \(loudnessLog): a line a second per programme, a report at each reset and at exit")
        }
        // The reports of the measurements still running, once the analysis has stopped for good.
        defer { logFeed?.finish() }
        var wledSync: WLEDAudioSync?
        if let wled {
            do { wledSync = try WLEDAudioSync(destination: wled.destination, source: wled.source) } catch {
                throw Failure(description: "--wled \(error)", code: Failure.usage)
            }
            parts.say("WLED audio sync to \(wled.destination), from \(wled.source)")
        }
        var dmxOutput: DMXOutput?
        if !dmx.isEmpty {
            do { dmxOutput = try DMXOutput(universes: dmx, clientName: clientName) { parts.say($0) } } catch {
                throw Failure(description: "--dmx \(error)", code: Failure.usage)
            }
            dmxOutput?.start()
            parts.say("DMX: " + dmx.map(\.description).joined(separator: ", "))
        }
        let dmxStarted = Date()
        defer {
            if let dmxOutput {
                dmxOutput.stop()
                let seconds = max(Date().timeIntervalSince(dmxStarted), 1e-3)
                for (universe, frames) in zip(dmxOutput.universes, dmxOutput.sent) {
                    parts.say("DMX \(universe.description): \(frames) frames, \(String(format: "%.1f", Double(frames) / seconds)) a second")
                }
            }
        }
        let sinks = SnapshotSinks(router: router, json: output.json, view: parts.view, feed: bridge?.broadcast,
                                  latest: parts.latest, scrape: parts.scrape, loudnessLog: logFeed, wled: wledSync,
                                  followers: dmxOutput.map { [$0] } ?? [])
        // OS2L outlives the client, as the OSC destinations do: a server restart keeps the connection.
        let os2lSender = os2l.map { target in OS2LSender(host: target.host, port: target.port) { parts.say($0) } }
        os2lSender?.start()
        defer { os2lSender?.stop() }
        // Link joins the network only once the command line has passed every check (below, at the first
        // client): a jacktap that exits 64 on a wrong --beat-source never announces itself to the session.
        var linkPeer: LinkPeer?
        let keys = KeyReader(enabled: interactive)
        if interactive { StandardOutput.write(TerminalView.enterSequence) }
        control?.start()
        defer {
            control?.stop()
            keys.restore()
            if interactive { StandardOutput.write(TerminalView.leaveSequence) }
            if let control, !quiet {
                StandardOutput.error("jacktap: control \(control.boundAddress): \(control.counts.summary)\n")
            }
        }
        if let router, !router.destinations.isEmpty {
            parts.say("OSC to \(router.destinations.map(\.destination.description).joined(separator: ", "))")
        }
        defer {
            for count in router?.streamCounts ?? [] {
                parts.say("OSC over TCP to \(count.destination): \(count.sent) packets sent, \(count.dropped) dropped (the "
                          + "oldest, while the receiver was away or slow)")
            }
        }

        let controls = MainLoopControls(parts: parts, keys: keys, reload: reload, poll: poll)
        var reason = "start"
        var first = true
        var analysedBefore = 0.0
        while true {
            guard let client = try open(first: first, controls: controls) else { return }
            if first && !wait {
                let available = client.sourcePorts()
                for name in sources where !client.hasSourcePort(name) {
                    client.close()
                    throw Failure(description: JackError.noSuchPort(
                        name: name, nearest: PortMatching.nearest(to: name, in: available)).description + " (--wait waits for it)",
                                  code: Failure.noSuchPort)
                }
            }
            let own = client.name + ":"
            let available = client.sourcePorts().filter { !$0.hasPrefix(own) }
            let count = max(parts.plan.withLock { plan in
                _ = plan.update(available: available)
                return plan.inputsNeeded
            }, 1)
            let names = (1...count).map { "in_\($0)" }
            let meterConfig: MeterConfig
            do { meterConfig = try self.meterConfig(names) } catch {
                client.close()
                throw error
            }
            if first {
                // The tempo-sync outputs need their source inputs to exist and to run the analysis they read.
                var sources = [(String, Int, String, Bool)]()
                if midiOutputs.contains(MidiClockOutput.portName) || os2l != nil || link?.follow == false {
                    sources.append(("--beat-source", beatSource, "rhythm",
                                    beatSource < count && analysis.music.analyses(forPort: names[beatSource]).rhythm))
                }
                if midiOutputs.contains(MidiNotesOutput.portName) {
                    sources.append(("--note-source", noteSource, "pitch",
                                    noteSource < count && analysis.music.analyses(forPort: names[noteSource]).pitch))
                }
                for (option, index, needed, fine) in sources where !fine {
                    client.close()
                    throw Failure(description: index >= count
                        ? "\(option) in_\(index + 1): jacktap has \(count) input\(count == 1 ? "" : "s") (in_1…in_\(count))"
                        : "\(option) in_\(index + 1) has no \(needed) analysis: --music leaves it out", code: Failure.usage)
                }
                linkPeer = link.map { settings in
                    LinkPeer(quantum: settings.quantum, follow: settings.follow) { parts.say($0) }
                }
            }
            let live: LiveTap
            do {
                live = try LiveTap(client: client, inputs: names, midiOutputs: midiOutputs)
                try live.activate()
            } catch {
                client.close()
                throw Failure(description: error.description, code: Failure.noServer)
            }
            let analysis = analysis
            let loop = AnalysisLoop(
                live: live, sinks: sinks, limitSeconds: duration.map { $0 - analysedBefore }, beatSource: beatSource,
                noteSource: noteSource, os2l: os2lSender, link: linkPeer,
                makeEngine: { rate in
                    AnalysisEngine(tap: live.tap, sampleRate: rate, portNames: names, config: analysis, meters: meterConfig)
                },
                restarted: { reason, rate in parts.announceRestart(reason: reason, sampleRate: rate, period: live.periodFrames) })
            graph.attach(live)
            parts.programmeNames.withLock { $0 = loop.engine.programmeNames }
            // A programme paused before the restart stays paused.
            for name in parts.pausedProgrammes.withLock({ $0 }).sorted() { loop.requestLoudness(.pause, programme: name) }
            // Announced before this opening's analysis publishes anything, so every figure after the news is
            // one of its own.
            parts.status.state = .running
            parts.announceRestart(reason: reason, sampleRate: live.sampleRate, period: live.periodFrames)
            parts.sendStatus()
            loop.start()
            // The callback fills the ring from activation on, so the analysis thread drains it before anything is
            // connected: on a busy server a connection waits for the server's turn, and dozens of them made while
            // nothing read the ring could outlast its 2 s and drop periods from a programme's loudness.
            let follower = PortFollower(live: live, plan: parts.plan) { parts.say($0) }
            follower.reconcile()
            if first {
                for index in 0..<count where live.client.connections(ofPort: live.inputFullName(index)).isEmpty {
                    parts.say("(unconnected) \(live.inputFullName(index))")
                }
                if let clock = live.midiOutputFullName(MidiClockOutput.portName) {
                    parts.say("MIDI beat clock on \(clock), from the beats of \(names[beatSource])")
                }
                if let notes = live.midiOutputFullName(MidiNotesOutput.portName) {
                    parts.say("MIDI notes on \(notes), from the pitch of \(names[noteSource])")
                }
            }
            follower.start()

            let ending = controls.run(live: live, loop: loop, follower: follower)

            // Stopping for good, the JACK calls of the teardown are bounded (CloseWatchdog).
            let restore = TerminalRestore(keys: keys, interactive: interactive)
            let watchdog = ending == .stop ? CloseWatchdog(seconds: 10) { restore.run() } : nil
            graph.attach(nil)
            follower.stop()
            loop.stop()
            parts.carry(xruns: live.xruns, overruns: live.tap.overruns)
            let lateMidi = live.midiOutputNames.compactMap { live.midiQueue($0)?.lateCount }.reduce(0, +)
            if lateMidi > 0 && !quiet {
                StandardOutput.error("jacktap: \(lateMidi) MIDI messages went out after their frame (the analysis was late)\n")
            }
            analysedBefore += loop.analysedSeconds
            live.stop()
            watchdog?.disarm()
            first = false
            switch ending {
            case .stop:
                if parts.status.overruns > 0 {
                    StandardOutput.error("jacktap: the analysis fell behind; \(parts.status.overruns) periods were metered but not analysed\n")
                }
                return
            case .moreInputs:
                reason = "inputs"
            case .serverGone:
                parts.status.state = .disconnected
                parts.sendStatus()
                guard let reconnect else {
                    throw Failure(description: """
                        the JACK server stopped; \(client.name)'s ports are gone. Start the server again, then jacktap \
                        (or leave out --no-reconnect: jacktap then waits for it).
                        """, code: Failure.serverStopped)
                }
                parts.say("the JACK server stopped; waiting for it to come back (trying every \(Self.seconds(reconnect)))")
                reason = "reconnect"
            }
        }
    }

    /// Opens the client, waiting for a server when that is allowed (`--wait`, after a restart); nil when a
    /// stop came while waiting.
    private func open(first: Bool, controls: MainLoopControls) throws(Failure) -> JackClient? {
        var said = !first
        while true {
            do { return try JackClient(name: clientName) } catch {
                guard !first || wait else {
                    throw Failure(description: error.description + " (--wait waits for one)", code: Failure.noServer)
                }
                if !said {
                    controls.parts.say("no JACK server yet; waiting for one (trying every \(Self.seconds(reconnect ?? 1)))")
                    said = true
                }
            }
            if controls.waitWhileDisconnected(seconds: reconnect ?? 1) { return nil }
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// OSCQuery's server (`_oscjson._tcp`) and the control input (`_osc._udp`) announced by multicast DNS, under
    /// the JACK client's name, so that OSCQuery clients find jacktap without being told where. A machine whose
    /// port 5353 is held by a responder that does not share it (SO_REUSEPORT) gets a message and no advertising.
    func advertise(query: OSCQueryServer?, control: (host: String, port: UInt16)?, say: (String) -> Void)
        -> MDNSResponder? {
        guard let query, let colon = query.boundAddress.lastIndex(of: ":"),
              let port = UInt16(query.boundAddress[query.boundAddress.index(after: colon)...]) else { return nil }
        var services = [MDNSResponder.Service(type: "_oscjson._tcp", port: port, text: ["txtvers=1"])]
        if let control { services.append(.init(type: "_osc._udp", port: control.port)) }
        // A server bound to one address is advertised there (loopback on loopback alone); one bound to every
        // address, on each interface's.
        let bound = String(query.boundAddress[..<colon])
        let address = inet_addr(bound)
        let specific: UInt32? = address == INADDR_NONE || address == 0 ? nil : address
        do {
            let responder = try MDNSResponder(instance: clientName, services: services, address: specific)
            say("OSCQuery advertised by mDNS as \(clientName)._oscjson._tcp.local")
            return responder
        } catch {
            say("OSCQuery not advertised: \(error)")
            return nil
        }
    }
}
