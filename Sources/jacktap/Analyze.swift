import Analysis
import ArgumentParser
import AudioFile
import JSONOut
import Live
import LoudnessLog
import OSC
import OSCOut
import Output
import Spawn
import Synchronization

/// `jacktap analyze FILE…`: the live analysis over audio files, as fast as the machine allows.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse audio files (WAV, FLAC, AIFF, Ogg, …) with the same code as a live run.",
        discussion: """
            Each file is fed through the real-time tap in JACK-sized periods (--period), so it gives the same \
            figures as the same audio played live. Channels become in_1, in_2, …. With --json, one line per \
            tick and a final {"summary": …} line (whole-file peak and RMS) go to stdout; without it, a short \
            summary. --osc sends the ticks as OSC too. A progress bar goes to stderr when it is a terminal. \
            The channels of a file are analysed on --threads threads. Several files are analysed side by side \
            (one after another with --osc, so a receiver gets one stream at a time) and printed in the order \
            given, each after a {"file": PATH} line with --json; a file that cannot be read is reported and \
            the others still analysed (exit 66).
            """
    )

    @Argument(help: "The audio files.")
    var files: [String] = []

    @Option(help: "Frames per period, as a JACK server would deliver them.")
    var period: Int = 256

    @Flag(help: ArgumentHelp("""
        After each file, print each loudness programme's report as a JSON line, the same report --loudness-log \
        writes live: duration, I, LRA, max M, max S, max true peak, --target and pass/fail.
        """))
    var report = false

    @Flag(name: .customLong("report-csv"), help: "The same report as a CSV header line and one line per programme.")
    var reportCSV = false

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Meters") var meters: MeterOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one audio file") }
        guard period >= 16, period <= 8192 else { throw ValidationError("--period must be between 16 and 8192 frames") }
        try output.validate(analysisRate: analysis.rate)
        if report || reportCSV {
            guard !output.json else {
                throw ValidationError("--report and --report-csv print their own lines: leave out --json (or run twice)")
            }
            guard (try? meters.chosenMeters())?.contains(.loudness) ?? false else {
                throw ValidationError("--report needs the loudness meter, which --meters leaves out")
            }
        }
    }

    func run() throws {
        let router: OSCRouter?
        do { router = try output.live.makeRouter(analysisRate: analysis.rate) } catch { error.exit() }
        if files.count == 1 {
            if let failure = analyse(files[0], router: router, threads: analysis.threadCount, showProgress: true,
                                     csvHeader: true, write: StandardOutput.write) {
                Failure(description: failure, code: Failure.badFile).exit()
            }
            return
        }
        // Several files: side by side, each on its own thread and printed in order as the ones before it are
        // done; one after another, printed as they go, when OSC must get one stream at a time.
        let parallelFiles = router == nil ? min(analysis.threadCount, files.count) : 1
        let threadsPerFile = max(1, analysis.threadCount / parallelFiles)
        let printer = OrderedPrinter()
        WorkSplitter(threads: parallelFiles).forEach(files.count) { index in
            let buffer = TextBuffer()
            let write: (String) -> Void
            if parallelFiles == 1 { write = { StandardOutput.write($0) } } else { write = { buffer.text += $0 } }
            if output.json { write(JSONLines.line(forFile: files[index]) + "\n") }
            let failure = analyse(files[index], router: router, threads: threadsPerFile, showProgress: false,
                                  csvHeader: index == 0, write: write)
            printer.finish(index, text: buffer.text, error: failure.map { "jacktap: \($0)\n" })
        }
        if printer.failures > 0 { throw ExitCode(Failure.badFile) }
    }

    /// Analyses one file, writing its lines (or its text summary) through `write`; the failure to read it, if any.
    /// `csvHeader`: whether `--report-csv` starts with its header (the first file only).
    func analyse(_ file: String, router: OSCRouter?, threads: Int, showProgress: Bool, csvHeader: Bool,
                 write: @escaping (String) -> Void) -> String? {
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: file) } catch { return error.description }
        let driver = FileTapDriver(reader: reader, periodFrames: period, ringFrames: 4 * period)
        let names = (1...reader.channels).map { "in_\($0)" }
        let meterConfig: MeterConfig
        do { meterConfig = try meters.config(ports: names) } catch { error.exit() }
        var config = analysis.config
        config.threads = threads
        let engine = AnalysisEngine(tap: driver.tap, sampleRate: reader.sampleRate, portNames: names,
                                    config: config, meters: meterConfig)
        let sinks = SnapshotSinks(router: router, json: output.json, view: nil, write: write)
        var progress = ProgressBar(total: reader.frames, enabled: showProgress && StandardOutput.isTerminal(2))
        while driver.feedPeriod() {
            sinks.publish(engine.pollOutputs())
            progress.update(driver.framesFed, sampleRate: reader.sampleRate)
        }
        sinks.publish(engine.finishOutputs())
        progress.finish()
        let summary = engine.summary()
        if report || reportCSV {
            let reports = summary.programmes.map { programme in
                ProgrammeReport(client: "analyze", file: file, reason: "end", startSeconds: 0,
                                endSeconds: Double(summary.frames) / summary.sampleRate, pausedSeconds: 0,
                                reading: programme, target: meters.loudnessTarget)
            }
            if report { for r in reports { write(r.json() + "\n") } }
            if reportCSV {
                write(((csvHeader ? [ProgrammeReport.csvHeader] : []) + reports.map { $0.csvLine() })
                    .joined(separator: "\n") + "\n")
            }
            return nil
        }
        if output.json {
            sinks.finish(summary)
        } else {
            write(String(format: "%@: %.3f s, %.0f Hz, %d channel(s)\n", file,
                         Double(summary.frames) / summary.sampleRate, summary.sampleRate, reader.channels))
            for (i, name) in summary.names.enumerated() {
                var line = String(format: "  %@  peak %8.3f dBFS   rms %8.3f dBFS", name, summary.peakDB[i],
                                  summary.rmsDB[i])
                if i < summary.truePeakDB.count, let tp = summary.truePeakDB[i] {
                    line += String(format: "   true peak %8.3f dBTP", tp)
                }
                if i < summary.clips.count, let clips = summary.clips[i], clips > 0 { line += "   clips \(clips)" }
                write(line + "\n")
            }
            for p in summary.programmes {
                write(String(format: "  %@  integrated %.1f LUFS   range %.1f LU   max momentary %.1f   max short-term %.1f\n",
                             p.name, p.integrated, p.range, p.maxMomentary, p.maxShortTerm))
            }
        }
        return nil
    }
}

/// A one-line progress bar on stderr, redrawn in place at most 100 times.
struct ProgressBar {
    let total: Int
    let enabled: Bool
    var shown = -1

    mutating func update(_ done: Int, sampleRate: Double) {
        guard enabled, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != shown else { return }
        shown = percent
        let width = 40
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        StandardOutput.error(String(format: "\r%@ %3d%%  %.1f s", bar, percent, Double(done) / sampleRate))
    }

    func finish() {
        if enabled, total > 0 { StandardOutput.error("\r\u{1B}[K") }
    }
}

/// One file's output, kept until the files before it are printed.
final class TextBuffer {
    var text = ""
}

/// Prints the output of files analysed side by side in the order they were given: a file's text goes out once
/// every file before it is done.
final class OrderedPrinter: @unchecked Sendable {
    private let state = Mutex<(next: Int, done: [Int: (text: String, error: String?)], failures: Int)>((0, [:], 0))

    /// Files that could not be read so far.
    var failures: Int { state.withLock { $0.failures } }

    /// File `index` is done: what it printed and the error it ended with.
    func finish(_ index: Int, text: String, error: String?) {
        state.withLock { state in
            state.done[index] = (text, error)
            if error != nil { state.failures += 1 }
            while let (text, error) = state.done.removeValue(forKey: state.next) {
                StandardOutput.write(text)
                if let error { StandardOutput.error(error) }
                state.next += 1
            }
        }
    }
}
