import Foundation
import ToolSupport
import XCTest

/// Every synthesisable EBU Tech 3341 (1–6, 9–23) and Tech 3342 (1–4) case, run through `jacktap analyze` and
/// live through a private jackd, at periods of 64, 256 and 1024 frames: each within the standard's tolerance
/// at every period size. Live, all cases play at once (one player and one jacktap each), in real time.
final class LoudnessComplianceTests: XCTestCase {
    /// One JSON tick as jacktap printed it.
    struct Tick {
        var t: Double
        let object: [String: Any]
        /// Whether any port saw a sample since the previous tick.
        var heardSomething: Bool {
            object.values.contains { (($0 as? [String: Any])?["peak"] as? NSNumber).map { $0.doubleValue > -200 } ?? false }
        }
        func loudness(_ programme: String, _ key: String) -> Double? {
            (((object[programme] as? [String: Any])?["loudness"] as? [String: Any])?[key] as? NSNumber)?.doubleValue
        }
        func truePeak(_ port: String) -> Double? {
            ((object[port] as? [String: Any])?["truepeak"] as? NSNumber)?.doubleValue
        }
    }

    /// A test signal: channels, the programmes over them, and the checks on what jacktap reported.
    struct Case {
        let name: String
        let channels: [[Float]]
        let programmes: [String]
        let check: (_ ticks: [Tick], _ context: String) -> Void
    }

    static let periods = [64, 256, 1024]

    func within(_ value: Double?, _ expected: Double, _ tolerance: Double, _ message: String,
                file: StaticString = #filePath, line: UInt = #line) {
        guard let value else { return XCTFail("no value: \(message)", file: file, line: line) }
        XCTAssertEqual(value, expected, accuracy: tolerance, message, file: file, line: line)
    }

    func cases() -> [Case] {
        typealias S = ComplianceSignals
        var all = [Case]()
        // 3341-1, -2: M, S and I of a steady stereo tone; M and S checked on every tick while the tone plays.
        for (n, level) in [(1, -23.0), (2, -33.0)] {
            all.append(Case(name: "3341-\(n)", channels: S.stereo(S.tone(level, seconds: 20)), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
                for tick in ticks where tick.t > 3.2 && tick.t < 19.9 {
                    self.within(tick.loudness("p", "momentary"), level, 0.1, "\(ctx) M at \(tick.t)")
                    self.within(tick.loudness("p", "shortterm"), level, 0.1, "\(ctx) S at \(tick.t)")
                }
                self.within(ticks.last?.loudness("p", "integrated"), level, 0.1, "\(ctx) I")
            })
        }
        let integratedCases: [(Int, [(Double?, Double)])] = [
            (3, [(-36, 10), (-23, 60), (-36, 10)]),
            (4, [(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)]),
            (5, [(-26, 20), (-20, 20.1), (-26, 20)]),
        ]
        for (n, steps) in integratedCases {
            all.append(Case(name: "3341-\(n)", channels: S.stereo(S.steps(steps)), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
                self.within(ticks.last?.loudness("p", "integrated"), -23, 0.1, "\(ctx) I")
            })
        }
        // 3341-6: 5.0, L and R at -28, C at -24, Ls and Rs at -30 dBFS.
        let surround = [-28.0, -28, -24, -30, -30].map { S.tone($0, seconds: 20) }
        all.append(Case(name: "3341-6", channels: surround, programmes: ["p=in_1:L,in_2:R,in_3:C,in_4:Ls,in_5:Rs"]) { ticks, ctx in
            self.within(ticks.last?.loudness("p", "integrated"), -23, 0.1, "\(ctx) I")
        })
        all.append(Case(name: "3341-9", channels: S.stereo(S.case9), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
            let late = ticks.filter { $0.t > 3.1 && $0.t < 14.9 }
            XCTAssertFalse(late.isEmpty)
            for tick in late { self.within(tick.loudness("p", "shortterm"), -23, 0.1, "\(ctx) S at \(tick.t)") }
        })
        all.append(Case(name: "3341-10", channels: (0..<20).flatMap { S.stereo(S.case10($0)) }.padded(),
                         programmes: (0..<20).map { "s\($0)=in_\(2 * $0 + 1):L,in_\(2 * $0 + 2):R" }) { ticks, ctx in
            for i in 0..<20 { self.within(ticks.last?.loudness("s\(i)", "max_shortterm"), -23, 0.1, "\(ctx) signal \(i)") }
        })
        all.append(Case(name: "3341-11", channels: S.stereo(S.case11), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
            for i in 0..<20 {
                let toneEnd = 6.0 * Double(i) + 0.15 * Double(i) + 3
                let after = self.firstTick(after: toneEnd + 0.1, in: ticks)
                self.within(after?.loudness("p", "max_shortterm"), Double(-38 + i), 0.1, "\(ctx) segment \(i)")
            }
        })
        all.append(Case(name: "3341-12", channels: S.stereo(S.case12), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
            let late = ticks.filter { $0.t > 0.45 && $0.t < 9.9 }
            XCTAssertFalse(late.isEmpty)
            for tick in late { self.within(tick.loudness("p", "momentary"), -23, 0.1, "\(ctx) M at \(tick.t)") }
        })
        all.append(Case(name: "3341-13", channels: (0..<20).flatMap { S.stereo(S.case13($0)) }.padded(),
                         programmes: (0..<20).map { "s\($0)=in_\(2 * $0 + 1):L,in_\(2 * $0 + 2):R" }) { ticks, ctx in
            for i in 0..<20 { self.within(ticks.last?.loudness("s\(i)", "max_momentary"), -23, 0.1, "\(ctx) signal \(i)") }
        })
        all.append(Case(name: "3341-14", channels: S.stereo(S.case14), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
            for i in 0..<20 {
                let toneEnd = 0.8 * Double(i) + 0.02 * Double(i) + 0.4
                let after = self.firstTick(after: toneEnd + 0.1, in: ticks)
                self.within(after?.loudness("p", "max_momentary"), Double(-38 + i), 0.1, "\(ctx) segment \(i)")
            }
        })
        // 3341-15…23: true peak, one mono port each (expected dBTP, tolerance +0.2 / -0.4).
        let peaks: [(String, [Float], Double)] = [
            ("15", S.truePeakSine(fraction: 0.25, amplitude: 0.5, phaseDegrees: 0), -6),
            ("16", S.truePeakSine(fraction: 0.25, amplitude: 0.5, phaseDegrees: 45), -6),
            ("17", S.truePeakSine(fraction: 1.0 / 6, amplitude: 0.5, phaseDegrees: 60), -6),
            ("18", S.truePeakSine(fraction: 0.125, amplitude: 0.5, phaseDegrees: 67.5), -6),
            ("19", S.truePeakSine(fraction: 0.25, amplitude: 1.41, phaseDegrees: 45), 3),
        ] + (0..<4).map { ("\(20 + $0)", S.truePeakBurst(offset: $0), 0.0) }
        all.append(Case(name: "3341-15..23", channels: peaks.map(\.1).padded(), programmes: []) { ticks, ctx in
            for (i, (n, _, expected)) in peaks.enumerated() {
                let tp = ticks.compactMap { $0.truePeak("in_\(i + 1)") }.max()
                guard let tp else { return XCTFail("\(ctx) case \(n): no true peak") }
                XCTAssertTrue(tp >= expected - 0.4 && tp <= expected + 0.2, "\(ctx) case \(n): \(tp) dBTP")
            }
        })
        // Tech 3342 cases 1–4: 20 s steps, LRA ± 1 LU.
        let ranges: [(Int, [Double], Double)] = [
            (1, [-20, -30], 10), (2, [-20, -15], 5), (3, [-40, -20], 20), (4, [-50, -35, -20, -35, -50], 15),
        ]
        for (n, levels, expected) in ranges {
            all.append(Case(name: "3342-\(n)", channels: S.stereo(S.steps(levels.map { ($0, 20) })),
                            programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
                self.within(ticks.last?.loudness("p", "range"), expected, 1, "\(ctx) LRA")
            })
        }
        // A steady tone has no loudness range at all.
        all.append(Case(name: "steady", channels: S.stereo(S.tone(-23, seconds: 20)), programmes: ["p=in_1:L,in_2:R"]) { ticks, ctx in
            self.within(ticks.last?.loudness("p", "range"), 0, 0.0001, "\(ctx) LRA of a steady tone")
        })
        return all
    }

    /// The first tick at or after `time`, or the last tick (the end of the file) when the file ends sooner.
    func firstTick(after time: Double, in ticks: [Tick]) -> Tick? {
        ticks.first { $0.t >= time } ?? ticks.last
    }

    func write(_ c: Case) throws -> String {
        let path = Tool.temporaryPath("compliance-\(c.name).wav")
        try WAVWriter.write(path, sampleRate: ComplianceSignals.rate, channels: c.channels)
        return path
    }

    func arguments(_ c: Case) -> [String] {
        // A broadcast meter's run: loudness and true peak only (`--music none`), so that twenty live runs in
        // parallel on two cores leave the private server its real time.
        ["--json", "--meters", "truepeak,loudness", "--music", "none"] + c.programmes.flatMap { ["--program", $0] }
    }

    func testEveryCaseThroughAnalyzeAtEveryPeriodSize() throws {
        for c in cases() {
            let path = try write(c)
            defer { unlink(path) }
            for period in Self.periods {
                let output = try Tool.run(Tool.jacktap, ["analyze", path, "--period", String(period)] + arguments(c))
                c.check(ticks(output), "analyze \(c.name) period \(period)")
            }
        }
    }

    func testEveryCaseLiveThroughJackAtEveryPeriodSize() throws {
        // The steady tone's LRA of exactly 0 is checked through analyze: live, the period or two of silence
        // before the file reaches jacktap make short-term windows that are not steady.
        let all = cases().filter { $0.name != "steady" }
        let files = try all.map(write)
        defer { files.forEach { unlink($0) } }
        for period in Self.periods {
            let server = try PrivateJackServer(rate: ComplianceSignals.rate, period: period)
            defer { server.stop() }
            let runs = try all.indices.map { try LiveRun(index: $0, path: files[$0], channels: all[$0].channels.count,
                                                         arguments: arguments(all[$0]), server: server) }
            for (c, run) in zip(all, runs) {
                c.check(aligned(ticks(run.finish())), "live \(c.name) period \(period)")
            }
        }
    }

    /// One case played live: `jacktap generate --file --on-connect` as the player, and a jacktap that connects
    /// to it at its start, so the file reaches jacktap from its first frame; jacktap is stopped as soon as the
    /// file has played.
    final class LiveRun {
        let player: ChildProcess
        let tap: ChildProcess
        let outPath: String
        let errPath: String

        init(index: Int, path: String, channels: Int, arguments: [String], server: PrivateJackServer) throws {
            outPath = Tool.temporaryPath("live-\(index).jsonl")
            errPath = Tool.temporaryPath("live-\(index).err")
            player = try startGenerator(["--file", path, "--name", "g\(index)", "--on-connect"], server: server)
            tap = try Tool.start(Tool.jacktap, ["--connect", "g\(index):out_*", "-n", "t\(index)"] + arguments,
                                 environment: server.environment, stdoutPath: outPath, stderrPath: errPath)
        }

        /// Stops both processes if they still run (a test that failed or threw before `finish`).
        deinit {
            stopAndReap(player)
            stopAndReap(tap)
        }

        /// Waits for the player to reach the end of its file, stops jacktap, returns what it printed. The audio
        /// runs as fast as the machine lets the server run, so the wait is not bounded by the file's length on
        /// the wall clock: it fails only when jacktap's output stops growing for `eventTimeout` seconds.
        func finish() -> String {
            var size = -1
            var grown = Date()
            while player.isRunning {
                let now = (try? FileManager.default.attributesOfItem(atPath: outPath)[.size] as? Int) ?? 0
                if now != size { size = now; grown = Date() }
                if Date().timeIntervalSince(grown) > eventTimeout { break }
                usleep(100_000)
            }
            let played = player.wait(timeout: 0)
            if played == nil { player.signal(SIGKILL); player.wait() }
            XCTAssertEqual(played, 0, "the player ran to the end of its file")
            tap.signal(SIGINT)
            let stopped = tap.wait(timeout: eventTimeout)
            if stopped == nil { tap.signal(SIGKILL); tap.wait() }
            XCTAssertEqual(stopped, 0, "jacktap stopped cleanly")
            let errors = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            // What jacktap said, less the line per connection (forty for the 40-channel cases).
            let said = errors.split(separator: "\n").filter { !$0.contains(" → ") }.joined(separator: "\n")
            XCTAssertFalse(errors.contains("fell behind"), said)
            let output = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
            unlink(outPath)
            unlink(errPath)
            return output
        }
    }

    /// Live, jacktap's clock starts before the file plays: times are made relative to the last tick before the
    /// first one that heard the file (every case starts with sound on some channel). That over-states a time
    /// by less than one tick, which the checks allow for (the 0.1 s margins above).
    func aligned(_ ticks: [Tick]) -> [Tick] {
        guard let first = ticks.firstIndex(where: \.heardSomething) else { return ticks }
        let start = first > 0 ? ticks[first - 1].t : 0
        return ticks[first...].map { var tick = $0; tick.t -= start; return tick }
    }

    func ticks(_ output: String) -> [Tick] {
        jsonLines(output).compactMap { object in (object["t"] as? NSNumber).map { Tick(t: $0.doubleValue, object: object) } }
    }
}

extension Array where Element == [Float] {
    /// Every channel padded with silence to the longest.
    func padded() -> [[Float]] {
        let n = map(\.count).max() ?? 0
        return map { $0 + [Float](repeating: 0, count: n - $0.count) }
    }
}
