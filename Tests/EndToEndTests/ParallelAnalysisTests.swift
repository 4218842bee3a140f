import Foundation
import ToolSupport
import XCTest

/// `--threads` and per-port `--music`: the ports spread over threads give the same output byte for byte as on
/// one; a port's trackers run only where `--music` asks, and a port's figures do not depend on what the others
/// run.
final class ParallelAnalysisTests: XCTestCase {
    /// Six ports: a drum loop (onsets, beats), a tone (pitch, note), pink noise, a sweep, the loop again
    /// quieter, and silence; 12 s at 48 kHz.
    func sixPortFile() throws -> String {
        let rate = 48_000.0, seconds = 12.0
        let loop = DrumLoop(bpm: 120, sampleRate: rate, seconds: seconds).render()
        let head = Tool.temporaryPath("parallel-loop.wav"), tones = Tool.temporaryPath("parallel-tones.wav")
        let tail = Tool.temporaryPath("parallel-tail.wav"), path = Tool.temporaryPath("parallel-six.wav")
        defer { unlink(head); unlink(tones); unlink(tail) }
        try WAVWriter.write(head, sampleRate: Int(rate), channels: [loop])
        try WAVWriter.write(tail, sampleRate: Int(rate), channels: [loop.map { $0 * 0.25 }, [Float](repeating: 0, count: loop.count)])
        try Tool.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "3", tones,
                             "synth", String(seconds), "sine", "440", "pinknoise", "sine", "100/10000", "gain", "-12"])
        try Tool.run("sox", ["-M", head, tones, tail, "-b", "24", path])
        return path
    }

    func testEveryThreadCountGivesTheSameOutputByteForByte() throws {
        let path = try sixPortFile()
        defer { unlink(path) }
        let common = ["analyze", path, "--json", "--meters", "all", "--program", "a=in_1:L,in_2:R",
                      "--program", "b=in_3:C", "--pair", "in_1,in_5", "--pair", "in_2,in_4"]
        let single = try Tool.run(Tool.jacktap, common + ["--threads", "1"])
        let lines = jsonLines(single)
        XCTAssertGreaterThan(lines.filter { $0["event"] as? String == "beat" }.count, 10, "the loop has beats")
        XCTAssertTrue(single.contains("\"A4\""), "the tone has its note")
        for threads in ["2", "3", "6", "16"] {
            let parallel = try Tool.run(Tool.jacktap, common + ["--threads", threads])
            XCTAssertTrue(parallel == single, "--threads \(threads) differs from --threads 1")
        }
    }

    func testMusicPerPortRunsTheTrackersOnlyOnTheNamedPorts() throws {
        let path = try sixPortFile()
        defer { unlink(path) }
        let all = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json"]))
        let chosen = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json",
                                                           "--music", "in_1=rhythm,in_2..in_6=none,in_2=pitch"]))
        func events(_ lines: [[String: Any]], _ port: String) -> [String] {
            lines.filter { $0["port"] as? String == port }.map { "\($0["event"]!) \($0["t"]!)" }
        }
        func notes(_ lines: [[String: Any]], _ port: String) -> [String] {
            lines.compactMap { (($0[port] as? [String: Any])?["note"] as? [Any])?.first as? String }
        }
        XCTAssertFalse(events(chosen, "in_1").isEmpty)
        XCTAssertEqual(events(chosen, "in_1"), events(all, "in_1"), "in_1's onsets and beats as with everything on")
        XCTAssertEqual(events(chosen, "in_5"), [], "in_2..in_6=none: no onsets or beats on in_5")
        XCTAssertFalse(events(all, "in_5").isEmpty, "with everything on, in_5 has its onsets and beats")
        XCTAssertEqual(notes(chosen, "in_1"), [], "in_1=rhythm: no pitch")
        XCTAssertEqual(notes(chosen, "in_2").last, "A4", "the later rule in_2=pitch wins over in_2..in_6=none")
        XCTAssertEqual(events(chosen, "in_2"), [])
        let ticks = { (lines: [[String: Any]]) in lines.filter { $0["in_1"] != nil } }
        XCTAssertEqual(ticks(all).count, ticks(chosen).count)
        for (a, b) in zip(ticks(all), ticks(chosen)) {
            let levels = ["peak", "rms", "bands"]
            for port in ["in_1", "in_3"] {
                let x = a[port] as! [String: Any], y = b[port] as! [String: Any]
                for key in levels { XCTAssertEqual("\(x[key]!)", "\(y[key]!)", "\(port) \(key) at \(a["t"]!)") }
            }
        }
    }

    func testMusicRulesFromAConfigFileMappingAsOnTheCommandLine() throws {
        let path = try sixPortFile()
        let config = Tool.temporaryPath("parallel-music.yaml")
        defer { unlink(path); unlink(config) }
        try "music:\n  in_1: rhythm\n  \"in_2..in_6\": none\n".write(toFile: config, atomically: true, encoding: .utf8)
        let fromFile = try Tool.run(Tool.jacktap, ["analyze", path, "--json", "--config", config])
        let fromLine = try Tool.run(Tool.jacktap, ["analyze", path, "--json", "--music", "in_1=rhythm,in_2..in_6=none"])
        XCTAssertTrue(fromFile == fromLine)
        XCTAssertTrue(fromFile.contains("\"beat\""))
    }

    func testBadMusicRulesAndThreadCountsAreUsageErrors() throws {
        let path = try sixPortFile()
        defer { unlink(path) }
        for bad in [["--music", "in_1=tempo"], ["--music", "in_4..in_2=all"], ["--music", "=all"],
                    ["--music", "in_1=all,,none"], ["--threads", "0"], ["--threads", "x"]] {
            let result = try Tool.capture(Tool.jacktap, ["analyze", path] + bad)
            XCTAssertEqual(result.status, 64, "\(bad): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(bad[0]), "\(bad): the message names the option: \(result.stderr)")
        }
    }

    func testSeveralFilesAreAnalysedSideBySideAndPrintedInTheOrderGivenEachAsOnItsOwn() throws {
        let six = try sixPortFile()
        let tone = Tool.temporaryPath("parallel-tone.flac"), missing = Tool.temporaryPath("parallel-missing.wav")
        defer { unlink(six); unlink(tone) }
        try Tool.run("sox", ["-R", "-n", "-r", "44100", "-b", "16", tone, "synth", "3", "sine", "440", "gain", "-6"])
        let alone = try [tone, six].map { try Tool.run(Tool.jacktap, ["analyze", $0, "--json"]) }
        for threads in ["1", "2", "4"] {
            let result = try Tool.capture(Tool.jacktap, ["analyze", tone, missing, six, "--json", "--threads", threads])
            XCTAssertEqual(result.status, 66, "an unreadable file among several: exit 66 after the others")
            XCTAssertTrue(result.stderr.contains(missing), result.stderr)
            let expected = "{\"file\": \"\(tone)\"}\n" + alone[0] + "{\"file\": \"\(missing)\"}\n"
                + "{\"file\": \"\(six)\"}\n" + alone[1]
            XCTAssertTrue(result.stdout == expected, "--threads \(threads): each file's lines as on its own, in order")
        }
        let text = try Tool.run(Tool.jacktap, ["analyze", six, tone])
        XCTAssertLessThan(text.range(of: six)!.lowerBound, text.range(of: tone)!.lowerBound)
    }
}
