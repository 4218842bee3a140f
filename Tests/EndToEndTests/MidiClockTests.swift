import Foundation
import ToolSupport
import XCTest

/// `--midi-clock` through a private jackd, read by jackd2's own MIDI monitor (`jack_midi_dump -a`, frame
/// stamps from its start) while jack-play plays a recorded loop (Sonic Pi's garzul: 120 BPM, 8 s, four
/// times) and then silence: Start once, then 48 clocks a second, every 24th within 5 ms of a beat jacktap
/// announces once the tracker has settled (the two programs count frames of the same server from different
/// starts, so their timelines differ by one constant), and one Stop when the music stops, none after.
final class MidiClockTests: XCTestCase {
    func testARecordedLoopGivesStartFortyEightClocksASecondOnTheBeatsAndOneStopAtTheSilence() throws {
        let server = try privateServer(rate: 48_000, period: 256)
        let path = Tool.temporaryPath("garzul-then-silence.wav")
        defer { unlink(path) }
        _ = try Tool.run("sox", ["/usr/share/sonic-pi/samples/loop_garzul.flac", "-c", "1", "-r", "48000", path,
                                 "repeat", "3", "pad", "0", "10"])
        let dumpOut = Tool.temporaryPath("clock-dump.txt")
        defer { unlink(dumpOut) }
        _ = try background("jack_midi_dump", ["-a", "clockdump"], server: server, stdoutPath: dumpOut)
        try waitForPort("clockdump:input", server: server)

        let jsonOut = Tool.temporaryPath("clock.json")
        let errOut = Tool.temporaryPath("clock.err")
        defer { unlink(jsonOut); unlink(errOut) }
        let jacktap = try background(Tool.jacktap, ["--inputs", "1", "--midi-clock", "--duration", "48", "--json",
                                                    "--quiet"], server: server, stdoutPath: jsonOut, stderrPath: errOut)
        try waitForPort("jacktap:clock", server: server)
        _ = try Tool.runJackClient("jack_connect", ["jacktap:clock", "clockdump:input"], environment: server.environment)
        try play(path, server: server, into: "jacktap:in_1")
        let status = jacktap.wait(timeout: 4 * eventTimeout)
        XCTAssertEqual(status, 0, "jacktap ends after 48 s of audio: "
                       + ((try? String(contentsOfFile: errOut, encoding: .utf8)) ?? ""))
        // The dump prints what it received; give it the last periods' messages (waiting on its output).
        var messages = [(frame: Int, byte: String)]()
        _ = waitFor(timeout: 10) {
            messages = Self.parse((try? String(contentsOfFile: dumpOut, encoding: .utf8)) ?? "")
            return messages.last?.byte == "fc"
        }

        XCTAssertEqual(messages.filter { $0.byte == "fa" }.count, 1, "one Start")
        XCTAssertEqual(messages.filter { $0.byte == "fc" }.count, 1, "one Stop")
        let startIndex = try XCTUnwrap(messages.firstIndex { $0.byte == "fa" })
        let stopIndex = try XCTUnwrap(messages.firstIndex { $0.byte == "fc" })
        XCTAssertEqual(messages[startIndex + 1].byte, "f8")
        XCTAssertEqual(messages[startIndex + 1].frame, messages[startIndex].frame, "Start, then the first beat's clock")
        XCTAssertFalse(messages[..<startIndex].contains { $0.byte == "f8" }, "no clock before Start")
        XCTAssertEqual(stopIndex, messages.count - 1, "nothing after Stop")
        let clocks = messages[startIndex...].filter { $0.byte == "f8" }.map(\.frame)

        // 48 clocks a second once the tracker holds the loop's tempo (from 8 s of clock on, to the silence).
        let steady = clocks.filter { $0 >= clocks[0] + 8 * 48_000 }
        XCTAssertGreaterThan(steady.count, 48 * 8)
        let rate = Double(steady.count - 1) / (Double(steady.last! - steady.first!) / 48_000)
        XCTAssertEqual(rate, 48, accuracy: 48 * 0.005, "clocks per second")

        // Every 24th clock on a beat of jacktap's --json, the same constant apart (chosen as the offset that
        // puts the most beat clocks within 5 ms of a beat).
        let beats = jsonLines(try String(contentsOfFile: jsonOut, encoding: .utf8))
            .filter { $0["event"] as? String == "beat" }.compactMap { $0["t"] as? Double }.map { $0 * 48_000 }
        let beatClocks = stride(from: 0, to: clocks.count, by: 24).map { Double(clocks[$0]) }
        // From 4 s after Start: the tracker may first lock at another tempo (this loop reads 164 BPM for its
        // first two seconds), and the clock then moves to the new beat over a few beats without a burst.
        let settled = beatClocks.filter { $0 >= beatClocks[0] + 4 * 48_000 }
        func within(_ offset: Double) -> Int {
            settled.filter { clock in beats.contains { abs(clock - offset - $0) <= 240 } }.count
        }
        let offset = beats.map { settled[0] - $0 }.max { within($0) < within($1) }!
        let off = settled.filter { clock in !beats.contains { abs(clock - offset - $0) <= 240 } }
        XCTAssertGreaterThan(settled.count, 36)
        XCTAssertEqual(off.map { ($0 - beatClocks[0]) / 48_000 }, [], "beat clocks (s after Start) off every beat")
        // Stop after the music ended (jack-play's 32 s of loop), the clock silent from then on.
        XCTAssertGreaterThan(Double(messages[stopIndex].frame) - offset, 28 * 48_000)
    }

    func testASourceThatIsNoInputOrLacksItsAnalysisIsRefused() throws {
        let server = try privateServer()
        let cases: [([String], String)] = [
            (["--inputs", "1", "--midi-clock", "--beat-source", "drums"], "--beat-source must name an input"),
            (["--inputs", "1", "--midi-clock", "--beat-source", "in_3"], "jacktap has 1 input"),
            (["--inputs", "2", "--midi-clock", "--beat-source", "in_2", "--music", "in_2=none"], "no rhythm analysis"),
            (["--inputs", "1", "--midi-notes", "--music", "in_1=rhythm"], "--note-source in_1 has no pitch analysis"),
            (["--inputs", "1", "--midi-notes", "--note-source", "in_2"], "--note-source in_2: jacktap has 1 input"),
        ]
        for (arguments, message) in cases {
            let run = try Tool.capture(Tool.jacktap, arguments + ["--duration", "1", "--quiet"],
                                       environment: server.environment)
            XCTAssertEqual(run.status, 64, "\(arguments)")
            XCTAssertTrue(run.stderr.contains(message), run.stderr)
        }
        XCTAssertFalse(try jackPorts(server).contains { $0.hasPrefix("jacktap:") }, "no port left behind")
    }

    /// jack_midi_dump's lines, "   frame: f8".
    static func parse(_ text: String) -> [(frame: Int, byte: String)] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let frame = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            return (frame, parts[1].trimmingCharacters(in: .whitespaces))
        }
    }
}
