import Foundation
import Schema
import ToolSupport
import XCTest

/// `--oscquery` beside python-oscquery (PyPI, on zeroconf), both inside a network namespace that has only loopback
/// (multicast DNS must not leave the machine): the client finds jacktap by mDNS under its JACK client name, reads
/// HOST_INFO (the control input's port), the tree and a node whose VALUE is what `--json` printed, and sees the
/// service go when jacktap stops.
final class OSCQueryTests: XCTestCase {
    func testAnOSCQueryClientFindsJacktapByMDNSAndReadsItsFigures() throws {
        let namespace = try loopbackNamespace()
        let server = try privateServer(rate: 48_000, period: 256)
        try playTone(on: server)
        let ready = Tool.temporaryPath("oscquery-ready")
        let peerOut = Tool.temporaryPath("oscquery-peer.json")
        defer { unlink(ready); unlink(peerOut) }
        let peer = try background("ip", ["netns", "exec", namespace, "python3",
                                         Tool.repositoryPath("Tests/tools/oscquery_peer.py"), "fohtap",
                                         "/jacktap/in_1/peak", ready, String(Int(eventTimeout))],
                                  stdoutPath: peerOut)
        let jsonOut = Tool.temporaryPath("oscquery.jsonl"), errOut = Tool.temporaryPath("oscquery.err")
        defer { unlink(jsonOut); unlink(errOut) }
        let control = Tool.freeUDPPort()
        let jacktap = try background("ip", ["netns", "exec", namespace, Tool.jacktap, "e2e-tone:out_1", "-n", "fohtap",
                                            "--oscquery", "0", "--listen", "127.0.0.1:\(control)", "--json"],
                                     server: server, stdoutPath: jsonOut, stderrPath: errOut)
        func said() -> String { (try? String(contentsOfFile: errOut, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitFor { FileManager.default.fileExists(atPath: ready) || !peer.isRunning },
                      "the client found and queried jacktap: \(said())")
        jacktap.signal(SIGTERM)
        XCTAssertEqual(jacktap.wait(timeout: eventTimeout), 0, said())
        XCTAssertNotNil(peer.wait(timeout: eventTimeout), "the client ends")
        let seen = try XCTUnwrap(jsonLines(try String(contentsOfFile: peerOut, encoding: .utf8)).last)
        XCTAssertEqual(seen["found"] as? Bool, true, said())
        XCTAssertEqual(seen["address"] as? String, "127.0.0.1", "a server on 127.0.0.1 is advertised there")
        XCTAssertTrue(said().contains("OSCQuery on http://127.0.0.1:\(seen["port"] as? Int ?? -1)/"), said())
        XCTAssertEqual(seen["osc_services"] as? [String], ["fohtap._osc._udp.local."], "the control input too")
        let info = try XCTUnwrap(seen["host_info"] as? [String: Any])
        XCTAssertEqual(info["name"] as? String, "fohtap")
        XCTAssertEqual(info["osc_port"] as? Int, Int(control))
        XCTAssertEqual(info["osc_transport"] as? String, "UDP")

        // The node's VALUE is the peak the newest tick had: the -6.02 dBFS tone, as --json prints it.
        let node = try XCTUnwrap(seen["node"] as? [String: Any])
        XCTAssertEqual(node["full_path"] as? String, "/jacktap/in_1/peak")
        XCTAssertEqual(node["description"] as? String, FigureSchema.peak.summary)
        let value = try XCTUnwrap((node["value"] as? [Double])?.first)
        let peaks = tickLines(jsonLines(try String(contentsOfFile: jsonOut, encoding: .utf8)))
            .compactMap { (($0["in_1"] as? [String: Any])?["peak"] as? NSNumber)?.doubleValue }
        // The value queried is one tick's peak, as --json printed it (to 3 decimals).
        XCTAssertTrue(peaks.contains { abs($0 - value) <= 0.0005 + 1e-6 }, "\(value) among \(Set(peaks))")
        XCTAssertEqual(value, -6.02, accuracy: 0.01)
        let nodeJSON = try XCTUnwrap(seen["node_json"] as? [String: Any])
        XCTAssertEqual(nodeJSON["TYPE"] as? String, "f")
        XCTAssertEqual(nodeJSON["ACCESS"] as? Int, 1)
        XCTAssertEqual(nodeJSON["UNIT"] as? [String], ["dBFS"])
        XCTAssertEqual(((seen["value_only"] as? [String: Any])?["VALUE"] as? [Double])?.first ?? 0, value, accuracy: 1e-9)
        XCTAssertEqual(seen["missing_status"] as? Int, 404)
        XCTAssertEqual(seen["bad_attribute_status"] as? Int, 400)

        // Every leaf of the tree is an address the schema declares, with its FULL_PATH, or a writable command.
        var leaves = [[String: Any]]()
        func walk(_ node: [String: Any]) {
            if let contents = node["CONTENTS"] as? [String: Any], node["TYPE"] == nil {
                for child in contents.values.compactMap({ $0 as? [String: Any] }) { walk(child) }
            } else {
                leaves.append(node)
            }
        }
        walk(try XCTUnwrap(seen["tree"] as? [String: Any]))
        let commands = leaves.filter { $0["ACCESS"] as? Int == 2 }.compactMap { $0["FULL_PATH"] as? String }.sorted()
        XCTAssertEqual(commands, ControlNode.all.map { "/jacktap/" + $0.verb }.sorted())
        for leaf in leaves where leaf["ACCESS"] as? Int == 1 {
            let path = leaf["FULL_PATH"] as? String ?? "?"
            let figure = FigureSchema.figure(at: path)
            XCTAssertNotNil(figure, "\(path) is in the tree but not in the schema")
            XCTAssertEqual(leaf["DESCRIPTION"] as? String, figure?.summary, path)
        }
        XCTAssertTrue(leaves.contains { $0["FULL_PATH"] as? String == "/jacktap/main/loudness/momentary" })
        XCTAssertTrue(leaves.contains { $0["FULL_PATH"] as? String == "/jacktap/in_1/beat" }, "events are nodes too")
        XCTAssertEqual(seen["removed"] as? Bool, true, "the client saw jacktap's goodbye")
    }

    func testAnAddressThatIsNoListenAddressIsRefused() throws {
        for bad in ["nonsense", "127.0.0.1:70000", "::1:80"] {
            let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--oscquery", bad])
            XCTAssertEqual(run.status, 64, bad)
            XCTAssertTrue(run.stderr.contains("--oscquery"), run.stderr)
        }
    }
}
