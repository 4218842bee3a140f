import Analysis
import ArgumentParser
import Foundation

/// Options of the musical analysis (live and `analyze`): pitch range and voicing, note display, onsets, tempo.
struct MusicOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Musical analysis to run: pitch (pitch, note), rhythm (onsets, beats, tempo, phase), comma-separated, \
        or all or none (default all). Per port: PORTS=WHAT, where PORTS is a port, a glob or a range and WHAT \
        is all, none, pitch, rhythm or pitch+rhythm; e.g. --music 'in_1=all,in_2..in_64=none'. A later rule \
        wins; ports no rule names get the bare items (all when there are none). May be repeated.
        """, valueName: "list"))
    var music: [String] = []

    @Option(name: .customLong("pitch-min"), help: ArgumentHelp(
        "Lowest fundamental searched, Hz; the pitch window spans two of its periods (40 Hz: E1 at 50 ms).",
        valueName: "hz"))
    var pitchMinimum: Double = PitchConfig().minimumFrequency

    @Option(name: .customLong("pitch-max"), help: ArgumentHelp("Highest fundamental searched, Hz.", valueName: "hz"))
    var pitchMaximum: Double = PitchConfig().maximumFrequency

    @Option(name: .customLong("pitch-confidence"), help: ArgumentHelp(
        "Confidence (0..1) a pitch needs to count as voiced; unvoiced frames send no /pitch and no /note.",
        valueName: "c"))
    var pitchConfidence: Float = PitchConfig().confidenceGate

    @Option(name: .customLong("pitch-level"), parsing: .unconditional, help: ArgumentHelp(
        "RMS level (dBFS) a pitch needs to count as voiced.", valueName: "db"))
    var pitchLevel: Float = PitchConfig().levelGateDB

    @Option(name: .customLong("note-hysteresis"), help: ArgumentHelp(
        "Cents past a semitone boundary before the displayed note changes (stops flicker).", valueName: "cents"))
    var noteHysteresis: Float = PitchConfig().hysteresisCents

    @Option(name: .customLong("onset-threshold"), help: ArgumentHelp(
        "Onset threshold above the recent mean of the onset function; higher ignores soft notes.", valueName: "x"))
    var onsetThreshold: Float = RhythmConfig().onsetThreshold

    @Option(name: .customLong("onset-gap"), help: ArgumentHelp("Minimum time between onsets, seconds.", valueName: "s"))
    var onsetGap: Double = RhythmConfig().onsetMinimumGap

    @Option(name: .customLong("bpm-min"), help: ArgumentHelp(
        "Slowest tempo reported, BPM. Between two metrical levels that fit the onsets equally well, the one in 88..176 BPM is preferred.",
        valueName: "bpm"))
    var bpmMinimum: Double = RhythmConfig().minimumBPM

    @Option(name: .customLong("bpm-max"), help: ArgumentHelp("Fastest tempo reported, BPM.", valueName: "bpm"))
    var bpmMaximum: Double = RhythmConfig().maximumBPM

    @Option(name: .customLong("beat-lead"), help: ArgumentHelp(
        "Seconds before its predicted instant at which a beat is sent (covers the network and the period).",
        valueName: "s"))
    var beatLead: Double = RhythmConfig().beatLead

    /// Which trackers `--music` runs on which port.
    func selection() throws -> MusicSelection {
        do { return try MusicSelection(parsing: music) } catch { throw ValidationError("--music: \(error)") }
    }

    func validate() throws {
        _ = try selection()
        guard pitchMinimum >= 20, pitchMinimum < pitchMaximum else {
            throw ValidationError("--pitch-min must be at least 20 Hz and below --pitch-max")
        }
        guard pitchMaximum <= 20_000 else { throw ValidationError("--pitch-max must be at most 20000 Hz") }
        guard (0...1).contains(pitchConfidence) else { throw ValidationError("--pitch-confidence must be between 0 and 1") }
        guard pitchLevel <= 0, pitchLevel >= -200 else { throw ValidationError("--pitch-level must be between -200 and 0 dBFS") }
        guard noteHysteresis >= 0, noteHysteresis < 50 else { throw ValidationError("--note-hysteresis must be 0 to under 50 cents") }
        guard onsetThreshold >= 0 else { throw ValidationError("--onset-threshold must not be negative") }
        guard onsetGap >= 0, onsetGap <= 2 else { throw ValidationError("--onset-gap must be between 0 and 2 seconds") }
        guard bpmMinimum >= 30, bpmMinimum < bpmMaximum, bpmMaximum <= 400 else {
            throw ValidationError("--bpm-min and --bpm-max must satisfy 30 <= min < max <= 400")
        }
        guard beatLead >= 0, beatLead <= 0.2 else { throw ValidationError("--beat-lead must be between 0 and 0.2 seconds") }
    }

    /// Writes these settings into `config`.
    func apply(to config: inout AnalysisConfig) {
        config.music = (try? selection()) ?? MusicSelection()
        config.pitch.minimumFrequency = pitchMinimum
        config.pitch.maximumFrequency = pitchMaximum
        config.pitch.confidenceGate = pitchConfidence
        config.pitch.levelGateDB = pitchLevel
        config.pitch.hysteresisCents = noteHysteresis
        config.rhythm.onsetThreshold = onsetThreshold
        config.rhythm.onsetMinimumGap = onsetGap
        config.rhythm.minimumBPM = bpmMinimum
        config.rhythm.maximumBPM = bpmMaximum
        config.rhythm.beatLead = beatLead
    }
}
