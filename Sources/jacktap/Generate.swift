import ArgumentParser
import DSP
import Foundation
import JackHost
import Output

/// `jacktap generate`: the built-in test signals as a standalone JACK source.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a built-in test signal into JACK: a line-up tone, or the musical demo signal.",
        discussion: """
            jacktap generate --tone 1000 --level -18 --connect jacktap:in_1
            jacktap generate --demo --connect jacktap:in_1 --connect jacktap:in_2
            The tone's level is its peak in dBFS (its RMS reads 3.01 dB lower).
            """
    )

    @Option(help: "Line-up tone frequency, Hz.")
    var tone: Double = 1000

    @Option(parsing: .unconditional, help: "Line-up tone peak level, dBFS (e.g. --level -18).")
    var level: Double = -18

    @Flag(help: "Play the musical demo signal instead of the tone.")
    var demo = false

    @Option(help: "Number of outputs (all carry the same signal).")
    var outputs: Int = 1

    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Connect output 1, 2, … to these ports in turn (repeatable).", valueName: "port"))
    var destinations: [String] = []

    @Option(name: [.short, .long], help: "JACK client name.")
    var name: String = "jacktap-generate"

    @Option(help: "Stop after this many seconds (default: until Ctrl-C).")
    var duration: Double?

    func validate() throws {
        guard tone > 0, tone < 100_000 else { throw ValidationError("--tone must be between 0 and 100000 Hz") }
        guard level <= 0, level >= -200 else { throw ValidationError("--level must be between -200 and 0 dBFS") }
        guard outputs >= 1, outputs <= 64 else { throw ValidationError("--outputs must be between 1 and 64") }
    }

    func run() throws {
        SignalWaiter.install()
        let generator: LiveGenerator
        do {
            let client = try JackClient(name: name)
            guard tone < Double(client.sampleRate) / 2 else {
                throw Failure(description: "--tone \(tone) Hz is above half the server's rate (\(client.sampleRate) Hz)",
                              code: Failure.usage)
            }
            generator = try LiveGenerator(client: client, kind: demo ? .demo : .tone(frequency: tone, levelDBFS: level),
                                          outputs: outputs)
            try generator.activate()
            try generator.connect(to: destinations)
        } catch let failure as Failure {
            failure.exit()
        } catch let error as JackError {
            let code = if case .serverNotRunning = error { Failure.noServer } else { Failure.noSuchPort }
            Failure(description: error.description, code: code).exit()
        }
        let deadline = duration.map { Date().addingTimeInterval($0) }
        while SignalWaiter.pending() == nil {
            if let deadline, Date() >= deadline { break }
            usleep(20_000)
        }
        generator.stop()
    }
}
