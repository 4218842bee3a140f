/// Every figure and event jacktap publishes, once. The OSC publisher builds its addresses from these, each
/// destination scales by their kind, the router timetags by their instant, and docs/osc-reference.md is written
/// from them (``FigureReference``); a test fails when a message is sent that is not declared here.
public enum FigureSchema {
    // MARK: Per port, every tick

    public static let peak = Figure(
        .port, "peak", "f", arguments: ["dBFS"], unit: "dBFS", kind: .decibels, decimals: 3,
        summary: "sample peak since the previous tick; no peak is lost between ticks")
    public static let rms = Figure(
        .port, "rms", "f", arguments: ["dBFS"], unit: "dBFS", kind: .decibels, decimals: 3,
        summary: "RMS over the last 300 ms")
    public static let level = Figure(
        .port, "level", "f", arguments: ["0..1"], kind: .level, range: 0...1, decimals: 4,
        summary: "RMS mapped linearly from `--floor` (-60) to 0 dBFS onto 0..1, clamped")
    public static let bands = Figure(
        .port, "bands", "f*", arguments: ["0..1 per band"], kind: .level, range: 0...1, decimals: 4,
        summary: "`--bands` (48) log-spaced band levels 60 Hz–18 kHz, 0..1 (dB from -80 to 0; a band holding a "
            + "whole sine reads the sine's peak dBFS)")
    public static let bands4 = Figure(
        .port, "bands4", "ffff", arguments: ["bass", "low-mid", "mid", "high"], kind: .level, range: 0...1,
        decimals: 4, summary: "bass / low-mid / mid / high, upper edges 100 / 250 / 3000 / 10000 Hz (from 20 Hz)")
    public static let bass = bandGroup("bass", "the first of `bands4`, one value per path (for a fader)")
    public static let lowMid = bandGroup("lowmid", "the second of `bands4`")
    public static let mid = bandGroup("mid", "the third of `bands4`")
    public static let high = bandGroup("high", "the fourth of `bands4`")
    public static let bands7 = Figure(
        .port, "bands7", "fffffff", arguments: ["63 Hz", "160 Hz", "400 Hz", "1 kHz", "2.5 kHz", "6.3 kHz", "16 kHz"],
        kind: .level, range: 0...1, decimals: 4,
        summary: "7 log-spaced bands 63 Hz–16 kHz (the count of MagicQ's audio input)")
    public static let pitch = Figure(
        .port, "pitch", "ff", arguments: ["Hz", "confidence 0..1"], unit: "Hz", kind: .frequency, decimals: 2,
        cadence: .voicedTicks, instant: .pitchWindow,
        summary: "fundamental and confidence; not sent when unvoiced or silent")
    public static let note = Figure(
        .port, "note", "sif", arguments: ["note name (A4)", "MIDI number", "cents"], kind: .note,
        cadence: .voicedTicks, instant: .pitchWindow,
        summary: "the displayed note, with hysteresis; not sent when unvoiced")
    public static let tempo = Figure(
        .port, "tempo", "f", arguments: ["BPM"], unit: "BPM", kind: .tempo, decimals: 2, cadence: .onceLocked,
        label: "BPM", summary: "the beat tracker's tempo")
    public static let phase = Figure(
        .port, "phase", "f", arguments: ["0..1"], kind: .phase, range: 0...1, decimals: 3, cadence: .onceLocked,
        summary: "position within the beat at the tick, 0 on the beat: a chase follows it")

    // MARK: Per port, the broadcast meters (`--meters`), every tick

    public static let truePeak = Figure(
        .port, "truepeak", "f", arguments: ["dBTP"], unit: "dBTP", kind: .decibels, decimals: 3,
        label: "true peak",
        summary: "true peak since the previous tick (BS.1770-4 Annex 2: 4× oversampling below 96 kHz, 2× below "
            + "192 kHz, each peak refined by the parabola through its grid neighbours; never below the sample peak)")
    public static let vu = Figure(
        .port, "vu", "f", arguments: ["VU"], unit: "VU", kind: .meterScale, decimals: 3,
        summary: "VU (IEC 60268-17: 99 % in 300 ms, 1.2 % overshoot): 0 VU = a sine peaking at `--vu-reference` "
            + "(-18 dBFS)")
    public static let ppm = Figure(
        .port, "ppm", "f", arguments: ["dB"], unit: "dB", kind: .meterScale, decimals: 3,
        summary: "quasi-peak (IEC 60268-10), `--ppm II` (BBC/EBU, 0 dB = -18 dBFS, 24 dB fall in 2.8 s) or `I` "
            + "(DIN, 0 dB = -9 dBFS, 20 dB in 1.5 s), max since the previous tick")
    public static let k = Figure(
        .port, "k", "f", arguments: ["dB on the K scale"], unit: "dB", kind: .meterScale, decimals: 3,
        summary: "K-system (Katz) RMS meter on the `--k` 20/14/12 scale: 0 = a sine peaking at -20/-14/-12 dBFS")
    public static let hold = Figure(
        .port, "hold", "f", arguments: ["dBFS"], unit: "dBFS", kind: .decibels, decimals: 3,
        summary: "sample peak held `--hold` s (1.5), then falling `--fall` dB/s (20)")
    public static let clip = Figure(
        .port, "clip", "i", arguments: ["clip events"], kind: .count,
        summary: "clip events so far: runs of samples at or above `--clip-threshold` (0 dBFS) count once")

    // MARK: Per programme and per pair, every tick

    public static let momentary = loudness("momentary", "M", "LUFS", "momentary loudness, 400 ms")
    public static let shortTerm = loudness("shortterm", "S", "LUFS", "short-term loudness, 3 s")
    public static let integrated = loudness(
        "integrated", "I", "LUFS", "integrated loudness, gated (BS.1770-4: -70 LUFS absolute, -10 LU relative)")
    public static let loudnessRange = Figure(
        .programme, "loudness/range", "f", arguments: ["LU"], unit: "LU", kind: .loudnessUnits, decimals: 3,
        label: "LRA", summary: "loudness range (EBU Tech 3342)")
    public static let maxMomentary = loudness("max_momentary", "max M", "LUFS", "highest momentary loudness since "
                                              + "the start or the last reset")
    public static let maxShortTerm = loudness("max_shortterm", "max S", "LUFS", "highest short-term loudness since "
                                              + "the start or the last reset")
    public static let paused = Figure(
        .programme, "loudness/paused", "i", arguments: ["1 paused, 0 measuring"], kind: .state, cadence: .atChange,
        instant: .now, label: "paused",
        summary: "the programme's integration was paused (1) or resumed (0) by `/jacktap/loudness/pause` or "
            + "`/resume` (EBU Tech 3341): while paused, integrated, range and maxima ignore the audio, momentary and "
            + "short-term keep showing it")
    public static let alarm = Figure(
        .programme, "alarm", "si", arguments: ["`silence`, `over_target` or `true_peak`", "1 on, 0 off"], kind: .state,
        cadence: .atChange, instant: .now,
        summary: "an alarm of `--alarms` started or ended: short-term loudness under -60 LUFS for `--silence` s, over "
            + "`--target` + tolerance, or a true peak over `--true-peak-max` (-1 dBTP)")
    public static let correlation = Figure(
        .pair, "correlation", "f", arguments: ["-1..+1"], kind: .correlation, range: -1...1, decimals: 4,
        summary: "stereo phase correlation of a `--pair`")

    // MARK: Per port, events

    public static let onset = Figure(
        .port, "onset", "f", arguments: ["strength 0..1"], kind: .strength, range: 0...1, decimals: 3,
        cadence: .atOnce, instant: .now,
        summary: "an onset (note start or hit): strength 1 − e^−x, x the onset function's excess over its "
            + "threshold; sent the moment it is detected")
    public static let beat = Figure(
        .port, "beat", "if", arguments: ["beat counter since lock", "BPM"], unit: "BPM", kind: .count, cadence: .atOnce,
        instant: .beat, summary: "a beat, sent `--beat-lead` ahead of its predicted instant")
    public static let bar = Figure(
        .port, "bar", "ii", arguments: ["bar counter since lock", "beat in the bar, 1…N"], kind: .count,
        cadence: .withBeat, instant: .beat, summary: "the beat's place: a chase steps on it")
    public static let downbeat = Figure(
        .port, "downbeat", "i", arguments: ["bar counter"], kind: .count, cadence: .withDownbeat, instant: .beat,
        summary: "the one, where a chase changes")

    // MARK: The run

    public static let status = Figure(
        .session, "status", "sii", arguments: ["`running` or `disconnected`", "xruns", "overruns"], kind: .state,
        cadence: .everySecond, instant: .now,
        summary: "the JACK connection, the xruns the server reported and the periods the analysis dropped, "
            + "counted over the whole run")
    public static let restarted = Figure(
        .session, "restarted", "sii", arguments: ["reason", "sample rate, Hz", "period, frames"], kind: .state,
        cadence: .atStart, instant: .now,
        summary: "the analysis started: `start`, `reconnect` after a server restart, `samplerate` after a rate "
            + "change, `inputs` after more inputs were needed; integrated loudness, range, maxima, holds, clips and "
            + "tempo start again from here")

    /// Every figure, in the order of the reference (and of a tick's messages).
    public static let all: [Figure] = [
        peak, rms, level, bands, bands4, bass, lowMid, mid, high, bands7, pitch, note, tempo, phase,
        truePeak, vu, ppm, k, hold, clip,
        momentary, shortTerm, integrated, loudnessRange, maxMomentary, maxShortTerm, paused, alarm, correlation,
        onset, beat, bar, downbeat,
        status, restarted,
    ]

    /// The programme's loudness figures, in the order of the messages and of the `--json` keys.
    public static let programmeLoudness = [momentary, shortTerm, integrated, loudnessRange, maxMomentary, maxShortTerm]

    /// The four one-value band paths, in the order of `bands4`.
    public static let bandGroups = [bass, lowMid, mid, high]

    /// The figure an address (with or without prefix: `/in_1/peak`, `/jacktap/main/loudness/momentary`)
    /// belongs to, nil if none is declared there. The longest declared path that ends the address wins; a
    /// port's, programme's or pair's figure needs a part for its scope before it.
    public static func figure(at address: String) -> Figure? {
        let parts = address.split(separator: "/", omittingEmptySubsequences: true)
        for length in stride(from: min(byPath.depth, parts.count), through: 1, by: -1) {
            guard let figure = byPath.table[parts.suffix(length).joined(separator: "/")] else { continue }
            if figure.scope == .session || parts.count > length { return figure }
        }
        return nil
    }

    /// Whether a message at `address` with these OSC type tags is one the schema declares.
    public static func declares(address: String, typeTags: String) -> Bool {
        figure(at: address)?.accepts(typeTags: typeTags) ?? false
    }

    private static let byPath: (table: [String: Figure], depth: Int) = (
        Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) }),
        all.map { $0.path.split(separator: "/").count }.max() ?? 1
    )

    private static func bandGroup(_ path: String, _ summary: String) -> Figure {
        Figure(.port, path, "f", arguments: ["0..1"], kind: .level, range: 0...1, decimals: 4, summary: summary)
    }

    private static func loudness(_ leaf: String, _ label: String, _ unit: String, _ summary: String) -> Figure {
        Figure(.programme, "loudness/" + leaf, "f", arguments: [unit], unit: unit, kind: .loudness, decimals: 3,
               label: label, summary: summary)
    }
}
