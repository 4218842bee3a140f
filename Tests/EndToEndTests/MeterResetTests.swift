import Foundation
import ToolSupport
import XCTest

/// SIGUSR1 resets the integrated loudness, range, maxima, holds and clip counts of a live run.
final class MeterResetTests: XCTestCase {
    func testSIGUSR1ResetsIntegratedLoudnessAndMaxima() throws {
        let server = try PrivateJackServer()
        defer { server.stop() }
        let outPath = Tool.temporaryPath("reset.jsonl")
        defer { unlink(outPath) }
        let tap = try Tool.start(Tool.jacktap, ["--inputs", "1", "--json", "-n", "rt"], environment: server.environment,
                                 stdoutPath: outPath)
        try waitForPort("rt:in_1", server: server)
        // 2 s of a -20 dBFS tone, then silence.
        let tone = try Tool.capture(Tool.jacktap, ["generate", "--tone", "997", "--level", "-20", "--name", "rtgen",
                                                   "--connect", "rt:in_1", "--duration", "2"], environment: server.environment)
        XCTAssertEqual(tone.status, 0, tone.stderr)
        usleep(700_000)
        let before = try lastLoudness(outPath)
        // A mono -20 dBFS 997 Hz tone reads -23.0 LUFS once a 400 ms window is full of it; the integrated value
        // of a 2 s tone is lower (the blocks at its edges hold silence too), but it is there.
        XCTAssertEqual(before["max_momentary"]!, -23.0, accuracy: 0.05)
        XCTAssertGreaterThan(before["integrated"]!, -30)
        tap.signal(SIGUSR1)
        usleep(500_000)
        let after = try lastLoudness(outPath)
        XCTAssertEqual(after["integrated"], -200, "no gated block since the reset")
        XCTAssertEqual(after["max_momentary"], -200)
        XCTAssertTrue(tap.isRunning, "SIGUSR1 does not stop jacktap")
        tap.signal(SIGTERM)
        XCTAssertEqual(tap.wait(), 0)
    }

    func lastLoudness(_ path: String) throws -> [String: Double] {
        let lines = jsonLines(try String(contentsOfFile: path, encoding: .utf8))
        return ((lines.last?["main"] as? [String: Any])?["loudness"] as? [String: Double]) ?? [:]
    }
}
