import Analysis
import ArgumentParser
import AudioFile
import OSC
import Output

/// `jacktap analyze FILE`: the live analysis over an audio file, as fast as the machine allows.
struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Analyse an audio file (WAV, FLAC, AIFF, Ogg, …) with the same code as a live run.",
        discussion: """
            The file is fed through the real-time tap in JACK-sized periods (--period), so it gives the same
            figures as the same audio played live. Channels become in_1, in_2, …. With --json, one line per
            tick and a final {"summary": …} line (whole-file peak and RMS) go to stdout; without it, a short
            summary. --osc sends the ticks as OSC too. A progress bar goes to stderr when it is a terminal.
            """
    )

    @Argument(help: "The audio file.")
    var file: String

    @Option(help: "Frames per period, as a JACK server would deliver them.")
    var period: Int = 256

    @OptionGroup(title: "Analysis") var analysis: AnalysisOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Meters") var meters: MeterOptions

    func validate() throws {
        guard period >= 16, period <= 8192 else { throw ValidationError("--period must be between 16 and 8192 frames") }
        try output.validate(analysisRate: analysis.rate)
    }

    func run() throws {
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: file) } catch {
            Failure(description: error.description, code: Failure.badFile).exit()
        }
        let router: OSCRouter?
        do { router = try output.makeRouter(analysisRate: analysis.rate) } catch { error.exit() }
        let driver = FileTapDriver(reader: reader, periodFrames: period, ringFrames: 4 * period)
        let names = (1...reader.channels).map { "in_\($0)" }
        let meterConfig: MeterConfig
        do { meterConfig = try meters.config(ports: names) } catch { error.exit() }
        let engine = AnalysisEngine(tap: driver.tap, sampleRate: reader.sampleRate, portNames: names,
                                    config: analysis.config, meters: meterConfig)
        let sinks = SnapshotSinks(router: router, json: output.json, view: nil)
        var progress = ProgressBar(total: reader.frames, enabled: StandardOutput.isTerminal(2))
        while driver.feedPeriod() {
            sinks.publish(engine.pollOutputs())
            progress.update(driver.framesFed, sampleRate: reader.sampleRate)
        }
        sinks.publish(engine.finishOutputs())
        progress.finish()
        let summary = engine.summary()
        if output.json {
            sinks.finish(summary)
        } else {
            StandardOutput.write(String(format: "%@: %.3f s, %.0f Hz, %d channel(s)\n", file,
                                        Double(summary.frames) / summary.sampleRate, summary.sampleRate,
                                        reader.channels))
            for (i, name) in summary.names.enumerated() {
                var line = String(format: "  %@  peak %8.3f dBFS   rms %8.3f dBFS", name, summary.peakDB[i],
                                  summary.rmsDB[i])
                if i < summary.truePeakDB.count, let tp = summary.truePeakDB[i] {
                    line += String(format: "   true peak %8.3f dBTP", tp)
                }
                if i < summary.clips.count, let clips = summary.clips[i], clips > 0 { line += "   clips \(clips)" }
                StandardOutput.write(line + "\n")
            }
            for p in summary.programmes {
                StandardOutput.write(String(format: "  %@  integrated %.1f LUFS   range %.1f LU   max momentary %.1f   max short-term %.1f\n",
                                            p.name, p.integrated, p.range, p.maxMomentary, p.maxShortTerm))
            }
        }
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
