import Foundation
import ToolSupport
import XCTest

/// jacktap tapping a private JACK server, its OSC decoded by oscdump and python-osc.
final class LiveOSCTests: XCTestCase {
    var server: PrivateJackServer!

    override func setUpWithError() throws {
        server = try privateServer(rate: 48_000, period: 256)
    }

    func testToneAtMinus6dBFSReadsItsPeakRMSNoteAndBandInBothDecoders() throws {
        try playTone(on: server)
        let oscdump = try Receiver(.oscdump)
        let python = try Receiver(.pythonOSC)
        let run = try Tool.capture(Tool.jacktap, [
            "e2e-tone:out_1", "--osc", "127.0.0.1:\(oscdump.port)", "--osc", "127.0.0.1:\(python.port)",
            "--duration", "3",
        ], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "", "stdout is not a terminal and --json was not asked: nothing goes there")

        for (name, messages) in [("oscdump", try oscdump.messages()), ("python-osc", try python.messages())] {
            // The RMS window (300 ms) and the FFT window fill in the first half second.
            func steady(_ path: String) -> [ReceivedMessage] {
                Array(messages.filter { $0.address == "/jacktap/in_1/\(path)" }.dropFirst(20))
            }
            let peaks = steady("peak").map { $0.floats[0] }
            let rms = steady("rms").map { $0.floats[0] }
            XCTAssertEqual(messages.filter { $0.address == "/jacktap/in_1/peak" }.count, 90,
                           "\(name): 3 s of audio at 30 ticks per second")
            XCTAssertTrue(peaks.allSatisfy { abs($0 - -6.02) <= 0.05 }, "\(name) peaks \(peaks)")
            XCTAssertTrue(rms.allSatisfy { abs($0 - -9.03) <= 0.1 }, "\(name) rms \(rms)")
            let notes = steady("note")
            XCTAssertFalse(notes.isEmpty)
            XCTAssertTrue(notes.allSatisfy { "\($0.args[0])" == "A4" && $0.floats.count >= 2 }, "\(name) notes")
            XCTAssertTrue(notes.allSatisfy { Int("\($0.args[1])") == 69 }, "\(name) MIDI")
            let pitch = steady("pitch").map { $0.floats[0] }
            XCTAssertTrue(pitch.allSatisfy { abs($0 - 440) <= 1 }, "\(name) pitch \(pitch)")
            let edges = bandEdges()
            for bands in steady("bands").map(\.floats) {
                XCTAssertEqual(bands.count, 48)
                let loudest = bands.indices.max { bands[$0] < bands[$1] }!
                XCTAssertTrue(edges[loudest] <= 440 && 440 < edges[loudest + 1], "\(name): loudest band \(loudest)")
            }
        }
    }

    func testPlainMessagesModeSendsNoBundles() throws {
        try playTone(on: server)
        let python = try Receiver(.pythonOSC)
        let run = try Tool.capture(Tool.jacktap, [
            "e2e-tone:out_1", "--osc", "127.0.0.1:\(python.port)", "--no-bundles", "--duration", "1.5", "--quiet",
        ], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let messages = try python.messages()
        XCTAssertEqual(messages.filter { $0.address == "/jacktap/in_1/peak" }.count, 45, "1.5 s of audio, 30 ticks a second")
        XCTAssertTrue(messages.allSatisfy { $0.bundle == false }, "every message in a datagram of its own")
    }

    func testAFileAndALiveRunOfTheSameAudioGiveTheSameFigures() throws {
        let path = Tool.temporaryPath("same-audio.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "24", path, "synth", "20", "sine", "523.25", "gain", "-12"])
        let file = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json"]))
        // The same file played into the server from its first frame once jacktap has connected to it, so the
        // live run analyses the file's first 2 s however long jacktap took to start.
        let player = try playOnConnect(path, server: server)
        let live = try Tool.capture(Tool.jacktap, [player, "--json", "--duration", "2"], environment: server.environment)
        XCTAssertEqual(live.status, 0, live.stderr)
        let liveLines = jsonLines(live.stdout).dropFirst(20)
        let fileLines = file.filter { $0["in_1"] != nil }.dropFirst(20)
        func figure(_ lines: ArraySlice<[String: Any]>, _ key: String) -> Double {
            median(lines.compactMap { (($0["in_1"] as? [String: Any])?[key] as? NSNumber)?.doubleValue })
        }
        func pitch(_ lines: ArraySlice<[String: Any]>) -> Double {
            median(lines.compactMap { (($0["in_1"] as? [String: Any])?["pitch"] as? [String: Any])?["hz"] as? Double })
        }
        XCTAssertGreaterThan(liveLines.count, 20)
        XCTAssertEqual(figure(liveLines, "peak"), figure(fileLines, "peak"), accuracy: 0.01)
        XCTAssertEqual(figure(liveLines, "rms"), figure(fileLines, "rms"), accuracy: 0.01)
        XCTAssertEqual(pitch(liveLines), pitch(fileLines), accuracy: 0.1)
    }

    func testADestinationThatIsDownNeitherStopsNorSlowsJacktap() throws {
        try playTone(on: server)
        let closed = Tool.freeUDPPort()
        let run = try Tool.capture(Tool.jacktap, [
            "e2e-tone:out_1", "--osc", "127.0.0.1:\(closed)", "--json", "--duration", "2",
        ], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(tickLines(jsonLines(run.stdout)).count, 60, "all 30 ticks per second of audio came out")
    }

    func testAGlobConnectsEveryMatchingSourceToItsOwnInput() throws {
        try playTone(on: server)
        let run = try Tool.capture(Tool.jacktap, ["--connect", "e2e-*:out_?", "--connect", "system:capture_*",
                                                  "--json", "--duration", "1"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("e2e-tone:out_1 → jacktap:in_1"), run.stderr)
        XCTAssertTrue(run.stderr.contains("system:capture_2 → jacktap:in_3"), run.stderr)
        let last = try XCTUnwrap(tickLines(jsonLines(run.stdout)).last)
        XCTAssertEqual(((last["in_1"] as! [String: Any])["note"] as! [Any])[0] as? String, "A4")
        XCTAssertNotNil(last["in_3"])
    }

    func testPortsListsSourcesAndConnections() throws {
        try playTone(on: server)
        _ = try background(Tool.jacktap, ["e2e-tone:out_1", "--quiet"], server: server)
        try waitForConnection("e2e-tone:out_1", "jacktap:in_1", server: server)
        let listing = try Tool.run(Tool.jacktap, ["ports"], environment: server.environment)
        let lines = listing.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasPrefix("system:capture_1") && $0.contains("out") && $0.contains("audio") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("e2e-tone:out_1") && $0.contains("→ jacktap:in_1") }, listing)
        XCTAssertTrue(lines.contains { $0.hasPrefix("jacktap:in_1") && $0.contains("← e2e-tone:out_1") }, listing)
    }
}
