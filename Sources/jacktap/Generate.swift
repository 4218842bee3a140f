import ArgumentParser
import AudioFile
import DSP
import Foundation
import JackHost
import Live
import Spawn

/// `jacktap generate`: the built-in test signals as a standalone JACK source.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play a built-in test signal into JACK: a line-up tone, or the musical demo signal.",
        discussion: """
            jacktap generate --tone 1000 --level -18 --connect jacktap:in_1
            jacktap generate --demo --connect jacktap:in_1 --connect jacktap:in_2
            The tone's level is its peak in dBFS (its RMS reads 3.01 dB lower). Once its ports are active it says \
            so on stderr ("jacktap: playing a 1000 Hz tone peaking at -18 dBFS on jacktap-generate:out_1"): a \
            script can wait for that line. When the server runs periods without it (an xrun, or PipeWire changing \
            its period size), it says how many frames its outputs missed there ("jacktap: the server's clock moved \
            512 frames past the end of this client's last period …").
            """
    )

    @Option(help: "Line-up tone frequency, Hz.")
    var tone: Double = 1000

    @Option(parsing: .unconditional, help: "Line-up tone peak level, dBFS (e.g. --level -18).")
    var level: Double = -18

    @Flag(help: "Play the musical demo signal instead of the tone.")
    var demo = false

    @Option(help: ArgumentHelp("Play this audio file (channel i to output i) once, then exit. Its rate must be the server's.",
                               valueName: "file"))
    var file: String?

    @Flag(name: .customLong("on-connect"), help: """
        With --file: start playing only once every output is connected, so the receiver gets the file from its \
        first frame (e.g. jacktap started later with --connect 'jacktap-generate:out_*').
        """)
    var onConnect = false

    @Option(help: "Number of outputs (all carry the same signal).")
    var outputs: Int = 1

    @Option(name: .customLong("connect"), help: ArgumentHelp(
        "Connect output 1, 2, … to these ports in turn (repeatable).", valueName: "port"))
    var destinations: [String] = []

    @Option(name: [.short, .long], help: "JACK client name.")
    var name: String = "jacktap-generate"

    @Option(help: "Stop after this many seconds of audio (default: until Ctrl-C).")
    var duration: Double?

    func validate() throws {
        guard !onConnect || file != nil else { throw ValidationError("--on-connect plays a --file") }
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
            let clip = try file.map { path throws(Failure) in try loadClip(path, rate: client.sampleRate) }
            generator = try LiveGenerator(client: client, kind: demo ? .demo : .tone(frequency: tone, levelDBFS: level),
                                          outputs: clip?.channels ?? outputs, clip: clip)
            // --duration counts audio: exactly that many frames of signal, however slowly the server runs.
            generator.limit(frames: duration.map { Int(($0 * Double(client.sampleRate)).rounded()) })
            try generator.activate()
            try generator.connect(to: destinations)
            if !onConnect { generator.startClip() }
            // Once the ports are active: what plays, and where (a script waits for this line, not for a poll of
            // the server's ports, which opens and closes a client while others may be opening).
            let what = file.map { "'\($0)'" + (onConnect ? " once every output is connected" : "") }
                ?? (demo ? "the demo signal"
                    : "a \(String(format: "%g", tone)) Hz tone peaking at \(String(format: "%g", level)) dBFS")
            StandardOutput.error("jacktap: playing \(what) on \(generator.outputNames.joined(separator: ", "))\n")
        } catch let failure as Failure {
            failure.exit()
        } catch let error as JackError {
            let code = if case .serverNotRunning = error { Failure.noServer } else { Failure.noSuchPort }
            Failure(description: error.description, code: code).exit()
        }
        if onConnect {
            // The file's first frame goes to every destination: play only once all outputs are connected.
            while !generator.outputsConnected {
                if SignalWaiter.pending() != nil || generator.serverStopped {
                    generator.stop()
                    return
                }
                usleep(500)
            }
            generator.startClip()
        }
        var reportedMissed = 0
        while SignalWaiter.pending() == nil {
            let missed = generator.missedFrames
            if missed > reportedMissed {
                // A reader heard a gap there: say so as it happens, so that whoever judges what was read knows.
                StandardOutput.error("jacktap: the server's clock moved \(missed - reportedMissed) frames past the end of "
                                     + "this client's last period (an xrun, or a period run without it): the outputs "
                                     + "played nothing there\n")
                reportedMissed = missed
            }
            if generator.playedLimit { break }
            if generator.finished || generator.serverStopped { break }
            usleep(5_000)
        }
        let stopped = generator.serverStopped
        generator.stop()
        if stopped { Failure(description: "the JACK server stopped", code: Failure.serverStopped).exit() }
    }

    /// The whole file in memory, so the callback only copies.
    func loadClip(_ path: String, rate: Int) throws(Failure) -> PlanarClip {
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: path) } catch {
            throw Failure(description: error.description, code: Failure.badFile)
        }
        guard Int(reader.sampleRate) == rate else {
            throw Failure(description: "'\(path)' is at \(Int(reader.sampleRate)) Hz but the JACK server runs at \(rate) Hz; "
                + "jacktap does not resample (convert it, e.g. sox in.wav -r \(rate) out.wav)", code: Failure.badFile)
        }
        var frames = [[Float]](repeating: [], count: reader.channels)
        let chunk = 65_536
        let planes = (0..<reader.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: chunk) }
        defer { planes.forEach { $0.deallocate() } }
        while true {
            let n = reader.read(count: chunk, into: planes)
            if n == 0 { break }
            for c in 0..<reader.channels { frames[c] += UnsafeBufferPointer(start: planes[c], count: n) }
        }
        let clip = PlanarClip.allocate(channels: reader.channels, frames: frames[0].count)
        for c in 0..<reader.channels { clip.plane(c).update(from: frames[c], count: frames[0].count) }
        return clip
    }
}
