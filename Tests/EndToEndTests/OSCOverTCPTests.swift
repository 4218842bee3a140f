import Foundation
import ToolSupport
import XCTest

/// `--osc HOST:PORT,transport=tcp` and `,framing=slip`: a receiver written from each framing's document
/// (Tests/tools/osc_tcp_receiver.py, python-osc decoding) gets the tone's peak; stopped and started again on the
/// same port, it is found again by jacktap without anyone asking.
final class OSCOverTCPTests: XCTestCase {
    /// A receiver on `port` (0: any); its output file and the port it listens on.
    func receiver(_ framing: String, port: UInt16 = 0) throws -> (process: ChildProcess, output: String, port: UInt16) {
        let output = Tool.temporaryPath("tcp-\(framing)-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        addTeardownBlock { unlink(output) }
        let process = try background("python3", [Tool.repositoryPath("Tests/tools/osc_tcp_receiver.py"), String(port), framing],
                                     stdoutPath: output)
        var bound: UInt16?
        XCTAssertTrue(waitFor {
            bound = jsonLines((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
                .first?["listening"].flatMap { ($0 as? NSNumber)?.uint16Value }
            return bound != nil
        }, "the receiver listens")
        return (process, output, try XCTUnwrap(bound))
    }

    func peaks(_ output: String) -> [Double] {
        jsonLines((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")
            .filter { $0["address"] as? String == "/jacktap/in_1/peak" }
            .compactMap { ($0["args"] as? [Any])?.first.flatMap { ($0 as? NSNumber)?.doubleValue } }
    }

    /// The peaks from the first that is not jacktap's -200 dBFS floor on: jacktap ticks from its activation, and
    /// its port is connected to the tone only after that (on a loaded machine, several ticks later).
    func tonePeaks(_ output: String) -> ArraySlice<Double> {
        peaks(output).drop { $0 <= -200 }
    }

    func testBothFramingsCarryTheFiguresAndAReceiverThatRestartsIsFoundAgain() throws {
        let server = try privateServer()
        try playTone(on: server)
        for framing in ["size", "slip"] {
            let first = try receiver(framing)
            let setting = framing == "size" ? "transport=tcp" : "framing=slip"
            let err = Tool.temporaryPath("tcp-\(framing).err")
            addTeardownBlock { unlink(err) }
            let tap = try background(Tool.jacktap, ["e2e-tone:out_1", "-n", "tcp\(framing)", "--quiet",
                                                    "--osc", "127.0.0.1:\(first.port),\(setting),filter=//peak"],
                                     server: server, stderrPath: err)
            XCTAssertTrue(waitFor { self.tonePeaks(first.output).count >= 30 }, "\(framing): a second of ticks")
            // A sine peaking at 0.5: -6.02 dBFS, in every tick once the port is connected (the first may hold the
            // tone's start).
            let heard = tonePeaks(first.output)
            XCTAssertGreaterThanOrEqual(heard.count, 30, "\(framing): \(peaks(first.output).prefix(5))")
            XCTAssertTrue(heard.dropFirst().allSatisfy { abs($0 + 6.02) < 0.05 }, "\(framing): \(heard.prefix(5))")
            stopAndReap(first.process)
            // The same port again: jacktap reconnects by itself and the figures come on.
            let second = try receiver(framing, port: first.port)
            XCTAssertTrue(waitFor(timeout: 30) { self.peaks(second.output).count >= 30 },
                          "\(framing): found again after the restart")
            XCTAssertTrue(peaks(second.output).allSatisfy { abs($0 + 6.02) < 0.05 })
            XCTAssertTrue(tap.isRunning)
            tap.signal(SIGTERM)
            XCTAssertEqual(tap.wait(), 0)
            stopAndReap(second.process)
        }
    }

    func testAReceiverThatIsNotThereNeitherStopsNorSlowsJacktap() throws {
        let server = try privateServer()
        try playTone(on: server)
        let closed = Tool.freeTCPPort()
        let run = try Tool.capture(Tool.jacktap, ["e2e-tone:out_1", "--osc", "127.0.0.1:\(closed),framing=slip", "--json",
                                                  "--duration", "6"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(tickLines(jsonLines(run.stdout)).count, 180, "all 30 ticks per second of audio came out")
        // 128 packets wait; the 180 ticks' packets beyond them were dropped, the oldest first, and counted.
        let counts = try XCTUnwrap(run.stderr.split(separator: "\n").first { $0.contains("OSC over TCP to 127.0.0.1:\(closed):") })
        XCTAssertTrue(counts.contains(": 0 packets sent, "), String(counts))
        let dropped = try XCTUnwrap(Int(counts.split(separator: " ").drop { $0 != "sent," }.dropFirst().first ?? ""))
        XCTAssertGreaterThanOrEqual(dropped, 180 - 128, String(counts))
        XCTAssertTrue(run.stderr.contains("OSC over TCP (SLIP): cannot connect to 127.0.0.1:\(closed): Connection refused"), run.stderr)
        XCTAssertTrue(run.stderr.contains("trying again"), run.stderr)
    }

    func testATransportOrFramingThatDoesNotParseIsRefused() throws {
        for (setting, message) in [("transport=sctp", "udp or tcp"), ("framing=cobs", "size (OSC 1.0")] {
            let run = try Tool.capture(Tool.jacktap, ["analyze", "/dev/null", "--osc", "127.0.0.1:9000,\(setting)"])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains(message), run.stderr)
        }
    }
}
