import Foundation
import ToolSupport
import XCTest

/// Bad input gets a clear message, a non-zero exit, and nothing left behind.
final class BadInputTests: XCTestCase {
    var server: PrivateJackServer!

    override func setUpWithError() throws { server = try privateServer() }

    func ports() throws -> [String] {
        try Tool.runJackClient("jack_lsp", [], environment: server.environment, allowFailure: true)
            .split(separator: "\n").map(String.init)
    }

    func testASourcePortThatDoesNotExistIsNamedWithTheNearestOnes() throws {
        let run = try Tool.capture(Tool.jacktap, ["system:captur_1", "--quiet"], environment: server.environment)
        XCTAssertEqual(run.status, 65)
        XCTAssertTrue(run.stderr.contains("'system:captur_1'"), run.stderr)
        XCTAssertTrue(run.stderr.contains("system:capture_1"), run.stderr)
        XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap:") }, "nothing left behind")
    }

    func testAGlobThatMatchesNothingYetIsWaitedForNotAnError() throws {
        let run = try Tool.capture(Tool.jacktap, ["--connect", "nosuch:*", "--duration", "1"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("waiting for a port matching 'nosuch:*'"), run.stderr)
    }

    func testNoServerSaysHowToStartOneOrTryTheDemo() throws {
        var env = server.environment
        env["JACK_DEFAULT_SERVER"] = "jacktap-absent-\(getpid())"
        let run = try Tool.capture(Tool.jacktap, ["system:capture_1"], environment: env)
        XCTAssertEqual(run.status, 69)
        XCTAssertTrue(run.stderr.contains("no JACK server is running"), run.stderr)
        XCTAssertTrue(run.stderr.contains("jacktap demo"), run.stderr)
        XCTAssertFalse(run.stderr.contains("Cannot connect to server"), "libjack's own noise is replaced")
    }

    func testAnOSCDestinationThatDoesNotParseIsRejected() throws {
        let cases = [("localhost", "'localhost' is not HOST:PORT"), ("127.0.0.1:0", "'127.0.0.1:0'"),
                     ("127.0.0.1:70000", "'127.0.0.1:70000'"), ("host:port", "'host:port'"),
                     ("no-such-host.invalid:9000", "'no-such-host.invalid' does not resolve")]
        for (bad, message) in cases {
            let run = try Tool.capture(Tool.jacktap, ["system:capture_1", "--osc", bad], environment: server.environment)
            XCTAssertEqual(run.status, 64, "\(bad): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), run.stderr)
        }
    }

    func testMissingOrCorruptBeatWeightsAreRefusedBeforeAnythingStarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jacktap-weights-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let corrupt = directory.appendingPathComponent("corrupt.jtnn").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Tool.jacktap).deletingLastPathComponent()
            .appendingPathComponent("jacktap_Analysis.resources/beat-activation.jtnn"))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: corrupt))
        let missing = directory.appendingPathComponent("missing.jtnn").path
        for (file, message) in [(missing, "missing or unreadable"), (corrupt, "corrupt: checksum")] {
            let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--beat-model", file], environment: server.environment)
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains(file) && run.stderr.contains(message), run.stderr)
            XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap:") }, "nothing registered")
        }
    }

    func testNothingToTapIsAUsageError() throws {
        let run = try Tool.capture(Tool.jacktap, [], environment: server.environment)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("nothing to tap"), run.stderr)
    }

    func testSIGINTAndSIGTERMExitCleanlyAndUnregisterThePorts() throws {
        for signal in [SIGINT, SIGTERM] {
            let process = try background(Tool.jacktap, ["--inputs", "2", "--quiet"], server: server)
            try waitForPort("jacktap:in_2", server: server)
            process.signal(signal)
            XCTAssertEqual(process.wait(), 0, "signal \(signal): a clean exit, not death by the signal")
            XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap:") }, "ports unregistered after \(signal)")
        }
    }

    func testWithNoReconnectTheServerStoppingUnderJacktapIsAClearNonZeroExit() throws {
        let errPath = Tool.temporaryPath("stopping.err")
        defer { unlink(errPath) }
        let process = try background(Tool.jacktap, ["--inputs", "1", "--no-reconnect"], server: server, stderrPath: errPath)
        try waitForPort("jacktap:in_1", server: server)
        server.stop()
        XCTAssertTrue(waitFor { !process.isRunning }, "jacktap did not hang")
        process.signal(SIGKILL)
        XCTAssertEqual(process.wait(), 74)
        let text = try String(contentsOfFile: errPath, encoding: .utf8)
        XCTAssertTrue(text.contains("JACK server stopped"), text)
    }

    func testUnregisteredInputsCanBePatchedLater() throws {
        let process = try background(Tool.jacktap, ["--inputs", "3", "-n", "patchme", "--quiet"], server: server)
        try waitForPort("patchme:in_3", server: server)
        try Tool.runJackClient("jack_connect", ["system:capture_1", "patchme:in_1"], environment: server.environment)
        let connections = try Tool.runJackClient("jack_lsp", ["-c", "patchme:in_1"], environment: server.environment)
        XCTAssertTrue(connections.contains("system:capture_1"))
        process.signal()
        XCTAssertEqual(process.wait(), 0)
    }

    func testMeterOptionsThatDoNotParseAreUsageErrors() throws {
        let path = Tool.temporaryPath("meters.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "48000", "-c", "2", path, "synth", "0.5", "sine", "440"])
        let cases: [([String], String)] = [
            (["--meters", "truepeak,bogus"], "unknown meter 'bogus'"),
            (["--music", "pitch,tempo"], "unknown analysis 'tempo'"),
            (["--bpm-min", "120", "--bpm-max", "100"], "--bpm-min and --bpm-max"),
            (["--pitch-min", "10"], "--pitch-min must be at least 20 Hz"),
            (["--program", "stage=in_1:L,in_9:R"], "no input named 'in_9'"),
            (["--program", "stage=in_1:XX"], "unknown role 'XX'"),
            (["--program", "in_1=in_1,in_2"], "is an input's name"),
            (["--pair", "in_1"], "is not [NAME=]PORT,PORT"),
            (["--k", "16"], "--k must be 20, 14 or 12"),
            (["--target", "-99"], "--target '-99' is not LUFS[:LU]"),
            (["--target", "-23:x"], "--target '-23:x' is not LUFS[:LU]"),
            (["--alarms", "silence,fire"], "unknown alarm 'fire'"),
            (["--alarms", "true_peak", "--meters", "loudness"], "--alarms true_peak needs the true-peak meter"),
            (["--alarms", "silence", "--meters", "truepeak"], "--alarms needs the loudness meter"),
            (["--silence", "0"], "--silence must be above 0"),
            (["--true-peak-max", "9"], "--true-peak-max must be -60 to +6 dBTP"),
            (["--report", "--json"], "leave out --json"),
            (["--report", "--meters", "truepeak"], "--report needs the loudness meter"),
        ]
        for (arguments, message) in cases {
            let run = try Tool.capture(Tool.jacktap, ["analyze", path] + arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
    }

    func testFleetOptionsThatCannotWorkAreRefusedBeforeAnythingStarts() throws {
        let cases: [([String], String)] = [
            (["--loudness-log", "/nonexistent/jacktap-log"], "--loudness-log /nonexistent/jacktap-log is not a directory"),
            (["--loudness-log", "/tmp", "--meters", "truepeak"], "--loudness-log needs the loudness meter"),
            (["--metrics", "127.0.0.1:99999"], "the port must be a number from 0 to 65535"),
            (["--target", "-14:20"], "--target '-14:20' is not LUFS[:LU]"),
        ]
        for (arguments, message) in cases {
            let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--duration", "1"] + arguments,
                                       environment: server.environment)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap:") }, "nothing registered")
        }
        // A port already taken: the same clear refusal as --http's.
        let holder = try Tool.start("python3", ["-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(60)
            """], stdoutPath: Tool.temporaryPath("holder.out"))
        defer {
            stopAndReap(holder)
            unlink(Tool.temporaryPath("holder.out"))
        }
        var taken: UInt16?
        XCTAssertTrue(waitFor { taken = UInt16((try? String(contentsOfFile: Tool.temporaryPath("holder.out"), encoding: .utf8))?
                                                  .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""); return taken != nil })
        let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--duration", "1", "--metrics", "127.0.0.1:\(taken ?? 1)"],
                                   environment: server.environment)
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("--metrics cannot listen on 127.0.0.1:\(taken ?? 1): Address already in use"), run.stderr)
    }
}
