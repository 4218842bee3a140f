import Foundation
import ToolSupport
import XCTest

/// `--os2l` to a TCP receiver written from the OS2L message format (Tests/tools/os2l_receiver.py: QLC+'s own
/// OS2L input turns a beat into a button press that cannot be read back headless, so the receiver checks the
/// messages themselves) while jack-play plays a recorded loop (Sonic Pi's garzul, 120 BPM) into a private jackd.
final class OS2LTests: XCTestCase {
    struct Received {
        var connection: Int
        var inRead: Int
        var message: [String: Any]
    }

    /// Starts the receiver with `arguments` and returns its port and the file it writes.
    func receiver(_ arguments: [String]) throws -> (port: UInt16, out: String) {
        let portFile = Tool.temporaryPath("os2l-port")
        let out = Tool.temporaryPath("os2l-messages.jsonl")
        addTeardownBlock { unlink(portFile); unlink(out) }
        _ = try background("python3", [Tool.repositoryPath("Tests/tools/os2l_receiver.py"), portFile, out] + arguments)
        var port: UInt16?
        _ = waitFor { port = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { UInt16($0) }; return port != nil }
        return (try XCTUnwrap(port, "the receiver listens"), out)
    }

    func received(_ path: String) -> [Received] {
        jsonLines((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").compactMap {
            guard let c = $0["connection"] as? Int, let n = $0["in_read"] as? Int,
                  let m = $0["message"] as? [String: Any] else { return nil }
            return Received(connection: c, inRead: n, message: m)
        }
    }

    /// jacktap tapping jack-play's loop for `seconds` of audio with `arguments`; its --json lines.
    func runOnLoop(seconds: Int, _ arguments: [String]) throws -> [[String: Any]] {
        try runOnLoopSaying(seconds: seconds, arguments + ["--quiet"]).lines
    }

    /// The same, and what jacktap said on stderr (`--quiet` is not implied).
    func runOnLoopSaying(seconds: Int, _ arguments: [String]) throws -> (lines: [[String: Any]], stderr: String) {
        let server = try privateServer(rate: 48_000, period: 256)
        let path = Tool.temporaryPath("garzul-os2l.wav")
        defer { unlink(path) }
        _ = try Tool.run("sox", ["/usr/share/sonic-pi/samples/loop_garzul.flac", "-c", "1", "-r", "48000", path,
                                 "repeat", "4"])
        let player = try play(path, server: server)
        let run = try Tool.capture(Tool.jacktap, [player, "--duration", String(seconds), "--json"] + arguments,
                                   environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        return (jsonLines(run.stdout), run.stderr)
    }

    func testOneMessagePerBeatInOrderWithTheTrackersTempoAcrossAReceiverRestart() throws {
        // The receiver takes 6 beats, goes away for 2 s, and listens again on the same port.
        let (port, out) = try receiver(["--restart-after", "6", "--down", "2"])
        let lines = try runOnLoop(seconds: 25, ["--os2l", "127.0.0.1:\(port)"])
        let beats = lines.filter { $0["event"] as? String == "beat" }
        XCTAssertGreaterThan(beats.count, 30)
        var bpmOfBeat = [Int: Double]()
        for beat in beats { bpmOfBeat[beat["count"] as? Int ?? -1] = beat["bpm"] as? Double }
        // The last messages may still be in the receiver's read when jacktap exits: wait for the file to settle.
        var messages = [Received]()
        _ = waitFor(timeout: 5) {
            let now = received(out)
            defer { messages = now }
            return now.count == messages.count && !now.isEmpty
        }
        XCTAssertTrue(messages.allSatisfy { $0.inRead == 1 }, "every message arrived alone (QLC+ parses one read)")
        XCTAssertTrue(messages.allSatisfy { $0.message["evt"] as? String == "beat" })
        let positions = messages.compactMap { $0.message["pos"] as? Int }
        XCTAssertEqual(positions.count, messages.count)
        XCTAssertEqual(positions, positions.sorted(), "in order")
        XCTAssertEqual(Set(positions).count, positions.count, "one message per beat")
        for received in messages {
            let pos = received.message["pos"] as? Int ?? -1
            let bpm = try XCTUnwrap(bpmOfBeat[pos], "message pos \(pos) is a beat jacktap announced")
            XCTAssertEqual(received.message["bpm"] as? Double ?? 0, bpm, accuracy: 0.01, "the tracker's BPM")
            // `change` marks the first beat of the beat grid: the first message, and no other.
            XCTAssertEqual(received.message["change"] as? Bool, pos == messages.first?.message["pos"] as? Int)
            XCTAssertNotNil(received.message["strength"] as? Double)
        }
        // The first connection got six beats in a row, from the first the tracker's confirmed pulse let through;
        // after the restart jacktap connected again by itself.
        let first = messages.filter { $0.connection == 1 }.map { $0.message["pos"] as? Int ?? -1 }
        let counts = beats.map { $0["count"] as? Int ?? -2 }
        let from = try XCTUnwrap(counts.firstIndex(of: first.first ?? -3))
        XCTAssertEqual(first, Array(counts[from..<min(from + 6, counts.count)]))
        XCTAssertGreaterThan(messages.filter { $0.connection == 2 }.count, 15, "beats flow again after the restart")
    }

    /// jacktap on the loop for `seconds` with OS2L to a receiver started with `receiverArguments`: every tick at
    /// 30 a second came out, the beats went on (more than 1.25 a second of audio: the loop has 2), and no period
    /// went unanalysed.
    /// Returns what jacktap said.
    func assertTheAnalysisKeepsUp(seconds: Int, receiverArguments: [String]) throws -> String {
        let (port, _) = try receiver(receiverArguments)
        let run = try runOnLoopSaying(seconds: seconds, ["--os2l", "127.0.0.1:\(port)", "--rate", "30"])
        XCTAssertEqual(tickLines(run.lines).count, 30 * seconds, accuracy: 1)
        XCTAssertGreaterThan(run.lines.filter { $0["event"] as? String == "beat" }.count, seconds * 5 / 4)
        XCTAssertFalse(run.stderr.contains("fell behind"), run.stderr)
        return run.stderr
    }

    func testAReceiverThatStopsReadingNeverHoldsUpTheAnalysis() throws {
        _ = try assertTheAnalysisKeepsUp(seconds: 20, receiverArguments: ["--no-read"])
    }

    func testAReceiverThatNeverAnswersNeverHoldsUpTheAnalysis() throws {
        // Every connection attempt hangs until the sender's own timeout (1 s), again and again: were a
        // connect made on the analysis thread, it would stall a second per beat and the ring would overflow.
        let stderr = try assertTheAnalysisKeepsUp(seconds: 12, receiverArguments: ["--never-answer"])
        let said = stderr.split(separator: "\n").filter { $0.contains("OS2L") }
        XCTAssertEqual(said.count, 1, "the hung receiver is reported once: \(said)")
        XCTAssertTrue(said.first?.contains("timed out") ?? false, "\(said)")
    }

    func testAReceiverNameWhoseLookupHangsDoesNotHoldUpTheExit() throws {
        // A namespace whose resolver asks a DNS server that never answers (a socket on 127.0.0.1:53 that reads
        // nothing), each try for 30 s: getent, asking for the same name there, is still waiting when jacktap,
        // given 2 s of audio, has exited.
        let namespace = try loopbackNamespace()
        let etc = "/etc/netns/\(namespace)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: etc) }
        try "nameserver 127.0.0.1\noptions timeout:30 attempts:1\n".write(toFile: etc + "/resolv.conf", atomically: true,
                                                                          encoding: .utf8)
        let bound = Tool.temporaryPath("silent-dns.out")
        addTeardownBlock { unlink(bound) }
        _ = try background("ip", ["netns", "exec", namespace, "python3", "-c",
            "import socket, time; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(('127.0.0.1', 53)); "
            + "print('bound', flush=True); time.sleep(3600)"], stdoutPath: bound)
        XCTAssertTrue(waitFor { (try? String(contentsOfFile: bound, encoding: .utf8))?.contains("bound") ?? false },
                      "the silent DNS server is bound")
        let server = try privateServer(rate: 48_000, period: 256)
        let lookup = try background("ip", ["netns", "exec", namespace, "getent", "hosts", "desk.test"])
        let run = try Tool.capture("ip", ["netns", "exec", namespace, Tool.jacktap, "--inputs", "1", "--os2l",
                                          "desk.test:9996", "--duration", "2"], environment: server.environment)
        XCTAssertTrue(lookup.isRunning, "jacktap exited while the name's lookup still hung")
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("OS2L: gave up waiting for the lookup of desk.test"), run.stderr)
    }

    func testAMalformedTargetIsRefused() throws {
        for target in ["qlc", "qlc:", ":9996", "qlc:70000"] {
            let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--os2l", target])
            XCTAssertEqual(run.status, 64, target)
            XCTAssertTrue(run.stderr.contains("--os2l must be HOST:PORT"), run.stderr)
        }
    }
}
