import Analysis
import ArgumentParser
import Control
import Foundation
import Lighting
import Live
import OSC
import OSCOut
import Output

/// The default command: tap live JACK ports.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Tap JACK source ports live (the default when no subcommand is given).",
        shouldDisplay: false
    )

    @Argument(help: ArgumentHelp("JACK source ports to tap, one input each (e.g. system:capture_1).",
                                 valueName: "source-port"))
    var sources: [String] = []

    @Option(name: .customLong("source"), help: ArgumentHelp(
        "A JACK source port to tap, as a positional one is (the configuration file's key for them); repeatable.",
        valueName: "port"))
    var namedSources: [String] = []

    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Tap every source port this glob matches (e.g. 'system:capture_*'); repeatable.", valueName: "glob"))
    var globs: [String] = []

    @Option(help: "Register at least N inputs (unconnected ones are for patching in qjackctl).")
    var inputs: Int = 0

    @Option(name: [.short, .long], help: "JACK client name.")
    var name: String = "jacktap"

    @Flag(name: [.short, .long], help: "No terminal view and no messages on stderr.")
    var quiet = false

    @Option(help: "Stop after this many seconds of audio (default: until Ctrl-C).")
    var duration: Double?

    @Flag(help: """
        Wait for the JACK server and for named source ports instead of exiting (69, 65) when they are not there         yet; each source is connected when it appears.
        """)
    var wait = false

    @Option(help: ArgumentHelp("""
        When the JACK server goes away, keep the OSC destinations and the control input open and try the         server again every SECONDS; on its return reopen under the same name, reconnect the sources and carry on.
        """, valueName: "seconds"))
    var reconnect: Double = 1

    @Flag(help: "Exit (74) when the JACK server goes away instead of waiting for it.")
    var noReconnect = false

    @Option(help: ArgumentHelp("""
        OSC control input, off by default: listen on HOST:PORT (a bare PORT binds 127.0.0.1) for \
        <prefix>/reset (loudness, maxima, holds, clips), <prefix>/loudness/pause, /loudness/resume and \
        /loudness/reset [s:programme] (a programme's integration, EBU Tech 3341), <prefix>/subscribe s:host i:port [s:pattern] and \
        <prefix>/unsubscribe s:host i:port (send OSC to host:port, filtered by pattern, several joined by |; \
        numeric hosts only, at most 16, command-line destinations cannot be removed), \
        <prefix>/connect s:source [s:input] and <prefix>/disconnect s:source (JACK connections to jacktap's \
        inputs), <prefix>/query (configuration, inputs, destinations, packet counts). Replies go back to \
        the sender as /reply s:address s:ok|error …; malformed and unknown packets are counted and \
        ignored. Anyone who can reach the port can change routing and connections: bind a public address \
        only on a trusted network.
        """, valueName: "host:port"))
    var listen: String?

    @Option(help: ArgumentHelp("""
        Meter bridge, off by default: serve a live page of every port's meters, note, tempo, bar, spectrum and \
        30 s history, the programmes' loudness against a target and the JACK status on HOST:PORT (a bare PORT \
        binds 127.0.0.1, this machine only; 0.0.0.0:PORT lets any device on the network open \
        http://HOST:PORT/). Also GET /snapshot.json (the newest tick as --json prints it) and the WebSocket \
        /ws (the same JSON lines, events and status included). Read-only: nothing can be changed through it, \
        but whoever reaches the port sees the figures.
        """, valueName: "host:port"))
    var http: String?

    @Option(help: ArgumentHelp("""
        OSCQuery, off by default: answer OSCQuery clients (Chataigne, TouchDesigner, ossia score) on HOST:PORT \
        with every address jacktap sends, its type, range, unit, description and newest value, and the \
        --listen commands as writable nodes (a bare PORT binds 127.0.0.1), and announce it by multicast DNS \
        as NAME._oscjson._tcp. Read-only over HTTP.
        """, valueName: "host:port"))
    var oscquery: String?

    @Option(help: ArgumentHelp("""
        Prometheus metrics alone, off by default: serve GET /metrics (the text exposition format) on HOST:PORT \
        (a bare PORT binds 127.0.0.1) for a machine that should not serve the meter bridge's page; --http \
        serves /metrics too. Levels, true peak, loudness against --target, tempo, clips, beats, xruns and the \
        JACK state, labelled by client, port, source and programme; the peaks since the previous scrape are kept \
        so none is lost between scrapes; dB of silence reads -200, never -Inf.
        """, valueName: "host:port"))
    var metrics: String?

    @Flag(help: ArgumentHelp("""
        WLED audio sync: send WLED's audio-reactive V2 packet (level with and without gain control, a peak on \
        each beat, 16 GEQ bands, the loudest band's level and frequency) of --wled-source once a tick to \
        239.0.0.1:11988, the group every WLED controller set to receive audio sync listens to.
        """))
    var wled = false

    @Option(name: .customLong("wled-to"), help: ArgumentHelp(
        "Send WLED audio sync to HOST[:PORT] instead (one controller, or another group); implies --wled.",
        valueName: "host[:port]"))
    var wledTo: String?

    @Option(name: .customLong("wled-source"), help: ArgumentHelp(
        "The input WLED audio sync follows.", valueName: "in_N"))
    var wledSource: String = "in_1"

    @Option(help: ArgumentHelp("""
        DMX out over sACN (E1.31) and Art-Net to fixtures and nodes, as FILE's `dmx:` list maps it (a --config \
        file may hold the list under the key dmx): per universe the protocol, number, receiver (sACN's multicast \
        group or Art-Net's broadcast by default), priority and rate (at most 44 frames a second); per channel a \
        figure of the reference (its path, an argument of a multi-value one, 8 or 16 bits, from/to on a linear, \
        log or gamma curve, attack and release) or a flash or toggle on an event. A frame goes out when the \
        slots change and every 0.9 s when they do not; ArtPoll is answered; sACN universes end with three \
        stream-terminated packets. A mapping that cannot work stops jacktap at the start, naming its line. \
        docs/outputs.md has the format.
        """, valueName: "file"))
    var dmx: String?

    @Option(name: .customLong("loudness-log"), help: ArgumentHelp("""
        Log every loudness programme into DIR (which must exist): CLIENT-PROGRAMME.csv gets a line a second \
        (time, M, S, I, LRA, max true peak, paused), appended as it goes so that a crash loses at most a second; \
        at every reset, restart and exit a report (start, end, duration, paused time, I, LRA, max M, max S, max \
        true peak, --target and pass/fail) goes to CLIENT-PROGRAMME-START.json and one line of \
        CLIENT-PROGRAMME-reports.csv. A disk that fills or a directory that cannot be written is said once; the \
        analysis and the outputs go on.
        """, valueName: "dir"))
    var loudnessLog: String?

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Meters") var meters: MeterOptions
    @OptionGroup(title: "Tempo sync") var sync: SyncOptions

    func validate() throws {
        guard inputs >= 0, inputs <= 256 else { throw ValidationError("--inputs must be between 0 and 256") }
        guard !name.isEmpty, !name.contains(":") else { throw ValidationError("--name must be non-empty, without ':'") }
        guard reconnect > 0, reconnect <= 3600 else { throw ValidationError("--reconnect must be between 0 and 3600 seconds") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be above 0 seconds") }
        try output.validate(analysisRate: analysis.rate)
        if let listen {
            do { _ = try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen \(error)") }
        }
        if let http {
            do { _ = try ListenAddress(parsing: http) } catch { throw ValidationError("--http \(error)") }
        }
        if let oscquery {
            do { _ = try ListenAddress(parsing: oscquery) } catch { throw ValidationError("--oscquery \(error)") }
        }
        if let metrics {
            do { _ = try ListenAddress(parsing: metrics) } catch { throw ValidationError("--metrics \(error)") }
        }
        if wled || wledTo != nil {
            do { _ = try wledDestination() } catch {
                throw ValidationError("--wled-to \(error)")
            }
            guard wledSource.hasPrefix("in_"), let n = Int(wledSource.dropFirst(3)), n >= 1 else {
                throw ValidationError("--wled-source must name an input, in_1, in_2, …")
            }
        }
        if let dmx { _ = try Self.dmxUniverses(dmx) }
        if let loudnessLog {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: loudnessLog, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--loudness-log \(loudnessLog) is not a directory (make it first)")
            }
            guard (try? meters.chosenMeters())?.contains(.loudness) ?? false else {
                throw ValidationError("--loudness-log needs the loudness meter, which --meters leaves out")
            }
        }
    }

    func run() throws {
        SignalWaiter.install()
        do {
            // Under a session manager, the session says where the state is and when to open it.
            if let url = NSMSession.url() {
                try NSMSession(url: url).run()
            } else {
                try session().run()
            }
        } catch { error.exit() }
    }

    /// The live session these options describe.
    func session() -> LiveSession {
        let meters = meters
        var session = LiveSession(clientName: name, sources: sources + namedSources, globs: globs, inputCount: inputs,
                                  analysis: analysis.config, output: output.live, meterConfig: { (ports: [String]) throws(Failure) -> MeterConfig in try meters.config(ports: ports) },
                                  quiet: quiet, duration: duration, listen: listen.flatMap { try? ListenAddress(parsing: $0) })
        session.version = Jacktap.versionText
        session.wait = wait
        session.http = http.flatMap { try? ListenAddress(parsing: $0) }
        session.oscQuery = oscquery.flatMap { try? ListenAddress(parsing: $0) }
        session.metrics = metrics.flatMap { try? ListenAddress(parsing: $0) }
        session.loudnessLog = loudnessLog
        if wled || wledTo != nil {
            session.wled = (try? wledDestination()).map { (destination: $0, source: wledSource) }
        }
        session.dmx = dmx.flatMap { try? Self.dmxUniverses($0) } ?? []
        session.target = meters.loudnessTarget
        session.alarmKinds = (try? meters.chosenAlarms()) ?? []
        session.reconnect = noReconnect ? nil : reconnect
        session.midiOutputs = sync.midiOutputs
        session.os2l = sync.os2l.flatMap(SyncOptions.hostAndPort)
        if sync.link || sync.linkFollow { session.link = (quantum: sync.linkQuantum, follow: sync.linkFollow) }
        session.beatSource = sync.beatSourceIndex ?? 0
        session.noteSource = sync.noteSourceIndex ?? 0
        if let file = ConfigFile.started.withLock({ $0.file }) { session.reload = { () throws(Failure) in try Self.reread(file) } }
        return session
    }

    /// The universes `--dmx FILE` maps, or the error naming the line that cannot work.
    static func dmxUniverses(_ file: String) throws -> [DMXUniverseMap] {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            throw ValidationError("--dmx cannot read '\(file)': \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
        do { return try DMXMapParser.parse(text, file: file) } catch { throw ValidationError("--dmx \(error)") }
    }

    /// Where WLED audio sync goes: `--wled-to HOST[:PORT]` (port 11988 when left out) or WLED's group.
    func wledDestination() throws -> OSCDestination {
        guard let wledTo else { return try OSCDestination(host: WLEDAudioSync.defaultGroup, port: WLEDAudioSync.defaultPort) }
        let hasPort = wledTo.hasPrefix("[") ? wledTo.contains("]:") : wledTo.split(separator: ":").count == 2
        return try OSCDestination(parsing: hasPort ? wledTo : (wledTo.contains(":") ? "[\(wledTo)]" : wledTo)
                                      + ":\(WLEDAudioSync.defaultPort)")
    }

    /// SIGHUP: the configuration file read again, with the command line's own options still winning, as at
    /// the start. Destinations, sources and globs take effect at once; any other option that changed is
    /// named and kept until a restart.
    static func reread(_ file: String) throws(Failure) -> LiveSession.Reloaded {
        let expansion = try ConfigFile.expand(ConfigFile.started.withLock { $0.original })
        let command: ParsableCommand
        do { command = try Jacktap.parseAsRoot(expansion.arguments) } catch {
            throw Failure(description: "config file '\(file)': \(Jacktap.message(for: error))", code: Failure.usage)
        }
        guard let new = command as? Run else {
            throw Failure(description: "config file '\(file)' no longer describes a live run", code: Failure.usage)
        }
        do { try new.validate() } catch {
            throw Failure(description: "config file '\(file)': \(Jacktap.message(for: error))", code: Failure.usage)
        }
        let destinations: [DestinationSettings]
        do { destinations = try new.output.destinationSettings() } catch {
            throw Failure(description: "config file '\(file)': --osc \(error)", code: Failure.usage)
        }
        let changed = ConfigFile.changedKeys(from: ConfigFile.started.withLock { $0.arguments }, to: expansion.arguments)
            .subtracting(["osc", "connect", "source"]).sorted()
        return LiveSession.Reloaded(destinations: destinations, sources: new.sources + new.namedSources,
                                    globs: new.globs, needRestart: changed)
    }
}
