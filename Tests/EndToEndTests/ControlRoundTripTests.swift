import Foundation
import ToolSupport
import XCTest

/// `--listen`: python-osc (Tests/tools/osc_control.py) drives jacktap's control input on a private JACK
/// server: connect, subscribe, receive, reset, query, malformed packets, disconnect, unsubscribe.
final class ControlRoundTripTests: XCTestCase {
    func testPythonOSCSubscribesReceivesResetsQueriesAndUnsubscribes() throws {
        let server = try privateServer(rate: 48_000, period: 256)

        let port = Tool.freeUDPPort()
        let errPath = Tool.temporaryPath("control-stderr.txt")
        defer { unlink(errPath) }
        // Two inputs; programme "b" holds in_2 only, so its loudness is the short tone's alone.
        let tap = try background(Tool.jacktap, ["-n", "ct", "--inputs", "2", "--program", "b=in_2",
                                                "--listen", "127.0.0.1:\(port)"], server: server, stderrPath: errPath)
        try waitForPort("ct:in_2", server: server)
        // A tone that plays throughout (for connect and disconnect) and a 2 s one straight into in_2 (for reset).
        try backgroundGenerator(["--tone", "440", "--level", "-6.0206", "--name", "ctgen"], server: server)
        _ = try background(Tool.jacktap, ["generate", "--tone", "997", "--level", "-20", "--name", "ctb",
                                          "--connect", "ct:in_2", "--duration", "2"], server: server)

        let run = try Tool.capture("python3", [Tool.repositoryPath("Tests/tools/osc_control.py"), String(port), "ctgen:out_1"],
                                   environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        var steps = [String: [String: Any]]()
        for line in jsonLines(run.stdout) { steps[line["step"] as? String ?? ""] = line }
        func replies(_ step: String, _ key: String = "reply") -> [[String]] {
            ((steps[step]?[key] as? [[Any]]) ?? []).map { $0.map { "\($0)" } }
        }

        // connect: the first free input, and JACK (jack_lsp, not jacktap) shows the connection.
        XCTAssertEqual(replies("connect"), [["/jacktap/connect", "ok", "ct:in_1"]])
        XCTAssertEqual(connections(of: "ct:in_1", in: steps["connect"]?["jack_lsp"] as? String), ["ctgen:out_1"])

        // subscribe + receive: only what the pattern lets through, with the tone's figures.
        XCTAssertEqual(replies("subscribe"), [["/jacktap/subscribe", "ok"]])
        let receive = try XCTUnwrap(steps["receive"])
        XCTAssertEqual(Set(receive["addresses"] as? [String] ?? []),
                       ["/jacktap/in_1/rms", "/jacktap/in_2/rms", "/jacktap/b/loudness/max_momentary"])
        // A sine's RMS is its peak - 3.01 dB; a -20 dBFS 997 Hz mono tone reads -23.0 LUFS (BS.1770-4, EBU Tech 3341).
        for rms in receive["in_1_rms"] as? [Double] ?? [] { XCTAssertEqual(rms, -9.03, accuracy: 0.1) }
        XCTAssertEqual(receive["held"] as? Double ?? 0, -23.0, accuracy: 0.1)
        XCTAssertEqual(receive["in_2_rms"] as? Double, -200, "the short tone has ended")

        // reset: the held maximum of a programme now silent restarts at the floor.
        XCTAssertEqual(replies("reset"), [["/jacktap/reset", "ok"]])
        XCTAssertEqual((steps["reset"]?["after"] as? [Double])?.last, -200)

        // query: configuration, inputs with connections, destinations, then "end" with the item count.
        let query = replies("query", "replies")
        XCTAssertTrue(query.allSatisfy { $0.first == "/jacktap/query" })
        let items = query.map { Array($0.dropFirst()) }
        XCTAssertTrue(items.contains(["client", "ct"]), "\(items)")
        XCTAssertTrue(items.contains(["samplerate", "48000"]))
        XCTAssertTrue(items.contains(["listen", "127.0.0.1:\(port)"]))
        XCTAssertTrue(items.contains(["input", "ct:in_1", "ctgen:out_1"]))
        XCTAssertTrue(items.contains { $0.first == "version" })
        let subscribed = items.first { $0.first == "destination" }
        XCTAssertEqual(subscribed?[2], "subscribed")
        XCTAssertEqual(Array(subscribed?.dropFirst(3) ?? []), ["/jacktap/in_1/rms", "/jacktap/in_2/rms", "/jacktap/b/loudness/max_momentary"])
        XCTAssertEqual(items.last, ["end", String(items.count - 1)])

        // garbage: malformed and unknown packets get no reply and are counted; bad arguments get an error.
        XCTAssertEqual(replies("garbage", "bad_reply").first?.prefix(2), ["/jacktap/subscribe", "error"])
        let counts = replies("garbage", "query").first { $0.count > 1 && $0[1] == "packets" }
        // packets, commands, malformed, unknown, rejected.
        XCTAssertEqual(Array(counts?.dropFirst(2) ?? []), ["8", "5", "1", "1", "1"])

        // disconnect: gone in JACK's own listing.
        XCTAssertEqual(replies("disconnect"), [["/jacktap/disconnect", "ok", "ct:in_1"]])
        XCTAssertEqual(connections(of: "ct:in_1", in: steps["disconnect"]?["jack_lsp"] as? String), [])

        // unsubscribe: nothing more arrives over the next second of audio (30 ticks a second subscriber saw).
        XCTAssertEqual(replies("watch"), [["/jacktap/subscribe", "ok"]])
        XCTAssertEqual(replies("unsubscribe"), [["/jacktap/unsubscribe", "ok"]])
        XCTAssertEqual(steps["unsubscribe"]?["watched"] as? Int, 30)
        XCTAssertEqual(steps["unsubscribe"]?["later"] as? Int, 0)

        tap.signal(SIGTERM)
        XCTAssertEqual(tap.wait(), 0)
        let stderr = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        // The 10 packets and 7 commands of the script's steps, and the watcher's subscribe.
        XCTAssertTrue(stderr.contains("control 127.0.0.1:\(port): 11 packets, 8 commands, 1 malformed, 1 unknown, 1 rejected"),
                      stderr)
    }

    /// The ports `jack_lsp -c` lists under `port` (indented lines after its own).
    func connections(of port: String, in listing: String?) -> [String]? {
        let lines = (listing ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(of: port) else { return nil }
        return lines[(index + 1)...].prefix { $0.hasPrefix(" ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
