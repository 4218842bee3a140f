import Analysis
import DSP
import Foundation
import JSONOut
import XCTest

final class JSONLinesTests: XCTestCase {
    func testATickIsOneJSONObjectKeyedLikeTheOSCPaths() throws {
        let port = PortReading(name: "in_1", peakDB: -6.0206, rmsDB: -200, level: 0, bands: [0.25, 1],
                               pitch: nil, note: MusicalNote(frequency: 261.6256))
        let line = JSONLines.line(for: Snapshot(time: 1.5, ports: [port], overruns: 0))
        XCTAssertFalse(line.contains("\n"))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        XCTAssertEqual(object["t"] as? Double, 1.5)
        let in1 = object["in_1"] as! [String: Any]
        XCTAssertEqual(in1["peak"] as? Double, -6.021)
        XCTAssertEqual(in1["rms"] as? Double, -200)
        XCTAssertEqual(in1["bands"] as? [Double], [0.25, 1])
        XCTAssertTrue(in1["pitch"] is NSNull, "no pitch is null, not a made-up number")
        let note = in1["note"] as! [Any]
        XCTAssertEqual(note[0] as? String, "C4")
        XCTAssertEqual(note[1] as? Int, 60)
    }

    func testTheSummaryLineGivesWholeRunFigures() throws {
        let summary = RunSummary(peakDB: [-1], rmsDB: [-20.5], names: ["in_1"], frames: 96_000, sampleRate: 48_000,
                                 overruns: 0)
        let object = try JSONSerialization.jsonObject(with: Data(JSONLines.line(for: summary).utf8)) as! [String: Any]
        let s = object["summary"] as! [String: Any]
        XCTAssertEqual(s["duration"] as? Double, 2)
        XCTAssertEqual((s["in_1"] as! [String: Double])["rms"], -20.5)
    }

    func testMetersAndLoudnessUseTheOSCNames() throws {
        var port = PortReading(name: "in_1", peakDB: -1, rmsDB: -3, level: 1, bands: [], pitch: nil, note: nil)
        port.meters.truePeakDB = -0.5
        port.meters.clips = 2
        let programme = ProgrammeReading(name: "main", momentary: -23, shortTerm: -22, integrated: -21, range: 5,
                                         maxMomentary: -20, maxShortTerm: -19)
        let line = JSONLines.line(for: Snapshot(time: 0, ports: [port], overruns: 0, programmes: [programme],
                                                pairs: [PairReading(name: "in_1-in_2", correlation: -0.25)]))
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        let in1 = object["in_1"] as! [String: Any]
        XCTAssertEqual(in1["truepeak"] as? Double, -0.5)
        XCTAssertEqual(in1["clip"] as? Int, 2)
        XCTAssertNil(in1["vu"], "a meter left out has no key")
        let loudness = (object["main"] as! [String: Any])["loudness"] as! [String: Double]
        XCTAssertEqual(loudness, ["momentary": -23, "shortterm": -22, "integrated": -21, "range": 5,
                                  "max_momentary": -20, "max_shortterm": -19])
        XCTAssertEqual((object["in_1-in_2"] as! [String: Double])["correlation"], -0.25)
    }
}
