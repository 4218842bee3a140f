import Foundation
import ToolSupport
import XCTest

/// A 120 BPM drum loop played into a private jackd by jack-play (jack-tools): jacktap locks within 4 s and sends
/// `/jacktap/<port>/beat i f` at 120 ± 1 BPM, received by python-osc, each bundle timetagged with its beat.
final class LiveBeatTests: XCTestCase {
    var server: PrivateJackServer!
    var background: [ChildProcess] = []

    override func setUpWithError() throws {
        server = try PrivateJackServer(rate: 48_000, period: 256)
    }

    override func tearDown() {
        for process in background {
            process.signal()
            process.wait()
        }
        server.stop()
    }

    func testA120BPMLoopGivesBeatsAt120BPMWithin4Seconds() throws {
        let loop = DrumLoop(bpm: 120, sampleRate: 48_000, seconds: 30)
        let path = Tool.temporaryPath("loop-120.wav")
        defer { unlink(path) }
        try WAVWriter.write(path, sampleRate: 48_000, channels: [loop.render()])
        background.append(try startBackground("jack-play", [path], server: server))
        let player = try waitForAnyPort(prefix: "jack-play", server: server)

        let python = try Receiver(.pythonOSC, seconds: 9)
        let started = Date().timeIntervalSince1970
        let run = try Tool.capture(Tool.jacktap, [player, "--osc", "127.0.0.1:\(python.port)", "--duration", "7",
                                                  "--quiet"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let beats = python.messages().filter { $0.address == "/jacktap/in_1/beat" }
        XCTAssertGreaterThan(beats.count, 6, "7 s at 120 BPM, locked after at most 4 s")
        let first = try XCTUnwrap(beats.first { abs($0.floats[1] - 120) <= 1 })
        let lock = try XCTUnwrap(first.received) - started
        XCTAssertLessThanOrEqual(lock, 4, "first beat at 120 ± 1 BPM \(lock) s after jacktap started")
        let after = beats.drop { $0.received! < first.received! }
        XCTAssertTrue(after.allSatisfy { abs($0.floats[1] - 120) <= 1 }, "\(after.map(\.floats))")
        let counts = after.map { Int($0.floats[0]) }
        XCTAssertEqual(counts, Array(counts[0]..<(counts[0] + counts.count)), "the counter goes up one per beat")
        // Every beat bundle carries the wall-clock instant of its beat: timetags as far apart as the beats'
        // arrivals (a beat period, 0.5 s of audio; on a loaded machine the dummy server's audio runs a little
        // slower than the wall clock, and both spacings show it). Medians, since each mapping from audio time to
        // the wall clock is taken at a wake-up of a thread on a loaded machine.
        let tags = after.compactMap(\.timetag)
        XCTAssertEqual(tags.count, after.count, "beats go in bundles with a timetag")
        XCTAssertTrue(zip(tags, tags.dropFirst()).allSatisfy { $0 < $1 })
        let arrivals = after.compactMap(\.received)
        XCTAssertEqual(median(zip(tags, tags.dropFirst()).map { $1 - $0 }),
                       median(zip(arrivals, arrivals.dropFirst()).map { $1 - $0 }), accuracy: 0.02)
    }
}
