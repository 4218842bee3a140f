import Analysis
import DSP
import Foundation
import JSONOut
import XCTest

/// Every kind of line `--json` prints is byte for byte what jacktap printed when it formatted each value with
/// Foundation's `String(format: "%.Nf")` (FoundationFormattedLines, written apart from the writer): replacing that
/// formatting by JSONText's integer arithmetic, which took the writer from a quarter of a core to under 1 % for 64
/// ports, changed nothing a reader of the lines can see.
final class JSONLinesByteForByteTests: XCTestCase {
    /// Lines of each kind per test; the readings are seeded (one seed per kind), so a failure repeats.
    let rounds = 4_000

    func testTickLinesWithEveryPortFieldMatchTheFoundationFormattedLines() {
        var readings = RandomReadings(seed: 12)
        var seen = ""
        compare("tick", rounds) { JSONLines.line(for: $0) } reference: { FoundationFormattedLines.tick($0) } make: {
            let snapshot = readings.snapshot()
            seen += FoundationFormattedLines.tick(snapshot)
            return snapshot
        }
        // The readings reach every field and every awkward case the lines have.
        for part in ["\"voiced\": true", "\"voiced\": false", "\"pitch\": null", "\"note\": [", "\"note\": null",
                     "\"tempo\": null", "\"phase\": null", "\"tempo\": 1", "\"bands\": []", "\"bands4\": [",
                     "\"bands7\": [", "\"truepeak\": null", "\"vu\": ", "\"ppm\": ", "\"k\": ", "\"hold\": ",
                     "\"clip\": -", "\"loudness\": {", "\"correlation\": ", "-0.000", "-0.0000,", "0.0001", "null]",
                     "\\\"", "\\\\", "_\": {\"peak\""] {
            XCTAssertTrue(seen.contains(part), "no tick line with \(part)")
        }
    }

    func testTickLinesOfEdgeValuesMatchTheFoundationFormattedLines() {
        // Each awkward value in every numeric field of one port, with every optional field present.
        var lines = 0
        for special in RandomReadings.specials + RandomReadings.nonFinite {
            let f = Float(special), d = special
            var meters = MeterReading()
            meters.truePeakDB = f
            meters.vu = f
            meters.ppm = f
            meters.k = f
            meters.holdDB = f
            meters.clips = Int(exactly: d.rounded(.towardZero)) ?? 0
            for voiced in [true, false] {
                let port = PortReading(
                    name: "in_1", peakDB: f, rmsDB: f, level: f, bands: [f, f.nextUp, f.nextDown],
                    pitch: PitchReading(frequency: d, confidence: f, voiced: voiced, time: d),
                    note: MusicalNote(frequency: 440), meters: meters, tempo: f, phase: f, bands4: [f, 0, 1, f],
                    bands7: [f, f, f, f, f, f, f])
                let snapshot = Snapshot(
                    time: d, ports: [port, PortReading(name: "in 2", peakDB: -.infinity, rmsDB: -.infinity, level: 0,
                                                       bands: [], pitch: nil, note: nil)],
                    overruns: 0,
                    programmes: [ProgrammeReading(name: "main", momentary: f, shortTerm: f, integrated: -.infinity,
                                                  range: f, maxMomentary: f, maxShortTerm: f)],
                    pairs: [PairReading(name: "in_1-in_2", correlation: f)])
                assertSame(JSONLines.line(for: snapshot), FoundationFormattedLines.tick(snapshot), "tick of \(special)")
                lines += 1
            }
        }
        XCTAssertEqual(lines, 2 * (RandomReadings.specials.count + RandomReadings.nonFinite.count))
    }

    func testOnsetBeatAndAlarmLinesMatchTheFoundationFormattedLines() {
        var readings = RandomReadings(seed: 13)
        var kinds: Set<String> = []
        compare("event", rounds) { JSONLines.line(for: $0) } reference: { FoundationFormattedLines.event($0) } make: {
            let event = readings.event()
            switch event.kind {
            case .beat: kinds.insert("beat")
            case .onset: kinds.insert("onset")
            case .alarm: kinds.insert("alarm")
            }
            return event
        }
        XCTAssertEqual(kinds, ["beat", "onset", "alarm"])
    }

    func testStatusLinesMatchTheFoundationFormattedLines() {
        var readings = RandomReadings(seed: 14)
        compare("status", rounds) {
            JSONLines.statusLine(state: $0.0, xruns: $0.1, overruns: $0.2)
        } reference: {
            FoundationFormattedLines.status(state: $0.0, xruns: $0.1, overruns: $0.2)
        } make: {
            (["running", "stopped", "restarting", readings.text()].randomElement(using: &readings.generator)!,
             readings.integer(), readings.integer())
        }
    }

    func testFileLinesMatchTheFoundationFormattedLines() {
        var readings = RandomReadings(seed: 15)
        var seen = ""
        compare("file", rounds) { JSONLines.line(forFile: $0) } reference: { FoundationFormattedLines.file($0) } make: {
            let path = "day1/" + readings.text() + ".wav"
            seen += FoundationFormattedLines.file(path)
            return path
        }
        // A path is written as given: control characters escaped, non-ASCII as it is.
        for part in ["\\u000a", "\\u001f", "\\\"", "\\\\", "é", "🎵"] {
            XCTAssertTrue(seen.contains(part), "no file line with \(part)")
        }
    }

    func testSummaryLinesMatchTheFoundationFormattedLines() {
        var readings = RandomReadings(seed: 16)
        compare("summary", rounds) { JSONLines.line(for: $0) } reference: { FoundationFormattedLines.summary($0) } make: {
            readings.summary()
        }
    }

    /// The reference itself: a line it builds is what docs/analysis.md's JSON lines show, and valid JSON.
    func testTheReferenceWritesTheDocumentedLines() throws {
        let port = PortReading(name: "in_1", peakDB: -6.0206, rmsDB: -9.0309, level: 0.84949, bands: [0, 1],
                               pitch: PitchReading(frequency: 440, confidence: 0.9991, voiced: true, time: 1.20966),
                               note: MusicalNote(frequency: 440))
        let tick = FoundationFormattedLines.tick(Snapshot(time: 1.23466, ports: [port], overruns: 0))
        XCTAssertEqual(tick, "{\"t\": 1.2347, \"in_1\": {\"peak\": -6.021, \"rms\": -9.031, \"level\": 0.8495, "
            + "\"bands\": [0.0000, 1.0000], \"pitch\": {\"t\": 1.2097, \"hz\": 440.00, \"confidence\": 0.999, "
            + "\"voiced\": true}, \"note\": [\"A4\", 69, 0.0], \"tempo\": null, \"phase\": null}}")
        let onset = AnalysisEvent(port: "in_1", kind: .onset(strength: 0.812), time: 3.21, reported: 3.2252)
        XCTAssertEqual(FoundationFormattedLines.event(onset),
                       "{\"t\": 3.2100, \"port\": \"in_1\", \"event\": \"onset\", \"strength\": 0.812, \"reported\": 3.2252}")
        XCTAssertEqual(FoundationFormattedLines.status(state: "running", xruns: 0, overruns: 0),
                       "{\"status\": {\"state\": \"running\", \"xruns\": 0, \"overruns\": 0}}")
        var readings = RandomReadings(seed: 17)
        for _ in 0..<200 {
            let line = FoundationFormattedLines.tick(readings.snapshot())
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), line)
        }
    }

    func compare<Value>(_ kind: String, _ count: Int, writer: (Value) -> String, reference: (Value) -> String,
                        make: () -> Value) {
        var failures = 0
        for _ in 0..<count where failures < 5 {
            let value = make()
            if !assertSame(writer(value), reference(value), kind) { failures += 1 }
        }
    }

    /// The two lines as UTF-8 bytes; on a difference, where it starts and a stretch of each.
    @discardableResult
    func assertSame(_ ours: String, _ reference: String, _ what: String, file: StaticString = #filePath,
                    line: UInt = #line) -> Bool {
        let a = Array(ours.utf8), b = Array(reference.utf8)
        if a == b { return true }
        let at = zip(a, b).prefix { $0 == $1 }.count
        func stretch(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, at - 40)..<min(bytes.count, at + 40)], as: UTF8.self)
        }
        XCTFail("\(what): the writer's line differs from byte \(at): writer …\(stretch(a))…, Foundation …\(stretch(b))…\n"
                + "writer:     \(ours)\nFoundation: \(reference)", file: file, line: line)
        return false
    }
}
