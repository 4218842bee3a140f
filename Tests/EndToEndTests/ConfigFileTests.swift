import Foundation
import ToolSupport
import XCTest

/// `--config FILE`: the same run from a YAML file as from the command line; the command line wins.
final class ConfigFileTests: XCTestCase {
    func write(_ text: String) throws -> String {
        let path = Tool.temporaryPath("config-\(UInt32.random(in: 0...UInt32.max)).yaml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What analyze printed and what the destination received.
    func analyze(_ file: String, _ arguments: [String], capture: RoutingCapture) throws -> (json: String, osc: [String]) {
        let json = try Tool.run(Tool.jacktap, ["analyze", file] + arguments)
        let osc = capture.datagrams().map { datagram in
            "\(datagram.bundle) " + datagram.messages.map { "\($0.address) \($0.args)" }.joined(separator: "; ")
        }
        return (json, osc)
    }

    func testAFileGivesTheSameOutputAsTheSameOptionsOnTheCommandLine() throws {
        let audio = try stepFile("config-same.wav", channels: 2)
        defer { unlink(audio) }
        let first = try RoutingCapture(), second = try RoutingCapture()
        let settings = ",scale=byte,filter=//level|//bands,rate=10,plain"
        let cli = try analyze(audio, ["--json", "--rate", "20", "--bands", "7", "--meters", "none", "--prefix", "/rig",
                                      "--osc", "127.0.0.1:\(first.port)" + settings], capture: first)
        let config = try write("""
            # a rig
            json: true
            rate: 20
            bands: 7
            meters: none
            prefix: /rig
            osc:
              - host: 127.0.0.1
                port: \(second.port)
                scale: byte
                filter: ['//level', '//bands']
                rate: 10
                plain: true
            """)
        defer { unlink(config) }
        let file = try analyze(audio, ["--config", config], capture: second)
        XCTAssertEqual(file.json, cli.json)
        XCTAssertEqual(file.osc, cli.osc)
        XCTAssertGreaterThan(cli.osc.count, 10)
        XCTAssertTrue(cli.osc.allSatisfy { $0.hasPrefix("false /rig/") })
    }

    func testTheCommandLineWinsForScalarsAndReplacesLists() throws {
        let audio = try stepFile("config-precedence.wav")
        defer { unlink(audio) }
        let fromFile = try RoutingCapture(), fromCLI = try RoutingCapture()
        let config = try write("""
            rate: 10
            json: true
            osc: ["127.0.0.1:\(fromFile.port)"]
            """)
        defer { unlink(config) }
        let json = try Tool.run(Tool.jacktap, ["analyze", audio, "--config", config, "--rate", "5",
                                               "--osc", "127.0.0.1:\(fromCLI.port)"])
        let ticks = jsonLines(json).compactMap { $0["t"] as? Double }
        XCTAssertEqual(ticks[1] - ticks[0], 0.2, accuracy: 1e-6, "--rate 5 from the command line")
        XCTAssertEqual(fromFile.datagrams().count, 0, "the command line's --osc replaces the file's")
        XCTAssertEqual(fromCLI.datagrams().count, ticks.count)
    }

    func testTheConfigMayComeBeforeTheSubcommandsArgumentsAndKeysOfOtherCommandsAreSkipped() throws {
        let audio = try stepFile("config-order.wav")
        defer { unlink(audio) }
        let config = try write("connect: ['system:capture_*']\nname: rig\nrate: 10\njson: true\n")
        defer { unlink(config) }
        let json = try Tool.run(Tool.jacktap, ["analyze", "--config=\(config)", audio])
        let ticks = jsonLines(json).compactMap { $0["t"] as? Double }
        XCTAssertEqual(ticks[1] - ticks[0], 0.1, accuracy: 1e-6)
    }

    func testErrorsNameTheFileAndTheKey() throws {
        let cases: [(String, Int32, [String])] = [
            ("rat: 5\n", 64, ["unknown key 'rat'"]),
            ("rate: abc\n", 64, ["key 'rate'", "abc"]),
            ("osc:\n  - 127.0.0.1:9000,scale=loud\n", 64, ["key 'osc'", "scale=loud"]),
            ("json: maybe\n", 64, ["key 'json'", "maybe"]),
            ("rate: [1, 2\n", 64, ["not valid YAML"]),
            ("osc:\n  - {host: 127.0.0.1}\n", 64, ["key 'osc'", "port"]),
        ]
        for (text, status, phrases) in cases {
            let config = try write(text)
            defer { unlink(config) }
            let result = try Tool.capture(Tool.jacktap, ["analyze", "/dev/null", "--config", config])
            XCTAssertEqual(result.status, status, text)
            for phrase in phrases + [config] {
                XCTAssertTrue(result.stderr.contains(phrase), "\(text): '\(phrase)' not in \(result.stderr)")
            }
        }
        let missing = try Tool.capture(Tool.jacktap, ["analyze", "/dev/null", "--config", "/nonexistent/rig.yaml"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/rig.yaml"))
    }

    func testTheExampleRigFileIsValid() throws {
        let audio = try stepFile("config-example.wav")
        defer { unlink(audio) }
        let result = try Tool.capture(Tool.jacktap, ["analyze", audio, "--config", Tool.repositoryPath("examples/rig.yaml"),
                                                     "--osc", "127.0.0.1:\(Tool.freeUDPPort())"])
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
