import Foundation
import ToolSupport
import XCTest

/// SIGUSR1 resets the integrated loudness, range, maxima, holds and clip counts of a live run.
final class MeterResetTests: XCTestCase {
    func testSIGUSR1ResetsIntegratedLoudnessAndMaxima() throws {
        let server = try privateServer()
        let outPath = Tool.temporaryPath("reset.jsonl")
        defer { unlink(outPath) }
        let tap = try background(Tool.jacktap, ["--inputs", "1", "--json", "-n", "rt"], server: server, stdoutPath: outPath)
        try waitForPort("rt:in_1", server: server)
        // 2 s of a -20 dBFS tone (of audio: the generator plays exactly that many frames), then silence.
        let tone = try Tool.capture(Tool.jacktap, ["generate", "--tone", "997", "--level", "-20", "--name", "rtgen",
                                                   "--connect", "rt:in_1", "--duration", "2"], environment: server.environment)
        XCTAssertEqual(tone.status, 0, tone.stderr)
        // The tone has left every window once the 400 ms momentary loudness reads the floor (-200) after it:
        // not merely low, since the K-weighting filter's decaying tail reads about -198 LUFS for a while, and a
        // reset then would rightly hold that as the new maximum.
        let lines = try waitForJSONLine(in: outPath) { line in
            (loudness(line)["max_momentary"] ?? -200) > -100 && loudness(line)["momentary"] == -200
        }
        let before = loudness(lines.last!)
        // A mono -20 dBFS 997 Hz tone reads -23.0 LUFS once a 400 ms window is full of it; the integrated value
        // of a 2 s tone is lower (the blocks at its edges hold silence too), but it is there.
        XCTAssertEqual(before["max_momentary"]!, -23.0, accuracy: 0.05)
        XCTAssertGreaterThan(before["integrated"]!, -30)
        tap.signal(SIGUSR1)
        // Once the tone has been measured no line reads -200 for both until the reset; every line from the
        // first that does on stays reset.
        func isReset(_ line: [String: Any]) -> Bool {
            loudness(line)["integrated"] == -200 && loudness(line)["max_momentary"] == -200
        }
        _ = try waitForJSONLine(in: outPath, after: lines.count, where: isReset)
        XCTAssertTrue(tap.isRunning, "SIGUSR1 does not stop jacktap")
        tap.signal(SIGTERM)
        XCTAssertEqual(tap.wait(), 0)
        let after = tickLines(Array(jsonLines(try String(contentsOfFile: outPath, encoding: .utf8)).dropFirst(lines.count)))
            .drop { !isReset($0) }
        XCTAssertFalse(after.isEmpty)
        XCTAssertTrue(after.allSatisfy(isReset),
                      "no gated block and no maximum since the reset: only silence followed it")
    }

    func loudness(_ line: [String: Any]) -> [String: Double] {
        ((line["main"] as? [String: Any])?["loudness"] as? [String: Double]) ?? [:]
    }
}
