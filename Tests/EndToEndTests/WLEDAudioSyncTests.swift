import Foundation
import ToolSupport
import XCTest

/// `--wled`: WLED's audio-sync V2 packets, decoded by a receiver written from the usermod's packet layout
/// (Tests/tools/wled_receiver.py): every packet decodes, the frame counter counts, the GEQ bands and the major
/// peak follow a sine sweep up, and a drum loop's beats set samplePeak; the default multicast group reaches a
/// receiver inside a loopback-only network namespace.
final class WLEDAudioSyncTests: XCTestCase {
    func receiver(_ arguments: [String]) throws -> (output: String, port: UInt16) {
        let output = Tool.temporaryPath("wled-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        addTeardownBlock { unlink(output) }
        _ = try background(arguments.first!, Array(arguments.dropFirst()), stdoutPath: output)
        var bound: UInt16?
        XCTAssertTrue(waitFor {
            bound = jsonLines((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").first?["listening"]
                .flatMap { ($0 as? NSNumber)?.uint16Value }
            return bound != nil
        })
        return (output, try XCTUnwrap(bound))
    }

    func packets(_ output: String) -> [[String: Any]] {
        Array(jsonLines((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").dropFirst())
    }

    func testASweepMovesTheBandsAndTheMajorPeakUpAndEveryPacketDecodes() throws {
        let sweep = Tool.temporaryPath("wled-sweep.wav")
        addTeardownBlock { unlink(sweep) }
        // 8 s of a sine sweeping exponentially from 100 Hz to 8 kHz (sox: `/` is the exponential sweep), at -12 dBFS.
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "24", "-c", "1", sweep, "synth", "8", "sine", "100/8000", "gain", "-12"])
        let server = try privateServer()
        let player = try playOnConnect(sweep, server: server, name: "sweep")
        let wled = try receiver(["python3", Tool.repositoryPath("Tests/tools/wled_receiver.py"), "0"])
        let run = try Tool.capture(Tool.jacktap, [player, "--wled-to", "127.0.0.1:\(wled.port)", "--duration", "8",
                                                  "--quiet"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(waitFor { self.packets(wled.output).count >= 230 }, "about 30 packets a second of audio")
        let all = packets(wled.output)
        XCTAssertTrue(all.allSatisfy { $0["bad"] == nil }, "every packet decodes")
        let frames = all.compactMap { $0["frame"] as? Int }
        XCTAssertEqual(frames.count, all.count)
        XCTAssertTrue(zip(frames, frames.dropFirst()).allSatisfy { ($0 + 1) % 256 == $1 }, "the frame counter counts")
        // Each second's loudest GEQ channel and median major peak: the sweep climbs, and so do they.
        let perSecond = stride(from: 15, to: all.count - 15, by: 30).map { Array(all[$0..<min($0 + 15, all.count)]) }
        let loudest = perSecond.map { second in
            median(second.compactMap { packet in
                (packet["bands"] as? [Int]).flatMap { bands in bands.indices.max { bands[$0] < bands[$1] } }.map(Double.init)
            })
        }
        let peaks = perSecond.map { median($0.compactMap { $0["major_peak"] as? Double }) }
        XCTAssertTrue(zip(loudest, loudest.dropFirst()).allSatisfy { $0 <= $1 }, "GEQ channel climbs: \(loudest)")
        XCTAssertTrue(zip(peaks, peaks.dropFirst()).allSatisfy { $0 < $1 }, "major peak climbs: \(peaks)")
        XCTAssertLessThan(loudest.first ?? 99, 5)
        XCTAssertGreaterThan(loudest.last ?? 0, 9)
        // 100 Hz · 80^(t/8) at the middle of the first and last second measured.
        XCTAssertEqual(log2(peaks.first ?? 1), log2(100 * pow(80, 1.0 / 8)), accuracy: 0.6)
        XCTAssertTrue(all.allSatisfy { ($0["raw"] as? Double ?? -1) >= 0 && ($0["raw"] as? Double ?? 999) <= 255 })
    }

    func testBeatsSetThePeakAndTheDefaultGroupReachesAReceiverInANamespace() throws {
        let namespace = try loopbackNamespace()
        let server = try privateServer()
        let loop = DrumLoop(bpm: 120, sampleRate: 48_000, seconds: 12)
        let path = Tool.temporaryPath("wled-loop.wav")
        addTeardownBlock { unlink(path) }
        try WAVWriter.write(path, sampleRate: 48_000, channels: [loop.render()])
        let player = try playOnConnect(path, server: server, name: "drums")
        let wled = try receiver(["ip", "netns", "exec", namespace, "python3",
                                 Tool.repositoryPath("Tests/tools/wled_receiver.py"), "11988", "239.0.0.1"])
        let json = Tool.temporaryPath("wled-beats.jsonl")
        addTeardownBlock { unlink(json) }
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        let run = try Tool.capture("ip", ["netns", "exec", namespace, "env"] + environment.map { "\($0.key)=\($0.value)" }
                                   + [Tool.jacktap, player, "--wled", "--duration", "10", "--json", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let beats = jsonLines(run.stdout).filter { $0["event"] as? String == "beat" }.count
        XCTAssertGreaterThan(beats, 10, "the tracker locked on the loop")
        XCTAssertTrue(waitFor { self.packets(wled.output).count >= 280 }, "the group reached the receiver")
        let peaks = packets(wled.output).filter { $0["peak"] as? Int == 1 }.count
        // Every beat sets one packet's peak, and before the lock each onset does.
        XCTAssertGreaterThanOrEqual(peaks, beats)
        XCTAssertLessThan(peaks, beats + 40)
    }
}
