import Foundation
import ToolSupport
import XCTest

/// Channels on another machine reach jacktap with the JACK tools made for it, not with anything of jacktap's:
/// zita-njbridge carries a tone from one JACK server to another (over loopback here), and a jacktap on the
/// second reads what a jacktap on the first reads.
final class NetworkBridgeTests: XCTestCase {
    /// The figures of the last tick a jacktap printed to `path`: the port's and the programme's.
    func figures(_ path: String, port: String = "in_1") throws -> [String: Double] {
        let ticks = tickLines(jsonLines(try String(contentsOfFile: path, encoding: .utf8)))
        let last = try XCTUnwrap(ticks.last)
        let meters = try XCTUnwrap(last[port] as? [String: Any])
        let loudness = try XCTUnwrap((last["main"] as? [String: Any])?["loudness"] as? [String: Any])
        var out = [String: Double]()
        for key in ["peak", "rms", "truepeak"] { out[key] = (meters[key] as? NSNumber)?.doubleValue }
        for key in ["momentary", "shortterm"] { out[key] = (loudness[key] as? NSNumber)?.doubleValue }
        return out
    }

    func testAToneBridgedByZitaNjbridgeReadsTheSameOnTheSecondServer() throws {
        let sending = try privateServer()
        let receiving = try privateServer()
        let udpPort = String(Int.random(in: 20_000...60_000))
        // 997 Hz: not a divisor of the rate, so over a tick the samples pass every phase of the sine and the
        // sample peak is its crest on both sides, whatever delay the bridge's resampler adds.
        _ = try background(Tool.jacktap, ["generate", "--tone", "997", "--level", "-6", "--name", "tone"],
                           server: sending)
        _ = try background("zita-j2n", ["--jname", "j2n", "--chan", "1", "--float", "127.0.0.1", udpPort],
                           server: sending)
        try waitForPort("tone:out_1", server: sending)
        try waitForPort("j2n:in_1", server: sending)
        _ = try Tool.runJackClient("jack_connect", ["tone:out_1", "j2n:in_1"], environment: sending.environment)
        _ = try background("zita-n2j", ["--jname", "n2j", "--chan", "1", "127.0.0.1", udpPort], server: receiving)
        try waitForPort("n2j:out_1", server: receiving)

        let arguments = ["--json", "--music", "none", "--meters", "truepeak,loudness"]
        let here = Tool.temporaryPath("bridge-sending.jsonl")
        let there = Tool.temporaryPath("bridge-receiving.jsonl")
        defer { unlink(here); unlink(there) }
        // Named apart: jackd2 clients of one name opened at the same moment on two servers of a machine fail
        // (both "no server"), as two jack_lsp do.
        _ = try background(Tool.jacktap, ["tone:out_1", "-n", "foh"] + arguments, server: sending, stdoutPath: here)
        _ = try background(Tool.jacktap, ["n2j:out_1", "-n", "stage"] + arguments, server: receiving,
                           stdoutPath: there)

        // The bridge delivers once its receiver has locked to the stream; from then on the tone is steady, and
        // after 4 s every figure (short-term loudness: a 3 s window) reads it alone.
        func level(_ line: [String: Any]) -> Double { ((line["in_1"] as? [String: Any])?["rms"] as? NSNumber)?.doubleValue ?? -200 }
        let arrived = try waitForJSONLine(in: there) { level($0) > -12 }
        let start = try XCTUnwrap(arrived.last?["t"] as? Double)
        _ = try waitForJSONLine(in: there, after: arrived.count) { ($0["t"] as? Double ?? 0) >= start + 4 }
        _ = try waitForJSONLine(in: here) { ($0["t"] as? Double ?? 0) >= 5 && level($0) > -12 }

        let sent = try figures(here)
        let received = try figures(there)
        print("zita-njbridge: sent \(sent), received \(received)")
        // The tone itself: a -6 dBFS peak and -9.01 dBFS RMS on the sending side.
        XCTAssertEqual(try XCTUnwrap(sent["peak"]), -6, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(sent["rms"]), -9.01, accuracy: 0.01)
        for key in ["peak", "rms", "truepeak", "momentary", "shortterm"] {
            let a = try XCTUnwrap(sent[key], key), b = try XCTUnwrap(received[key], key)
            XCTAssertEqual(b, a, accuracy: 0.01, "\(key): \(a) sent, \(b) received through zita-njbridge")
        }
    }
}
