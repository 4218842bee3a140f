import Analysis
import Foundation
import OSC
import Schema

/// `--json` output: one line per tick, keyed like the OSC paths, and a final summary line.
///
/// `{"t": 1.2340, "in_1": {"peak": -6.021, "rms": -9.031, "level": 0.8490, "bands": [...], "pitch": {"t": 1.2213,
/// "hz": 440.00, "confidence": 0.998, "voiced": true}, "note": ["A4", 69, 0.3], "tempo": null, "phase": null}}`.
/// `"pitch": null` in silence; an unvoiced pitch keeps its candidate with `"voiced": false` (OSC sends nothing
/// for it); `"note": null` when no note is named; `tempo` and `phase` are null until the beat tracker locks.
/// Events are lines of their own (see `line(for: AnalysisEvent)`). dB values are floored at -200 like on the wire.
public enum JSONLines {
    /// One tick as a JSON line (no trailing newline).
    public static func line(for snapshot: Snapshot) -> String {
        let keys = Self.keys
        var out = JSONText(capacity: 64 + snapshot.ports.count * 900)
        out.raw("{\"t\": ")
        out.fixed(snapshot.time, 4)
        for port in snapshot.ports {
            out.raw(", ")
            out.quoted(OSCAddress.sanitizedPart(port.name))
            out.raw(": {")
            keys.peak.first(port.peakDB, into: &out)
            keys.rms.write(port.rmsDB, into: &out)
            keys.level.write(port.level, into: &out)
            out.append(keys.bands.key)
            list(port.bands, into: &out)
            if !port.bands4.isEmpty { out.append(keys.bands4.key); list(port.bands4, into: &out) }
            if !port.bands7.isEmpty { out.append(keys.bands7.key); list(port.bands7, into: &out) }
            if let pitch = port.pitch {
                out.raw(", \"pitch\": {\"t\": ")
                out.fixed(pitch.time, 4)
                out.raw(", \"hz\": ")
                out.fixed(pitch.frequency, 2)
                out.raw(", \"confidence\": ")
                out.fixed(pitch.confidence, 3)
                out.raw(", \"voiced\": ")
                out.boolean(pitch.voiced)
                out.raw("}")
            } else {
                out.raw(", \"pitch\": null")
            }
            if let note = port.note {
                out.raw(", \"note\": [")
                out.quoted(note.name)
                out.raw(", ")
                out.integer(note.midi)
                out.raw(", ")
                out.fixed(note.cents, 1)
                out.raw("]")
            } else {
                out.raw(", \"note\": null")
            }
            out.append(keys.tempo.key)
            if let tempo = port.tempo { out.fixed(tempo, keys.tempo.decimals) } else { out.raw("null") }
            out.append(keys.phase.key)
            if let phase = port.phase { out.fixed(phase, keys.phase.decimals) } else { out.raw("null") }
            meterFields(port.meters, keys: keys, into: &out)
            out.raw("}")
        }
        programmeFields(snapshot.programmes, into: &out)
        for pair in snapshot.pairs {
            out.raw(", ")
            out.quoted(OSCAddress.sanitizedPart(pair.name))
            out.raw(": {")
            keys.correlation.first(pair.correlation, into: &out)
            out.raw("}")
        }
        out.raw("}")
        return out.text
    }

    /// One event as a JSON line: `{"t": 12.3450, "port": "in_1", "event": "beat", "count": 17, "bpm": 120.00,
    /// "bar": 5, "beat_in_bar": 1, "beats_per_bar": 4, "reported": 12.3350}` or `{"t": …, "port": …,
    /// "event": "onset", "strength": 0.800, "reported": …}` or `{"t": …, "programme": "main", "event": "alarm",
    /// "kind": "silence", "on": true, "reported": …}`.
    public static func line(for event: AnalysisEvent) -> String {
        var out = JSONText(capacity: 160)
        out.raw("{\"t\": ")
        out.fixed(event.time, 4)
        if case .alarm = event.kind { out.raw(", \"programme\": ") } else { out.raw(", \"port\": ") }
        out.quoted(OSCAddress.sanitizedPart(event.port))
        switch event.kind {
        case .onset(let strength):
            out.raw(", \"event\": \"onset\", \"strength\": ")
            out.fixed(strength, 3)
        case .beat(let count, let bpm, let position):
            out.raw(", \"event\": \"beat\", \"count\": ")
            out.integer(count)
            out.raw(", \"bpm\": ")
            out.fixed(bpm, 2)
            out.raw(", \"bar\": ")
            out.integer(position.bar)
            out.raw(", \"beat_in_bar\": ")
            out.integer(position.beat)
            out.raw(", \"beats_per_bar\": ")
            out.integer(position.beatsPerBar)
        case .alarm(let kind, let on):
            out.raw(", \"event\": \"alarm\", \"kind\": ")
            out.quoted(kind.rawValue)
            out.raw(", \"on\": ")
            out.boolean(on)
        }
        out.raw(", \"reported\": ")
        out.fixed(event.reported, 4)
        out.raw("}")
        return out.text
    }

    /// The JACK connection as the meter bridge streams it (beside the ticks; `/status` in OSC):
    /// `{"status": {"state": "running", "xruns": 0, "overruns": 0}}`.
    public static func statusLine(state: String, xruns: Int, overruns: Int) -> String {
        var out = JSONText(capacity: 80)
        out.raw("{\"status\": {\"state\": ")
        out.quoted(state)
        out.raw(", \"xruns\": ")
        out.integer(xruns)
        out.raw(", \"overruns\": ")
        out.integer(overruns)
        out.raw("}}")
        return out.text
    }

    /// `[v, v, …]`, four decimals each.
    static func list(_ values: [Float], into out: inout JSONText) {
        out.raw("[")
        for (i, v) in values.enumerated() {
            if i > 0 { out.raw(", ") }
            out.fixed(v, 4)
        }
        out.raw("]")
    }

    static func meterFields(_ m: MeterReading, keys: Keys, into out: inout JSONText) {
        if let v = m.truePeakDB { keys.truePeak.write(v, into: &out) }
        if let v = m.vu { keys.vu.write(v, into: &out) }
        if let v = m.ppm { keys.ppm.write(v, into: &out) }
        if let v = m.k { keys.k.write(v, into: &out) }
        if let v = m.holdDB { keys.hold.write(v, into: &out) }
        if let v = m.clips { out.append(keys.clip.key); out.integer(v) }
    }

    /// One figure's key in a tick line, `, "leaf": ` as bytes (its leaf in the schema), and its decimals there.
    struct Key {
        let key: [UInt8]
        let decimals: Int

        init(_ figure: Figure) {
            key = Array(", \"\(figure.leaf)\": ".utf8)
            decimals = figure.decimals ?? 3
        }

        /// `, "leaf": value`.
        func write(_ value: Float, into out: inout JSONText) {
            out.append(key)
            out.fixed(value, decimals)
        }

        /// `"leaf": value`, the first field of an object.
        func first(_ value: Float, into out: inout JSONText) {
            out.append(key[2...])
            out.fixed(value, decimals)
        }
    }

    /// The tick line's keys, written from the schema once.
    struct Keys {
        typealias F = FigureSchema
        let peak = Key(F.peak), rms = Key(F.rms), level = Key(F.level), bands = Key(F.bands)
        let bands4 = Key(F.bands4), bands7 = Key(F.bands7), tempo = Key(F.tempo), phase = Key(F.phase)
        let truePeak = Key(F.truePeak), vu = Key(F.vu), ppm = Key(F.ppm), k = Key(F.k), hold = Key(F.hold)
        let clip = Key(F.clip), correlation = Key(F.correlation)
    }

    static let keys = Keys()

    static func programmeFields(_ programmes: [ProgrammeReading], into out: inout JSONText) {
        for p in programmes {
            out.raw(", ")
            out.quoted(OSCAddress.sanitizedPart(p.name))
            out.raw(": {\"loudness\": {")
            for (i, (figure, value)) in ProgrammeReading.fields(p).enumerated() {
                if i > 0 { out.raw(", ") }
                out.quoted(figure.leaf)
                out.raw(": ")
                out.fixed(value, figure.decimals ?? 3)
            }
            // Only while paused, so that the lines of a run nobody pauses stay as they were.
            if p.paused {
                out.raw(", ")
                out.quoted(FigureSchema.paused.leaf)
                out.raw(": 1")
            }
            out.raw("}}")
        }
    }

    /// The line before each file's lines when `analyze` is given several: `{"file": "a.wav"}`.
    public static func line(forFile path: String) -> String {
        var out = JSONText()
        out.raw("{\"file\": ")
        out.quoted(path)
        out.raw("}")
        return out.text
    }

    /// The final line: figures over the whole run.
    public static func line(for summary: RunSummary) -> String {
        var out = JSONText()
        out.raw("{\"summary\": {\"duration\": ")
        out.fixed(Double(summary.frames) / summary.sampleRate, 4)
        out.raw(", \"frames\": ")
        out.integer(summary.frames)
        out.raw(", \"sample_rate\": ")
        out.fixed(summary.sampleRate, 0)
        out.raw(", \"overruns\": ")
        out.integer(summary.overruns)
        let keys = Self.keys
        for (i, name) in summary.names.enumerated() {
            out.raw(", ")
            out.quoted(OSCAddress.sanitizedPart(name))
            out.raw(": {")
            keys.peak.first(summary.peakDB[i], into: &out)
            keys.rms.write(summary.rmsDB[i], into: &out)
            if i < summary.truePeakDB.count, let tp = summary.truePeakDB[i] { keys.truePeak.write(tp, into: &out) }
            if i < summary.clips.count, let clips = summary.clips[i] { out.append(keys.clip.key); out.integer(clips) }
            out.raw("}")
        }
        programmeFields(summary.programmes, into: &out)
        out.raw("}}")
        return out.text
    }
}
