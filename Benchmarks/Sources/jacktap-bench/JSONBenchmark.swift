import Analysis
import DSP
import Foundation
import JSONOut
import OSC

/// A tick of `ports` ports with every field `--json` writes by default (bands, pitch, note, tempo, phase),
/// values spread like real ones.
func benchmarkSnapshot(ports: Int) -> Snapshot {
    var generator = SystemRandomNumberGenerator()
    let readings = (0..<ports).map { p in
        PortReading(
            name: "in_\(p + 1)", peakDB: Float.random(in: -60...0, using: &generator),
            rmsDB: Float.random(in: -70 ... -3, using: &generator), level: Float.random(in: 0...1, using: &generator),
            bands: (0..<48).map { _ in Float.random(in: 0...1, using: &generator) },
            pitch: PitchReading(frequency: Double.random(in: 40...4000, using: &generator), confidence: 0.93,
                                voiced: true, time: 12.3456),
            note: MusicalNote(frequency: Double.random(in: 40...4000, using: &generator)),
            tempo: Float.random(in: 60...180, using: &generator), phase: Float.random(in: 0...1, using: &generator),
            bands4: (0..<4).map { _ in Float.random(in: 0...1, using: &generator) },
            bands7: (0..<7).map { _ in Float.random(in: 0...1, using: &generator) })
    }
    return Snapshot(time: 12.3456, ports: readings, overruns: 0)
}

/// The same line as `JSONLines.line(for:)` made the way jacktap made it before (Foundation's
/// `String(format:)` for every number): the peer the JSON benchmark measures beside it.
func foundationLine(_ snapshot: Snapshot) -> String {
    func fixed<F: BinaryFloatingPoint>(_ value: F, _ decimals: Int) -> String {
        let v = Double(value)
        return v.isFinite ? String(format: "%.\(decimals)f", v) : "null"
    }
    var out = "{\"t\": " + fixed(snapshot.time, 4)
    for port in snapshot.ports {
        out += ", \"" + OSCAddress.sanitizedPart(port.name) + "\": {"
        out += "\"peak\": " + fixed(port.peakDB, 3) + ", \"rms\": " + fixed(port.rmsDB, 3)
        out += ", \"level\": " + fixed(port.level, 4) + ", \"bands\": ["
        out += port.bands.map { fixed($0, 4) }.joined(separator: ", ") + "]"
        out += ", \"bands4\": [" + port.bands4.map { fixed($0, 4) }.joined(separator: ", ") + "]"
        out += ", \"bands7\": [" + port.bands7.map { fixed($0, 4) }.joined(separator: ", ") + "]"
        if let pitch = port.pitch {
            out += ", \"pitch\": {\"t\": " + fixed(pitch.time, 4) + ", \"hz\": " + fixed(pitch.frequency, 2)
            out += ", \"confidence\": " + fixed(pitch.confidence, 3) + ", \"voiced\": \(pitch.voiced)}"
        }
        if let note = port.note {
            out += ", \"note\": [\"" + note.name + "\", \(note.midi), " + fixed(note.cents, 1) + "]"
        }
        out += ", \"tempo\": " + (port.tempo.map { fixed($0, 2) } ?? "null")
        out += ", \"phase\": " + (port.phase.map { fixed($0, 3) } ?? "null") + "}"
    }
    return out + "}"
}

/// CPU share of one core that writing `ports` ports' JSON lines takes at `ticksPerSecond`: jacktap's writer
/// and the Foundation peer, on the same snapshots (the two lines are checked to be equal first).
func jsonBenchmark(ports: Int, ticksPerSecond: Double) -> (jacktap: Double, foundation: Double) {
    let snapshots = (0..<8).map { _ in benchmarkSnapshot(ports: ports) }
    for s in snapshots { precondition(JSONLines.line(for: s) == foundationLine(s), "the peer writes the same line") }
    var bytes = 0
    let ours = measure(runs: 9, repeats: 8) { for s in snapshots { bytes &+= JSONLines.line(for: s).utf8.count } }
    let theirs = measure(runs: 9, repeats: 2) { for s in snapshots { bytes &+= foundationLine(s).utf8.count } }
    precondition(bytes > 0)
    let perLine = 1e-9 / Double(snapshots.count)
    return (ours * perLine * ticksPerSecond, theirs * perLine * ticksPerSecond)
}
