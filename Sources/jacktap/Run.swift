import ArgumentParser
import Control

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

    @Option(help: ArgumentHelp("""
        OSC control input, off by default: listen on HOST:PORT (a bare PORT binds 127.0.0.1) for \
        <prefix>/reset (loudness, maxima, holds, clips), <prefix>/subscribe s:host i:port [s:pattern] and \
        <prefix>/unsubscribe s:host i:port (send OSC to host:port, filtered by pattern, several joined by |; \
        numeric hosts only, at most 16, command-line destinations cannot be removed), \
        <prefix>/connect s:source [s:input] and <prefix>/disconnect s:source (JACK connections to jacktap's \
        inputs), <prefix>/query (configuration, inputs, destinations, packet counts). Replies go back to \
        the sender as /reply s:address s:ok|error …; malformed and unknown packets are counted and \
        ignored. Anyone who can reach the port can change routing and connections: bind a public address \
        only on a trusted network.
        """, valueName: "host:port"))
    var listen: String?

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Meters") var meters: MeterOptions

    func validate() throws {
        guard inputs >= 0, inputs <= 256 else { throw ValidationError("--inputs must be between 0 and 256") }
        guard !name.isEmpty, !name.contains(":") else { throw ValidationError("--name must be non-empty, without ':'") }
        try output.validate(analysisRate: analysis.rate)
        if let listen {
            do { _ = try ListenAddress(parsing: listen) } catch { throw ValidationError("--listen \(error)") }
        }
    }

    func run() throws {
        SignalWaiter.install()
        let session = LiveSession(clientName: name, sources: sources, globs: globs, inputCount: inputs,
                                  analysis: analysis.config, output: output, meters: meters, quiet: quiet, duration: duration,
                                  listen: listen.flatMap { try? ListenAddress(parsing: $0) })
        do { try session.run() } catch { error.exit() }
    }
}
