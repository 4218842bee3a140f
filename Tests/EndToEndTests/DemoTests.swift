import Foundation
import ToolSupport
import XCTest

/// `jacktap demo`: starts a private server only when none is reachable, and stops only what it started.
final class DemoTests: XCTestCase {
    func testDemoStartsItsOwnServerSendsOSCAndLeavesNothingBehind() throws {
        let absent = "jacktap-demo-test-\(getpid())"
        var env = ProcessInfo.processInfo.environment
        env["JACK_DEFAULT_SERVER"] = absent
        let python = try Receiver(.pythonOSC)
        let run = try Tool.capture(Tool.jacktap, ["demo", "--duration", "3", "--osc", "127.0.0.1:\(python.port)"],
                                   environment: env)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("started private JACK server"), run.stderr)
        let messages = try python.messages()
        let notes = messages.filter { $0.address == "/jacktap/in_1/note" }
        XCTAssertEqual(messages.filter { $0.address == "/jacktap/in_2/peak" }.count, 90, "3 s of audio, 30 ticks a second")
        XCTAssertFalse(notes.isEmpty, "the demo's melody is named")
        // Every server it started is gone: none named like the demo's remains.
        let ps = try Tool.run("ps", ["-eo", "args"])
        XCTAssertFalse(ps.contains("jackd -n jacktap-demo-"), ps)
    }

    func testDemoUsesARunningServerAndLeavesItRunning() throws {
        let server = try privateServer()
        let run = try Tool.capture(Tool.jacktap, ["demo", "--duration", "1.5", "--quiet", "--osc", "127.0.0.1:\(Tool.freeUDPPort())"],
                                   environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(server.isRunning, "a server the demo did not start is left alone")
    }
}
