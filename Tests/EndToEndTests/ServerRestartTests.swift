import Foundation
import ToolSupport
import XCTest

/// jacktap keeps running across JACK server restarts: the OSC destinations stay open, the loss is announced
/// by `/status`, and when the server returns (at another rate and period) the same paths come back with
/// correct figures. Everything waits on messages, never on a fixed pause.
final class ServerRestartTests: XCTestCase {
    var server: PrivateJackServer!
    var started: [AnyObject] = []

    override func setUpWithError() throws {
        server = try PrivateJackServer(rate: 48_000, period: 256)
    }

    override func tearDown() {
        for case let process as BackgroundJacktap in started { process.stop() }
        for case let log as OSCLog in started { log.stop() }
        started = []
        server.stop()
    }

    func background(_ arguments: [String]) throws -> BackgroundJacktap {
        let process = try BackgroundJacktap(arguments, environment: server.environment)
        started.append(process)
        return process
    }

    func tone(_ hz: Double, name: String = "gen", outputs: Int = 1) throws -> BackgroundJacktap {
        let generator = try background(["generate", "--tone", String(hz), "--level", "-6.0206", "--name", name,
                                        "--outputs", String(outputs)])
        try generator.waitForStderr(generatorPlaying)
        return generator
    }

    static func isNote(_ note: String) -> (ReceivedMessage) -> Bool {
        { $0.address == "/jacktap/in_1/note" && "\($0.args[0])" == note }
    }

    /// A generator that jacktap itself waits for, and connects for the `connections`th time: the test learns
    /// that it is there from jacktap's stderr, so nothing short-lived opens while a client of the test does
    /// (`startGenerator` says why; `jack_lsp` polled here stalled the graph in 3 runs in 45 on a loaded machine).
    func followedTone(_ hz: Double, by tap: BackgroundJacktap, connections: Int) throws {
        _ = try background(["generate", "--tone", String(hz), "--level", "-6.0206", "--name", "gen"])
        let line = "gen:out_1 → jacktap:in_1"
        func connected() -> Int { tap.stderr.components(separatedBy: line).count - 1 }
        _ = waitFor(timeout: 60) { connected() >= connections || !tap.process.isRunning }
        guard connected() >= connections else {
            throw Tool.Failed(description: "jacktap did not connect the generator (\(connections)): \(tap.stderr)")
        }
    }

    func testAServerKilledAndStartedAgainAtAnotherRateAndPeriodBringsBackTheSamePathsWithCorrectFigures() throws {
        let log = try OSCLog()
        started.append(log)
        let tap = try background(["--connect", "gen:*", "--osc", "127.0.0.1:\(log.port)"])
        try log.waitFor("/restarted start 48000 256") {
            $0.address == "/jacktap/restarted" && $0.args.map { "\($0)" } == ["start", "48000", "256"]
        }
        try followedTone(440, by: tap, connections: 1)
        try log.waitFor("A4 before the crash", Self.isNote("A4"))

        server.crash()
        let lost = try log.waitFor(after: 0, "/status disconnected") {
            $0.address == "/jacktap/status" && "\($0.args[0])" == "disconnected"
        }
        XCTAssertTrue(tap.process.isRunning, "jacktap keeps running without a server")
        server = try PrivateJackServer(name: server.name, rate: 44_100, period: 512)
        let back = Date()
        try followedTone(440, by: tap, connections: 2)
        let restarted = try log.waitFor(after: lost, "/restarted reconnect 44100 512") {
            $0.address == "/jacktap/restarted" && $0.args.map { "\($0)" } == ["reconnect", "44100", "512"]
        }
        try log.waitFor(after: restarted, "/status running") {
            $0.address == "/jacktap/status" && "\($0.args[0])" == "running"
        }
        let firstNote = try log.waitFor(after: restarted, "A4 after the restart", Self.isNote("A4"))
        let seconds = Date().timeIntervalSince(back)
        print("jacktap: first correct /note \(String(format: "%.2f", seconds)) s after the server answered again")

        // The same paths, with the figures of a -6.02 dBFS 440 Hz tone at the new rate, once the windows
        // have filled with audio from the new server.
        try log.waitFor(after: firstNote, "30 ticks after the restart") { _ in
            log.messages[firstNote...].filter { $0.address == "/jacktap/in_1/peak" }.count >= 30
        }
        let after = log.messages[firstNote...]
        let peaks = after.filter { $0.address == "/jacktap/in_1/peak" }.dropFirst(10).map { $0.floats[0] }
        XCTAssertFalse(peaks.isEmpty)
        XCTAssertTrue(peaks.allSatisfy { abs($0 - -6.02) <= 0.05 }, "\(peaks)")
        let pitches = after.filter { $0.address == "/jacktap/in_1/pitch" }.dropFirst(5).map { $0.floats[0] }
        XCTAssertFalse(pitches.isEmpty)
        XCTAssertTrue(pitches.allSatisfy { abs($0 - 440) <= 1 }, "\(pitches)")
        XCTAssertTrue(after.filter { $0.address == "/jacktap/in_1/note" }.allSatisfy { "\($0.args[0])" == "A4" })
        XCTAssertEqual(tap.stop(), 0, tap.stderr)
        XCTAssertTrue(tap.stderr.contains("waiting for it to come back"), tap.stderr)
    }

    func testRestartsLeaveNoThreadOrDescriptorBehind() throws {
        let log = try OSCLog()
        started.append(log)
        let tap = try background(["--inputs", "1", "--reconnect", "0.1", "--osc", "127.0.0.1:\(log.port)", "--quiet"])
        // The third status (once a second): by then the analysis has run on its workers for two seconds and
        // the Dispatch runtime has made the descriptors it makes once.
        var seen = -1
        for n in 1...3 {
            seen = try log.waitFor(after: seen + 1, "/status running \(n)") {
                $0.address == "/jacktap/status" && "\($0.args[0])" == "running"
            }
        }
        /// jacktap's own threads (libjack's, the analysis and port threads, the main one) and its descriptors.
        /// Left out: the threads of Dispatch's worker pool (`DispatchQueue.concurrentPerform` in the analysis),
        /// which the runtime grows and shrinks by itself as the work comes and goes; and the semaphore of a
        /// client that has gone (a deleted /dev/shm/jack_sem.*), which libjack keeps in its table by refnum
        /// until another client takes that place (seen: the jack_wait the server script runs while starting).
        func figures() throws -> (threads: Int, descriptors: Int) {
            let pid = tap.process.pid
            let threads = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").filter { task in
                let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
                return !name.contains("qos")
            }
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").filter { fd in
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) ?? ""
                return !(target.hasPrefix("/dev/shm/jack_sem.") && target.hasSuffix(" (deleted)"))
            }
            return (threads.count, descriptors.count)
        }
        let before = try figures()
        for round in 0..<5 {
            server.crash()
            seen = try log.waitFor(after: seen + 1, "/status disconnected, round \(round)") {
                $0.address == "/jacktap/status" && "\($0.args[0])" == "disconnected"
            }
            server = try PrivateJackServer(name: server.name, rate: 48_000, period: 256)
            seen = try log.waitFor(after: seen + 1, "/restarted reconnect, round \(round)") {
                $0.address == "/jacktap/restarted" && "\($0.args[0])" == "reconnect"
            }
        }
        // The analysis and port threads of the last opening have started once /restarted is out; the status
        // that follows comes from the main loop after that.
        try log.waitFor(after: seen + 1, "/status after the last restart") { $0.address == "/jacktap/status" }
        let after = try figures()
        XCTAssertEqual(after.threads, before.threads, "threads before and after five restarts")
        XCTAssertEqual(after.descriptors, before.descriptors, "descriptors before and after five restarts")
    }

    func testAGlobWaitsForAPortStartedLaterAndReconnectsItWhenItComesBack() throws {
        let log = try OSCLog()
        started.append(log)
        let tap = try background(["--connect", "late:*", "--osc", "127.0.0.1:\(log.port)"])
        try tap.waitForStderr("waiting for a port matching 'late:*'")
        var generator = try tone(440, name: "late")
        try tap.waitForStderr("late:out_1 → jacktap:in_1")
        let first = try log.waitFor("A4 from the port that appeared", Self.isNote("A4"))
        generator.stop()
        // Gone: the input reads silence (a peak at the floor) rather than the tone.
        let silent = try log.waitFor(after: first, "silence once the source is gone") {
            $0.address == "/jacktap/in_1/peak" && $0.floats[0] < -100
        }
        generator = try tone(880, name: "late")
        try log.waitFor(after: silent, "A5 from the source that came back", Self.isNote("A5"))
        XCTAssertEqual(tap.stop(), 0, tap.stderr)
    }

    func testAMissingNamedSourceIsAnErrorUnlessWaitIsGivenThenItIsConnectedWhenItAppears() throws {
        let failed = try Tool.capture(Tool.jacktap, ["nobody:out_1", "--quiet"], environment: server.environment)
        XCTAssertEqual(failed.status, 65, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("--wait"), failed.stderr)

        let log = try OSCLog()
        started.append(log)
        let tap = try background(["nobody:out_1", "--wait", "--osc", "127.0.0.1:\(log.port)"])
        try waitForPort("jacktap:in_1", server: server, timeout: 60)
        _ = try tone(440, name: "nobody")
        try tap.waitForStderr("nobody:out_1 → jacktap:in_1")
        try log.waitFor("A4 once the named source exists", Self.isNote("A4"))
    }

    func testAServerThatNeverComesIsWaitedForQuietlyAndCtrlCStillExitsCleanly() throws {
        server.stop()
        let log = try OSCLog()
        started.append(log)
        let tap = try background(["--inputs", "1", "--wait", "--reconnect", "0.1", "--osc", "127.0.0.1:\(log.port)"])
        // Three statuses, a second apart, are twenty tries at 0.1 s: still one line on stderr.
        try log.waitFor("three /status disconnected") { _ in
            log.messages.filter { $0.address == "/jacktap/status" && "\($0.args[0])" == "disconnected" }.count >= 3
        }
        tap.process.signal(SIGINT)
        XCTAssertEqual(tap.process.wait(timeout: 60), 0, tap.stderr)
        XCTAssertEqual(tap.stderr.components(separatedBy: "waiting for one").count - 1, 1, tap.stderr)
    }

    func testWaitWaitsForAServerThatIsNotRunningYet() throws {
        let name = server.name
        server.stop()
        let log = try OSCLog()
        started.append(log)
        let tap = try background(["--inputs", "1", "--wait", "--osc", "127.0.0.1:\(log.port)"])
        try tap.waitForStderr("no JACK server yet; waiting for one")
        try log.waitFor("/status disconnected while waiting") {
            $0.address == "/jacktap/status" && "\($0.args[0])" == "disconnected"
        }
        server = try PrivateJackServer(name: name, rate: 48_000, period: 256)
        try log.waitFor("/status running once the server is there") {
            $0.address == "/jacktap/status" && "\($0.args[0])" == "running"
        }
        XCTAssertEqual(tap.stop(), 0, tap.stderr)
    }
}
