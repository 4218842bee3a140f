import Foundation
import ToolSupport
import XCTest

/// Channels on another machine reach jacktap with the JACK tools made for it, not with anything of jacktap's:
/// zita-njbridge carries a tone over UDP (loopback here), through its receive buffer and resampler, and a jacktap
/// tapping the far end reads what a jacktap tapping the tone itself reads.
///
/// Both zita ends are clients of one server, so the two ends share one clock, as two machines whose sound cards
/// are word-clocked together do. Two private servers are two dummy backends, two clocks made of sleeps, and on
/// some machines they run 2–3 % apart for minutes even when the machine is quiet: zita's resampler then never
/// locks, whatever jacktap does. `Benchmarks/two-clocks` runs that two-server bridge and reports the ratio it saw.
final class NetworkBridgeTests: XCTestCase {
    /// The figures of the last tick a jacktap printed to `path`: the port's and the programme's.
    func figures(_ path: String, port: String = "in_1") throws -> [String: Double] {
        let ticks = tickLines(jsonLines(try String(contentsOfFile: path, encoding: .utf8)))
        let last = try XCTUnwrap(ticks.last)
        let meters = try XCTUnwrap(last[port] as? [String: Any])
        let loudness = try XCTUnwrap((last["main"] as? [String: Any])?["loudness"] as? [String: Any])
        var out = [String: Double]()
        for key in ["peak", "rms", "truepeak"] { out[key] = (meters[key] as? NSNumber)?.doubleValue }
        for key in ["momentary", "shortterm"] { out[key] = (loudness[key] as? NSNumber)?.doubleValue }
        return out
    }

    /// One line zita-n2j's `--info` prints about every 250 ms while it receives: the JACK cycles it sums up,
    /// their mean resampling ratio and the fewest frames its receive buffer held after any of them (0: the
    /// buffer ran dry and the cycle was padded with silence; below 0: zita skipped ahead past the audio).
    struct BridgeReading: CustomStringConvertible {
        let cycles: Int
        let ratio: Double
        let fewestFrames: Int
        var description: String { "\(cycles) cycles: ratio \(ratio), fewest \(fewestFrames) frames" }

        /// zita-n2j queues a reading per cycle in a queue of 256 and drops those that find it full: a line
        /// summing 256 cycles may have lost some, one of which may have run dry.
        static let queueSize = 256
        /// Both ends run off one server's clock, so once zita's loop has locked its ratio stays within a few
        /// 1e-5 of 1 (still tracking: off by up to 1.6e-2 while it syncs). It matters to the figures: a ratio
        /// off by 1.6e-2 plays the 997 Hz tone at 1013 Hz, 0.036 dB louder through the K-weighting filter.
        static let steadyRatio = 2e-4

        /// Whether the cycles it sums up were all fed from the buffer, with the resampler locked.
        var isSteady: Bool {
            fewestFrames > 0 && abs(ratio - 1) <= BridgeReading.steadyRatio && cycles < BridgeReading.queueSize
        }
    }

    /// zita-n2j's `--info` output so far, line by line: a reading for each line of figures, nil for each line
    /// saying that it (re)synchronises ("Syncing...", "Receiving.", "Waiting for 10.0 seconds..."). A line not
    /// yet ended is left for the next read.
    func bridgeReadings(_ path: String) -> [BridgeReading?] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().filter { !$0.isEmpty }.map {
            // "%3d %8.3lf %9.6lf %8d": cycles, mean delay error (frames), mean ratio, fewest frames.
            let fields = $0.split(separator: " ")
            guard fields.count >= 4, let cycles = Int(fields[0]), Double(fields[1]) != nil,
                  let ratio = Double(fields[2]), let fewestFrames = Int(fields[3]) else { return nil }
            return BridgeReading(cycles: cycles, ratio: ratio, fewestFrames: fewestFrames)
        }
    }

    /// The readings since the last one that was not steady: the index of the first and the seconds of audio
    /// (`cycleSeconds` a JACK cycle) they sum up.
    func steadyRun(_ readings: [BridgeReading?], cycleSeconds: Double) -> (start: Int, seconds: Double) {
        let start = (readings.lastIndex { !($0?.isSteady ?? false) } ?? -1) + 1
        return (start, Double(readings[start...].reduce(0) { $0 + ($1?.cycles ?? 0) }) * cycleSeconds)
    }

    /// The tick lines jacktap has printed to `path` so far.
    func tickCount(_ path: String) -> Int {
        tickLines(jsonLines((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")).count
    }

    /// How long zita's loop may take to lock: 30 s from its start beside 6 busy loops, and again after each
    /// disturbance of its packets' arrival times; the test returns as soon as it has, quiet machines at once.
    static let lockTimeout = 180.0

    func testAToneBridgedByZitaNjbridgeReadsTheSameAtTheFarEnd() throws {
        // 2048 frames (43 ms): zita-n2j takes a gap between one cycle's end and the next one's start on the
        // server's clock for cycles the sender skipped, and throws that much audio away, which pushes its loop
        // off by up to 2e-2 for tens of seconds. The dummy backend leaves such a gap whenever a cycle comes later
        // than the next one was due, as on a virtual machine whose host stops it for a while: an SCHED_FIFO
        // thread sleeping 1 ms there woke up 5-35 ms late about once a second, the machine otherwise idle. At 256
        // frames, a minute of that held zita's ratio within 2e-4 for 7 s at most; at 2048, for 72 s of 90.
        let rate = 48_000, period = 2048
        // At real-time priority zita's receiving thread and both ends' process callbacks run on time under load:
        // measured beside 6 busy loops, zita's ratio locked within 2e-4 for 30 s at a stretch; without it, beside
        // a build, it wandered by 1e-3 for the whole minute.
        let server = try privateServer(rate: rate, period: period, realTime: true)
        let udpPort = String(Int.random(in: 20_000...60_000))
        let arguments = ["--json", "--music", "none", "--meters", "truepeak,loudness"]
        let here = Tool.temporaryPath("bridge-sending.jsonl")
        let there = Tool.temporaryPath("bridge-receiving.jsonl")
        defer { unlink(here); unlink(there) }
        // 997 Hz: not a divisor of the rate, so over a tick the samples pass every phase of the sine and the
        // sample peak is its crest on both sides, whatever delay the bridge's resampler adds.
        try backgroundGenerator(["--tone", "997", "--level", "-6", "--name", "tone"], server: server)
        _ = try background("zita-j2n", ["--jname", "j2n", "--chan", "1", "--float", "127.0.0.1", udpPort],
                           server: server)
        try waitForPort("j2n:in_1", server: server)
        _ = try Tool.runJackClient("jack_connect", ["tone:out_1", "j2n:in_1"], environment: server.environment)
        // --buff 200: with its default 10 ms zita-n2j's buffer runs dry (a cycle of silence, a glitch) whenever
        // its receiving thread is kept from the CPU for longer, as a loaded machine does.
        // --info prints what its buffer and resampler do (unlinked after zita has stopped: teardown blocks run
        // last-in, first-out); stdbuf -oL, or printf would hold its lines back in a 4 KiB buffer.
        let info = Tool.temporaryPath("bridge-n2j-info.txt")
        addTeardownBlock { unlink(info) }
        _ = try background("stdbuf", ["-oL", "zita-n2j", "--jname", "n2j", "--chan", "1", "--buff", "200", "--info",
                                      "127.0.0.1", udpPort], server: server, stdoutPath: info)
        try waitForPort("n2j:out_1", server: server)
        _ = try background(Tool.jacktap, ["tone:out_1", "-n", "foh"] + arguments, server: server, stdoutPath: here)
        _ = try background(Tool.jacktap, ["n2j:out_1", "-n", "stage"] + arguments, server: server,
                           stdoutPath: there)

        // The sending side reads the tone alone once short-term loudness (a 3 s window) has seen nothing else.
        func level(_ line: [String: Any]) -> Double { ((line["in_1"] as? [String: Any])?["rms"] as? NSNumber)?.doubleValue ?? -200 }
        _ = try waitForJSONLine(in: here) { ($0["t"] as? Double ?? 0) >= 5 && level($0) > -12 }

        // The receiving side reads it only while zita-n2j delivers it whole: its buffer never dry, its ratio
        // locked. Once zita's readings have said so for 4 s (short-term's 3 s and a second for jacktap to print
        // the tick), a tick printed after that is taken, and compared once a reading printed after it says the
        // buffer still never ran dry: a glitch meanwhile would move momentary and short-term loudness.
        let cycleSeconds = Double(period) / Double(rate)
        var readings = [BridgeReading?]()
        var steadyFrom: (run: Int, ticks: Int)?
        var taken: (run: Int, readings: Int, sent: [String: Double], received: [String: Double])?
        var compared: (sent: [String: Double], received: [String: Double])?
        _ = try waitFor(timeout: NetworkBridgeTests.lockTimeout, every: 0.25) {
            readings = bridgeReadings(info)
            let run = steadyRun(readings, cycleSeconds: cycleSeconds)
            if let tick = taken, tick.run == run.start {
                if readings.count > tick.readings { compared = (tick.sent, tick.received) }
                return compared != nil
            }
            taken = nil
            guard run.seconds >= 4 else { steadyFrom = nil; return false }
            guard let steady = steadyFrom, steady.run == run.start else {
                steadyFrom = (run.start, tickCount(there))
                return false
            }
            if tickCount(there) > steady.ticks {
                let received = try figures(there), sent = try figures(here)
                taken = (run.start, readings.count, sent, received)
            }
            return false
        }
        guard let (sent, received) = compared else {
            let last = readings.suffix(12).map { $0.map { "\($0)" } ?? "(re)syncing" }.joined(separator: "; ")
            return XCTFail("zita-n2j's buffer never held audio at a steady ratio for 4 s within "
                           + "\(NetworkBridgeTests.lockTimeout) s"
                           + "(\(readings.count) readings, the last: \(last.isEmpty ? "none" : last))")
        }
        print("zita-njbridge: sent \(sent), received \(received)")
        // The tone itself: a -6 dBFS peak and -9.01 dBFS RMS on the sending side.
        XCTAssertEqual(try XCTUnwrap(sent["peak"]), -6, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(sent["rms"]), -9.01, accuracy: 0.01)
        for key in ["peak", "rms", "truepeak", "momentary", "shortterm"] {
            let a = try XCTUnwrap(sent[key], key), b = try XCTUnwrap(received[key], key)
            XCTAssertEqual(b, a, accuracy: 0.01, "\(key): \(a) sent, \(b) received through zita-njbridge")
        }
    }
}
