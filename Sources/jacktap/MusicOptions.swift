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
        "Slowest tempo reported, BPM (default 55; 40 with --beat-activation learned). With the onset function, between two metrical levels that fit the onsets equally well, the one in 88..176 BPM is preferred.",
        valueName: "bpm"))
    var bpmMinimumGiven: Double?

    @Option(name: .customLong("bpm-max"), help: ArgumentHelp(
        "Fastest tempo reported, BPM (default 215; 240 with --beat-activation learned).", valueName: "bpm"))
    var bpmMaximumGiven: Double?

    var bpmMinimum: Double {
        bpmMinimumGiven ?? (usesLearned ? RhythmConfig.learnedMinimumBPM : RhythmConfig().minimumBPM)
    }
    var bpmMaximum: Double {
        bpmMaximumGiven ?? (usesLearned ? RhythmConfig.learnedMaximumBPM : RhythmConfig().maximumBPM)
    }

    /// `--beat-activation learned`, or `--beat-model` (which implies it).
    var usesLearned: Bool { beatModel != nil || beatActivation == "learned" }

    @Option(name: .customLong("beat-lead"), help: ArgumentHelp(
        "Seconds before its predicted instant at which a beat is sent (covers the network and the period).",
        valueName: "s"))
    var beatLead: Double = RhythmConfig().beatLead

    @Option(name: .customLong("beat-activation"), help: ArgumentHelp(
        "What the beat tracker reads: onsets (the onset function below 1 kHz) or learned (a small recurrent network trained on recordings with exact beats: on music it never heard it finds the beat more often, but it reads some 90 BPM drum loops and drum songs at twice their tempo; see docs/analysis.md).",
        valueName: "onsets|learned"))
    var beatActivation: String = "onsets"

    @Option(name: .customLong("beat-model"), help: ArgumentHelp(
        "Weights of the learned beat activation: one network, or several whose activations are averaged (implies --beat-activation learned; default: the file shipped beside the binary, jacktap_Analysis.resources/beat-activation.jtnn).",
        valueName: "file"))
    var beatModel: String?

    @Option(name: .customLong("beat-tuning"), help: ArgumentHelp(
        "Settings of the beat model over its activation, key=value,... (for eval/real).", visibility: .hidden))
    var beatTuning: String?

    /// The learned activation's weights (nil with `--beat-activation onsets`), read and checked.
    func learnedWeights() throws -> BeatNetworkWeights? {
        switch usesLearned ? "learned" : beatActivation {
        case "onsets": return nil
        case "learned":
            do {
                if let beatModel { return try BeatNetworkWeights(contentsOf: beatModel) }
                return try BeatNetworkWeights.bundled.get()
            } catch {
                throw ValidationError("the learned beat activation: \(error)")
            }
        default: throw ValidationError("--beat-activation must be onsets or learned")
        }
    }

    /// The beat model's settings for the chosen activation, with `--beat-tuning` applied.
    func beatModelSettings(learned: Bool) throws -> BeatModelSettings {
        var settings: BeatModelSettings = learned ? .learned : .onsetFunction
        if let beatTuning {
            do { try settings.apply(beatTuning) } catch { throw ValidationError("--beat-tuning: \(error)") }
        }
        return settings
    }

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
        let weights = try learnedWeights()
        _ = try beatModelSettings(learned: weights != nil)
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
        // validate() has read and checked both.
        config.rhythm.learnedActivation = try? learnedWeights()
        config.rhythm.beatModel = (try? beatModelSettings(learned: config.rhythm.learnedActivation != nil))
            ?? .onsetFunction
    }
}
