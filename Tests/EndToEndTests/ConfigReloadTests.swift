import Foundation
import ToolSupport
import XCTest

/// SIGHUP rereads the configuration file without closing the JACK client: destinations and globs change
/// at once; a file that no longer parses keeps the running configuration and says why.
final class ConfigReloadTests: XCTestCase {
    func testSIGHUPMovesTheOSCAndTheSourcesAndABadFileKeepsTheRunningConfiguration() throws {
        let server = try PrivateJackServer(rate: 48_000, period: 256)
        defer { server.stop() }
        let first = try OSCLog()
        let second = try OSCLog()
        defer { first.stop(); second.stop() }
        let generatorA = try BackgroundJacktap(["generate", "--tone", "440", "--name", "ga"], environment: server.environment)
        defer { generatorA.stop() }
        let generatorB = try BackgroundJacktap(["generate", "--tone", "880", "--name", "gb"], environment: server.environment)
        defer { generatorB.stop() }
        try generatorA.waitForStderr(generatorPlaying)
        try generatorB.waitForStderr(generatorPlaying)

        let path = Tool.temporaryPath("reload.yaml")
        defer { unlink(path) }
        try "osc: 127.0.0.1:\(first.port)\nconnect: 'ga:*'\ninputs: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        let tap = try BackgroundJacktap(["--config", path], environment: server.environment)
        defer { tap.stop() }
        try first.waitFor("A4 from ga at the first destination") {
            $0.address == "/jacktap/in_1/note" && "\($0.args[0])" == "A4"
        }

        try "osc: 127.0.0.1:\(second.port)\nconnect: 'gb:*'\ninputs: 1\nrate: 10\n".write(toFile: path, atomically: true, encoding: .utf8)
        tap.process.signal(SIGHUP)
        try tap.waitForStderr("configuration reread")
        XCTAssertTrue(tap.stderr.contains("kept until a restart: rate"), tap.stderr)
        try tap.waitForStderr("gb:out_1 → jacktap:in_1")
        // ga is disconnected and gb takes its input: A5 on in_1 at the second destination, and the first
        // destination receives nothing more.
        XCTAssertTrue(tap.stderr.contains("ga:out_1 ↛ jacktap:in_1"), tap.stderr)
        try second.waitFor("A5 from gb on in_1 at the second destination") {
            $0.address == "/jacktap/in_1/note" && "\($0.args[0])" == "A5"
        }
        let firstCount = first.messages.count
        let peaks = second.messages.count
        try second.waitFor(after: peaks, "30 more messages at the second destination") { _ in
            second.messages.count >= peaks + 30
        }
        // Now everything the first destination was sent before the reread has long arrived.
        XCTAssertEqual(first.messages.count, firstCount, "the first destination was removed")
        XCTAssertTrue(tap.process.isRunning)

        try "osc: [127.0.0.1:\(first.port)\nnot_an_option: 1\n".write(toFile: path, atomically: true, encoding: .utf8)
        tap.process.signal(SIGHUP)
        try tap.waitForStderr("configuration not reread, the running one is kept")
        let before = second.messages.count
        try second.waitFor(after: before, "messages still at the second destination") { _ in true }
        XCTAssertEqual(tap.stop(), 0, tap.stderr)
    }
}
