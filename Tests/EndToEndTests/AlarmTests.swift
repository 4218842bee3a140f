import Foundation
import ToolSupport
import XCTest

/// `--alarms` live: a tone over -1 dBTP for 2 s, then dead air. python-osc receives the true-peak alarm and then
/// the silence alarm (`/jacktap/main/alarm s:kind i:on`), timetagged with the tick that raised them, --json prints
/// the same events, /metrics shows them on, and stopping jacktap ends the one still on.
final class AlarmTests: XCTestCase {
    func testATruePeakOverAndThenDeadAirRaiseTheirAlarmsOnOSCJSONAndMetrics() throws {
        let server = try privateServer()
        let python = try Receiver(.pythonOSC)
        let metricsPort = Tool.freeTCPPort()
        let json = Tool.temporaryPath("alarms.jsonl")
        addTeardownBlock { unlink(json) }
        let tap = try background(Tool.jacktap, ["--inputs", "1", "-n", "air", "--json", "--osc", "127.0.0.1:\(python.port)",
                                                "--alarms", "silence,true_peak", "--silence", "2",
                                                "--metrics", "127.0.0.1:\(metricsPort)"], server: server, stdoutPath: json)
        try waitForPort("air:in_1", server: server)
        // Before anything plays the input is silent too: wait for that alarm, so that what follows is the tone's.
        let silentStart = try waitForJSONLine(in: json, timeout: 60) { $0["event"] as? String == "alarm" }
        XCTAssertEqual(silentStart.last?["kind"] as? String, "silence")
        // 2 s (of audio) of a 997 Hz sine peaking at -0.5 dBFS: its true peak is over -1 dBTP.
        let tone = try Tool.capture(Tool.jacktap, ["generate", "--tone", "997", "--level", "-0.5", "--name", "airgen",
                                                   "--connect", "air:in_1", "--duration", "2"], environment: server.environment)
        XCTAssertEqual(tone.status, 0, tone.stderr)
        // Short-term loudness holds 3 s of audio: the tone leaves it 3 s after it ends, and 2 s later it is silence.
        let lines = try waitForJSONLine(in: json, after: silentStart.count, timeout: 60) {
            $0["event"] as? String == "alarm" && $0["kind"] as? String == "silence" && $0["on"] as? Bool == true
        }
        let metrics = try Tool.run("python3", ["-c", """
            import sys, urllib.request
            sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
            """, "http://127.0.0.1:\(metricsPort)/metrics"])
        tap.signal(SIGTERM)
        XCTAssertEqual(tap.wait(), 0)

        let alarms = jsonLines(try String(contentsOfFile: json, encoding: .utf8)).filter { $0["event"] as? String == "alarm" }
        let sequence = alarms.map { "\($0["kind"] as? String ?? "?") \($0["on"] as? Bool ?? false)" }
        // The last: jacktap stopping ends the alarm that is on, so no receiver is left with it.
        XCTAssertEqual(sequence, ["silence true", "silence false", "true_peak true", "true_peak false", "silence true",
                                  "silence false"])
        let time = { (i: Int) in alarms[i]["t"] as? Double ?? 0 }
        XCTAssertEqual(time(3) - time(2), 2 + 1, accuracy: 0.05, "held a second after the tone's last over")
        XCTAssertEqual(time(4) - time(3), 3 + 2 - 1, accuracy: 0.1,
                       "the tone leaves the 3 s window, then 2 s of silence")
        XCTAssertEqual(alarms.map { $0["programme"] as? String }, Array(repeating: "main", count: 6))
        XCTAssertNotNil(lines.last)

        let received = try python.messages().filter { $0.address == "/jacktap/main/alarm" }
        XCTAssertEqual(received.map { "\($0.args.first ?? "") \($0.floats.last.map { Int($0) } ?? -1)" },
                       ["silence 1", "silence 0", "true_peak 1", "true_peak 0", "silence 1", "silence 0"])
        // Each in a bundle timetagged with the wall-clock instant of the tick that raised it: the time from that
        // instant to its arrival is what the alarm adds to the audio's own delay.
        let delays = received.compactMap { m in m.received.flatMap { r in m.timetag.map { r - $0 } } }
        XCTAssertEqual(delays.count, 6)
        print("[alarm] OSC arrival after the raising tick's instant, ms: \(delays.map { Int(($0 * 1000).rounded()) })")
        XCTAssertTrue(metrics.contains("jacktap_alarm{client=\"air\",programme=\"main\",kind=\"silence\"} 1\n"), metrics)
        XCTAssertTrue(metrics.contains("jacktap_alarm{client=\"air\",programme=\"main\",kind=\"true_peak\"} 0\n"), metrics)
        XCTAssertTrue(metrics.contains("jacktap_alarms_total{client=\"air\",programme=\"main\",kind=\"true_peak\"} 1\n"), metrics)
        XCTAssertFalse(metrics.contains("kind=\"over_target\""), "only the alarms asked for")
    }
}
