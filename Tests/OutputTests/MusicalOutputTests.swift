import Analysis
import DSP
import Foundation
import JSONOut
import OSC
import OSCOut
import XCTest

/// Pitch, tempo, phase, band groups and events, as the OSC messages and JSON lines of issue 4 describe them.
final class MusicalOutputTests: XCTestCase {
    func port(pitch: PitchReading?, tempo: Float? = nil, phase: Float? = nil) -> PortReading {
        PortReading(name: "in_1", peakDB: -6, rmsDB: -9, level: 0.85, bands: [0.5], pitch: pitch,
                    note: pitch?.voiced == true ? MusicalNote(frequency: pitch!.frequency) : nil,
                    tempo: tempo, phase: phase, bands4: [0.1, 0.2, 0.3, 0.4], bands7: [0, 0, 0, 1, 0, 0, 0])
    }

    func testAnUnvoicedPitchSendsNoPitchAndNoNoteButJSONKeepsItsCandidate() throws {
        let unvoiced = PitchReading(frequency: 212.5, confidence: 0.41, voiced: false, time: 0.975)
        let messages = OSCPublisher().messages(for: Snapshot(time: 1, ports: [port(pitch: unvoiced)], overruns: 0))
        XCTAssertFalse(messages.contains { $0.address.hasSuffix("/pitch") || $0.address.hasSuffix("/note") })
        let line = JSONLines.line(for: Snapshot(time: 1, ports: [port(pitch: unvoiced)], overruns: 0))
        let pitch = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["in_1"]
            as? [String: Any])["pitch"] as! [String: Any]
        XCTAssertEqual(pitch["t"] as? Double, 0.975, "the pitch says which instant it describes")
        XCTAssertEqual(pitch["hz"] as? Double, 212.5)
        XCTAssertEqual(pitch["voiced"] as? Bool, false)
    }

    func testTempoPhaseAndBandGroupsAreSentOncePresent() {
        let voiced = PitchReading(frequency: 440, confidence: 0.99, voiced: true, time: 0.975)
        let messages = OSCPublisher().messages(for: Snapshot(time: 1, ports: [port(pitch: voiced, tempo: 120, phase: 0.25)],
                                                             overruns: 0))
        func args(_ leaf: String) -> [OSCArgument]? { messages.first { $0.address == "/jacktap/in_1/" + leaf }?.arguments }
        XCTAssertEqual(args("tempo"), [.float32(120)])
        XCTAssertEqual(args("phase"), [.float32(0.25)])
        XCTAssertEqual(args("pitch"), [.float32(440), .float32(0.99)])
        XCTAssertEqual(args("bands4"), [.float32(0.1), .float32(0.2), .float32(0.3), .float32(0.4)])
        XCTAssertEqual(args("bass"), [.float32(0.1)])
        XCTAssertEqual(args("high"), [.float32(0.4)])
        XCTAssertEqual(args("bands7")?.count, 7)
        let unlocked = OSCPublisher().messages(for: Snapshot(time: 1, ports: [port(pitch: nil)], overruns: 0))
        XCTAssertFalse(unlocked.contains { $0.address.hasSuffix("/tempo") || $0.address.hasSuffix("/phase") })
    }

    func testBeatAndOnsetEventsHaveTheirOwnMessagesAndJSONLines() throws {
        let beat = AnalysisEvent(port: "in 1", kind: .beat(count: 17, bpm: 120, bar: .init(bar: 5, beat: 2, beatsPerBar: 4)),
                                 time: 12.345, reported: 12.325)
        // `/beat i f` first, unchanged for consoles bound to it; then the bar counter and the beat in the bar.
        XCTAssertEqual(OSCPublisher().messages(for: beat), [OSCMessage("/jacktap/in_1/beat", [.int32(17), .float32(120)]),
                                                            OSCMessage("/jacktap/in_1/bar", [.int32(5), .int32(2)])])
        let object = try JSONSerialization.jsonObject(with: Data(JSONLines.line(for: beat).utf8)) as! [String: Any]
        XCTAssertEqual(object["bar"] as? Int, 5)
        XCTAssertEqual(object["beat_in_bar"] as? Int, 2)
        XCTAssertEqual(object["beats_per_bar"] as? Int, 4)
        XCTAssertEqual(object["t"] as? Double, 12.345)
        XCTAssertEqual(object["port"] as? String, "in_1")
        XCTAssertEqual(object["event"] as? String, "beat")
        XCTAssertEqual(object["count"] as? Int, 17)
        XCTAssertEqual(object["bpm"] as? Double, 120)
        XCTAssertEqual(object["reported"] as? Double, 12.325)

        let onset = AnalysisEvent(port: "in_2", kind: .onset(strength: 0.75), time: 3.21, reported: 3.221)
        XCTAssertEqual(OSCPublisher(prefix: "/rig").messages(for: onset), [OSCMessage("/rig/in_2/onset", [.float32(0.75)])])
        let o = try JSONSerialization.jsonObject(with: Data(JSONLines.line(for: onset).utf8)) as! [String: Any]
        XCTAssertEqual(o["event"] as? String, "onset")
        XCTAssertEqual(o["strength"] as? Double, 0.75)
    }

    func testADownbeatAlsoSendsDownbeatWithTheBarCounter() {
        let one = AnalysisEvent(port: "in_1", kind: .beat(count: 9, bpm: 96, bar: .init(bar: 3, beat: 1, beatsPerBar: 3)),
                                time: 5, reported: 4.98)
        XCTAssertEqual(OSCPublisher().messages(for: one).map(\.address),
                       ["/jacktap/in_1/beat", "/jacktap/in_1/bar", "/jacktap/in_1/downbeat"])
        XCTAssertEqual(OSCPublisher().messages(for: one).last?.arguments, [.int32(3)])
    }
}
