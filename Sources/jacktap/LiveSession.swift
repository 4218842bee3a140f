import Analysis
import Control
import Foundation
import Glibc
import JackHost
import OSC
import Output

/// A live run: jacktap's inputs on the JACK server, connected to their sources, analysed and published until
/// a stop signal, `q`, or the server going away. Used by the default command and by `demo`.
struct LiveSession {
    var clientName: String
    var sources: [String]
    var globs: [String]
    var inputCount: Int
    var analysis: AnalysisConfig
    var output: OutputOptions
    var meters: MeterOptions
    var quiet: Bool
    /// Stop after this many seconds of audio (not of the wall clock); nil runs until a stop signal.
    var duration: Double? = nil
    /// Where the OSC control input listens (`--listen`); nil for none.
    var listen: ListenAddress? = nil

    /// Runs until stopped; returns normally on a clean stop, throws a `Failure` otherwise.
    func run() throws(Failure) {
        // With a control input there is always a router, so that `subscribe` has somewhere to add to.
        let router = try output.makeRouter(analysisRate: analysis.rate)
            ?? (listen == nil ? nil : try? OSCRouter([], analysisRate: analysis.rate))
        let destinations = router?.destinations.map(\.destination) ?? []

        let client: JackClient
        do { client = try JackClient(name: clientName) } catch {
            throw Failure(description: error.description, code: Failure.noServer)
        }
        let tapped: [String]
        do { tapped = try resolveSources(client) } catch {
            client.close()
            throw Failure(description: error.description, code: Failure.noSuchPort)
        }
        let count = max(tapped.count, inputCount)
        guard count > 0 else {
            client.close()
            throw Failure(description: """
                nothing to tap: name source ports (jacktap system:capture_1), match them (--connect 'system:*'), \
                or register unconnected inputs (--inputs 2). `jacktap ports` lists the ports; `jacktap demo` \
                shows jacktap at work.
                """, code: Failure.usage)
        }

        let names = (1...count).map { "in_\($0)" }
        let meterConfig: MeterConfig
        do { meterConfig = try meters.config(ports: names) } catch {
            client.close()
            throw error
        }
        let live: LiveTap
        do {
            live = try LiveTap(client: client, inputs: names)
            try live.activate()
            for (i, source) in tapped.enumerated() { try live.connect(source, toInput: i) }
        } catch {
            client.close()
            throw Failure(description: error.description, code: Failure.noSuchPort)
        }

        let interactive = !quiet && !output.json && StandardOutput.isTerminal(1)
        let title = "jacktap · \(client.name) · \(client.sampleRate) Hz / \(client.bufferSize) frames"
            + (destinations.isEmpty ? "" : " · OSC → " + destinations.map(\.description).joined(separator: ", "))
        let view = interactive ? TerminalView(title: title) : nil
        let engine = AnalysisEngine(tap: live.tap, sampleRate: Double(client.sampleRate), portNames: names,
                                    config: analysis, meters: meterConfig)
        let sinks = SnapshotSinks(router: router, json: output.json, view: view)
        if !interactive && !quiet {
            for i in 0..<count {
                let from = i < tapped.count ? tapped[i] + " → " : "(unconnected) "
                StandardOutput.error("jacktap: \(from)\(live.inputFullName(i))\n")
            }
            if !destinations.isEmpty {
                StandardOutput.error("jacktap: OSC to \(destinations.map(\.description).joined(separator: ", "))\n")
            }
        }

        var control: ControlServer?
        if let listen, let router {
            // requestReset only stores an atomic flag the analysis thread reads (AnalysisEngine.swift).
            nonisolated(unsafe) let resettable = engine
            let session = ControlSession(router: router, graph: JackControlGraph(live: live), prefix: output.prefix,
                                         bundles: !output.noBundles, version: Self.version,
                                         requestReset: { resettable.requestReset() })
            do { control = try ControlServer(listen: listen, session: session) } catch {
                live.stop()
                throw Failure(description: "--listen \(error)", code: Failure.usage)
            }
            if !interactive && !quiet, let control {
                StandardOutput.error("jacktap: OSC control on \(control.boundAddress) (\(session.prefix)/subscribe, …)\n")
            }
        }

        // --duration counts audio: the analysis stops after exactly that many frames, so the run gives
        // duration × rate ticks however slowly the server runs (a loaded machine's dummy server lags the clock).
        engine.frameLimit = duration.map { Int(($0 * Double(client.sampleRate)).rounded()) }
        let loop = AnalysisLoop(live: live, engine: engine, sinks: sinks)
        let keys = KeyReader(enabled: interactive)
        if interactive { StandardOutput.write(TerminalView.enterSequence) }
        loop.start()
        control?.start()
        var quit = false
        while !quit, !live.serverStopped, !loop.reachedDuration {
            if let signal = SignalWaiter.pending() {
                if signal == SIGUSR1 { engine.requestReset(); continue }
                break
            }
            switch TerminalView.handleKey(bytes: keys.read(milliseconds: 50)) {
            case .next?: view?.selectNextPort()
            case .previous?: view?.selectPreviousPort()
            case .resetHolds?: engine.requestReset()
            case .quit?: quit = true
            case nil: break
            }
        }
        let serverStopped = live.serverStopped
        // Before the client closes: the control thread may be in a JACK call.
        control?.stop()
        loop.stop()
        live.stop()
        keys.restore()
        if interactive { StandardOutput.write(TerminalView.leaveSequence) }
        if live.tap.overruns > 0 {
            StandardOutput.error("jacktap: the analysis fell behind; \(live.tap.overruns) periods were metered but not analysed\n")
        }
        if let control, !quiet {
            StandardOutput.error("jacktap: control \(control.boundAddress): \(control.counts.summary)\n")
        }
        if serverStopped {
            throw Failure(description: """
                the JACK server stopped; \(client.name)'s ports are gone. Start the server again, then jacktap.
                """, code: Failure.serverStopped)
        }
    }

    /// The source ports to tap, in order: the named ones (which must exist), then every port each glob matches.
    func resolveSources(_ client: JackClient) throws(JackError) -> [String] {
        let available = client.sourcePorts()
        var result = [String]()
        for name in sources {
            guard client.hasSourcePort(name) else {
                throw .noSuchPort(name: name, nearest: PortMatching.nearest(to: name, in: available))
            }
            if !result.contains(name) { result.append(name) }
        }
        for glob in globs {
            let matches = PortMatching.matching(glob, in: available).filter { !$0.hasPrefix(client.name + ":") }
            guard !matches.isEmpty else { throw .nothingMatches(glob: glob, available: available) }
            for name in matches where !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// The version a control query reports.
    static var version: String {
        Jacktap.configuration.version.isEmpty ? "unreleased" : Jacktap.configuration.version
    }
}
