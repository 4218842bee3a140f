import Analysis
import ArgumentParser
import DSP
import Foundation
import JackHost
import Live

/// `jacktap demo`: everything at work with nothing but the installed packages.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the built-in musical test signal into JACK and tap it: the live view plus OSC to 127.0.0.1:9000.",
        discussion: """
            When no JACK server is reachable, the demo starts a private one with the dummy backend \
            (jack/private-server) and stops it on exit; a server it did not start is left alone. The signal \
            comes from a second client, jacktap-signal. Ctrl-C or q stops everything the demo started. \
            Watch the OSC with `oscdump 9000` in another terminal.
            """
    )

    @Option(help: "Stop after this many seconds of audio (default: run until Ctrl-C).")
    var duration: Double?

    @Flag(name: [.short, .long], help: "No terminal view and no messages on stderr.")
    var quiet = false

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Meters") var meters: MeterOptions

    func run() throws {
        SignalWaiter.install()
        var started: String?
        if !PrivateServer.reachable() {
            let name = "jacktap-demo-\(getpid())"
            do { try PrivateServer.run(["start", name]) } catch { error.exit() }
            setenv("JACK_DEFAULT_SERVER", name, 1)
            started = name
            if !quiet { FileHandle.standardError.write(Data("jacktap: started private JACK server '\(name)'\n".utf8)) }
        }
        let result = Result { () throws(Failure) in try play() }
        if let started { try? PrivateServer.run(["stop", started]) }
        if case .failure(let failure) = result { failure.exit() }
    }

    func play() throws(Failure) {
        let generator: LiveGenerator
        do {
            generator = try LiveGenerator(client: try JackClient(name: "jacktap-signal"), kind: .demo, outputs: 2)
            try generator.activate()
        } catch {
            throw Failure(description: error.description, code: Failure.noServer)
        }
        defer { generator.stop() }
        var output = self.output
        if output.destinations.isEmpty { output.destinations = ["127.0.0.1:9000"] }
        let meters = meters
        var session = LiveSession(clientName: "jacktap", sources: generator.outputNames, globs: [], inputCount: 0,
                                  analysis: analysis.config, output: output.live, meterConfig: { (ports: [String]) throws(Failure) -> MeterConfig in try meters.config(ports: ports) },
                                  quiet: quiet, duration: duration)
        session.version = Jacktap.versionText
        try session.run()
    }
}
