import Analysis
import Foundation
import OSC

/// `--json` output: one line per tick, keyed like the OSC paths, and a final summary line.
///
/// `{"t": 1.234, "in_1": {"peak": -6.021, "rms": -9.031, "level": 0.849, "bands": [...], "pitch": {"t": 1.2213,
/// "hz": 440.0, "confidence": 0.998, "voiced": true}, "note": ["A4", 69, 0.3], "tempo": null, "phase": null}}`.
/// `"pitch": null` in silence; an unvoiced pitch keeps its candidate with `"voiced": false` (OSC sends nothing
/// for it); `"note": null` when no note is named; `tempo` and `phase` are null until the beat tracker locks.
/// Events are lines of their own (see `line(for: AnalysisEvent)`). dB values are floored at -200 like on the wire.
public enum JSONLines {
    /// One tick as a JSON line (no trailing newline).
    public static func line(for snapshot: Snapshot) -> String {
        var out = "{\"t\": " + fixed(snapshot.time, 4)
        for port in snapshot.ports {
            out += ", " + quoted(OSCAddress.sanitizedPart(port.name)) + ": {"
            out += "\"peak\": " + fixed(port.peakDB, 3) + ", \"rms\": " + fixed(port.rmsDB, 3)
            out += ", \"level\": " + fixed(port.level, 4) + ", \"bands\": ["
            out += port.bands.map { fixed($0, 4) }.joined(separator: ", ") + "]"
            if !port.bands4.isEmpty { out += ", \"bands4\": [" + port.bands4.map { fixed($0, 4) }.joined(separator: ", ") + "]" }
            if !port.bands7.isEmpty { out += ", \"bands7\": [" + port.bands7.map { fixed($0, 4) }.joined(separator: ", ") + "]" }
            if let pitch = port.pitch {
                out += ", \"pitch\": {\"t\": " + fixed(pitch.time, 4) + ", \"hz\": " + fixed(pitch.frequency, 2)
                out += ", \"confidence\": " + fixed(pitch.confidence, 3) + ", \"voiced\": \(pitch.voiced)}"
            } else {
                out += ", \"pitch\": null"
            }
            if let note = port.note {
                out += ", \"note\": [" + quoted(note.name) + ", \(note.midi), " + fixed(note.cents, 1) + "]"
            } else {
                out += ", \"note\": null"
            }
            out += ", \"tempo\": " + (port.tempo.map { fixed($0, 2) } ?? "null")
            out += ", \"phase\": " + (port.phase.map { fixed($0, 3) } ?? "null")
            out += meterFields(port.meters) + "}"
        }
        out += programmeFields(snapshot.programmes)
        for pair in snapshot.pairs {
            out += ", " + quoted(OSCAddress.sanitizedPart(pair.name)) + ": {\"correlation\": " + fixed(pair.correlation, 4) + "}"
        }
        return out + "}"
    }

    /// One event as a JSON line: `{"t": 12.345, "port": "in_1", "event": "beat", "count": 17, "bpm": 120.0,
    /// "bar": 5, "beat_in_bar": 1, "beats_per_bar": 4, "reported": 12.335}` or `{"t": …, "port": …,
    /// "event": "onset", "strength": 0.8, "reported": …}`.
    public static func line(for event: AnalysisEvent) -> String {
        var out = "{\"t\": " + fixed(event.time, 4) + ", \"port\": " + quoted(OSCAddress.sanitizedPart(event.port))
        switch event.kind {
        case .onset(let strength): out += ", \"event\": \"onset\", \"strength\": " + fixed(strength, 3)
        case .beat(let count, let bpm, let position):
            out += ", \"event\": \"beat\", \"count\": \(count), \"bpm\": " + fixed(bpm, 2)
                + ", \"bar\": \(position.bar), \"beat_in_bar\": \(position.beat), \"beats_per_bar\": \(position.beatsPerBar)"
        }
        return out + ", \"reported\": " + fixed(event.reported, 4) + "}"
    }

    static func meterFields(_ m: MeterReading) -> String {
        var out = ""
        if let v = m.truePeakDB { out += ", \"truepeak\": " + fixed(v, 3) }
        if let v = m.vu { out += ", \"vu\": " + fixed(v, 3) }
        if let v = m.ppm { out += ", \"ppm\": " + fixed(v, 3) }
        if let v = m.k { out += ", \"k\": " + fixed(v, 3) }
        if let v = m.holdDB { out += ", \"hold\": " + fixed(v, 3) }
        if let v = m.clips { out += ", \"clip\": \(v)" }
        return out
    }

    static func programmeFields(_ programmes: [ProgrammeReading]) -> String {
        var out = ""
        for p in programmes {
            out += ", " + quoted(OSCAddress.sanitizedPart(p.name)) + ": {\"loudness\": {"
            out += ProgrammeReading.fields(p).map { quoted($0.0) + ": " + fixed($0.1, 3) }.joined(separator: ", ")
            out += "}}"
        }
        return out
    }

    /// The final line: figures over the whole run.
    public static func line(for summary: RunSummary) -> String {
        var out = "{\"summary\": {\"duration\": " + fixed(Double(summary.frames) / summary.sampleRate, 4)
        out += ", \"frames\": \(summary.frames), \"sample_rate\": " + fixed(summary.sampleRate, 0)
        out += ", \"overruns\": \(summary.overruns)"
        for (i, name) in summary.names.enumerated() {
            out += ", " + quoted(OSCAddress.sanitizedPart(name)) + ": {\"peak\": " + fixed(summary.peakDB[i], 3)
            out += ", \"rms\": " + fixed(summary.rmsDB[i], 3)
            if i < summary.truePeakDB.count, let tp = summary.truePeakDB[i] { out += ", \"truepeak\": " + fixed(tp, 3) }
            if i < summary.clips.count, let clips = summary.clips[i] { out += ", \"clip\": \(clips)" }
            out += "}"
        }
        return out + programmeFields(summary.programmes) + "}}"
    }

    static func fixed<F: BinaryFloatingPoint>(_ value: F, _ decimals: Int) -> String {
        let v = Double(value)
        guard v.isFinite else { return "null" }
        return String(format: "%.\(decimals)f", v)
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
