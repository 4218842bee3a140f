import Analysis
import Foundation
import OSC

/// The `--json` lines as jacktap wrote them before JSONText: every number through Foundation's
/// `String(format: "%.Nf")`, every string escaped scalar by scalar, the keys and their order as the JSON lines in
/// docs/analysis.md and JSONLines' documentation give them. Written here, apart from the writer, so that a test can
/// hold the writer's lines against it byte for byte. Keys go through `OSCAddress.sanitizedPart`, as they did then:
/// the JSON keys are the OSC path parts, a rule of the OSC module, not of the writer.
enum FoundationFormattedLines {
    static func tick(_ snapshot: Snapshot) -> String {
        var out = "{\"t\": " + fixed(snapshot.time, 4)
        for port in snapshot.ports {
            out += ", " + key(port.name) + ": {\"peak\": " + fixed(port.peakDB, 3) + ", \"rms\": " + fixed(port.rmsDB, 3)
            out += ", \"level\": " + fixed(port.level, 4) + ", \"bands\": " + list(port.bands)
            if !port.bands4.isEmpty { out += ", \"bands4\": " + list(port.bands4) }
            if !port.bands7.isEmpty { out += ", \"bands7\": " + list(port.bands7) }
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
            let m = port.meters
            if let v = m.truePeakDB { out += ", \"truepeak\": " + fixed(v, 3) }
            if let v = m.vu { out += ", \"vu\": " + fixed(v, 3) }
            if let v = m.ppm { out += ", \"ppm\": " + fixed(v, 3) }
            if let v = m.k { out += ", \"k\": " + fixed(v, 3) }
            if let v = m.holdDB { out += ", \"hold\": " + fixed(v, 3) }
            if let v = m.clips { out += ", \"clip\": \(v)" }
            out += "}"
        }
        out += programmes(snapshot.programmes)
        for pair in snapshot.pairs {
            out += ", " + key(pair.name) + ": {\"correlation\": " + fixed(pair.correlation, 4) + "}"
        }
        return out + "}"
    }

    static func event(_ event: AnalysisEvent) -> String {
        var isAlarm = false
        if case .alarm = event.kind { isAlarm = true }
        var out = "{\"t\": " + fixed(event.time, 4) + (isAlarm ? ", \"programme\": " : ", \"port\": ") + key(event.port)
        switch event.kind {
        case .alarm(let kind, let on):
            out += ", \"event\": \"alarm\", \"kind\": " + quoted(kind.rawValue) + ", \"on\": " + (on ? "true" : "false")
        case .onset(let strength):
            out += ", \"event\": \"onset\", \"strength\": " + fixed(strength, 3)
        case .beat(let count, let bpm, let position):
            out += ", \"event\": \"beat\", \"count\": \(count), \"bpm\": " + fixed(bpm, 2) + ", \"bar\": \(position.bar)"
            out += ", \"beat_in_bar\": \(position.beat), \"beats_per_bar\": \(position.beatsPerBar)"
        }
        return out + ", \"reported\": " + fixed(event.reported, 4) + "}"
    }

    static func status(state: String, xruns: Int, overruns: Int) -> String {
        "{\"status\": {\"state\": " + quoted(state) + ", \"xruns\": \(xruns), \"overruns\": \(overruns)}}"
    }

    static func file(_ path: String) -> String {
        "{\"file\": " + quoted(path) + "}"
    }

    static func summary(_ summary: RunSummary) -> String {
        var out = "{\"summary\": {\"duration\": " + fixed(Double(summary.frames) / summary.sampleRate, 4)
        out += ", \"frames\": \(summary.frames), \"sample_rate\": " + fixed(summary.sampleRate, 0)
        out += ", \"overruns\": \(summary.overruns)"
        for (i, name) in summary.names.enumerated() {
            out += ", " + key(name) + ": {\"peak\": " + fixed(summary.peakDB[i], 3) + ", \"rms\": " + fixed(summary.rmsDB[i], 3)
            if i < summary.truePeakDB.count, let v = summary.truePeakDB[i] { out += ", \"truepeak\": " + fixed(v, 3) }
            if i < summary.clips.count, let v = summary.clips[i] { out += ", \"clip\": \(v)" }
            out += "}"
        }
        return out + programmes(summary.programmes) + "}}"
    }

    static func programmes(_ programmes: [ProgrammeReading]) -> String {
        var out = ""
        for p in programmes {
            out += ", " + key(p.name) + ": {\"loudness\": {\"momentary\": " + fixed(p.momentary, 3)
            out += ", \"shortterm\": " + fixed(p.shortTerm, 3) + ", \"integrated\": " + fixed(p.integrated, 3)
            out += ", \"range\": " + fixed(p.range, 3) + ", \"max_momentary\": " + fixed(p.maxMomentary, 3)
            out += ", \"max_shortterm\": " + fixed(p.maxShortTerm, 3) + (p.paused ? ", \"paused\": 1" : "") + "}}"
        }
        return out
    }

    static func list(_ values: [Float]) -> String {
        "[" + values.map { fixed($0, 4) }.joined(separator: ", ") + "]"
    }

    /// JSON has no NaN or infinity: those were null.
    static func fixed<F: BinaryFloatingPoint>(_ value: F, _ decimals: Int) -> String {
        let v = Double(value)
        return v.isFinite ? String(format: "%.\(decimals)f", v) : "null"
    }

    static func key(_ name: String) -> String { quoted(OSCAddress.sanitizedPart(name)) }

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
