import Analysis
import XCTest

/// Onsets of clicks at known instants: found at the instant, reported within 20 ms (aubio's hfc 1024/128
/// reports at a median +23 ms, measured with mir_eval), with the minimum gap honoured and nothing reported
/// for silence or steady tones.
final class OnsetDetectionTests: XCTestCase {
    /// Clicks at irregular instants 0.2–0.5 s apart.
    let times: [Double] = (0..<20).map { (i: Int) -> Double in
        let n = Double(i)
        return 0.3 + n * 0.35 + 0.1 * sin(n * 1.7)
    }

    func testIsolatedClicksAreFoundWithinEightMillisecondsAndReportedWithinTwenty() {
        for rate in [44_100.0, 48_000, 96_000] {
            let run = RhythmRun(clicks(at: times, seconds: 8, sampleRate: rate), sampleRate: rate)
            XCTAssertEqual(run.onsets.count, times.count, "\(rate) Hz")
            for (onset, time) in zip(run.onsets, times) {
                // The onset delay is set for GM drum samples, whose attack lasts a few ms: a bare click reads ~6 ms early.
                XCTAssertEqual(Double(onset.frame) / rate, time, accuracy: 0.008, "\(rate) Hz")
                let delay = Double(onset.reportedFrame) / rate - time
                XCTAssertGreaterThanOrEqual(delay, 0, "reported before the click, \(rate) Hz")
                XCTAssertLessThanOrEqual(delay, 0.020, "\(rate) Hz")
                XCTAssertGreaterThan(onset.strength, 0.2)
                XCTAssertLessThanOrEqual(onset.strength, 1)
            }
        }
    }

    func testTheMinimumGapIsHonoured() {
        // Pairs of clicks 40 ms apart: with a 30 ms gap both count; with the default 50 ms gap, and with 60 ms,
        // only the first.
        var pairs: [Double] = []
        for i in 0..<10 {
            let first = 0.3 + Double(i) * 0.4
            pairs += [first, first + 0.04]
        }
        let signal = clicks(at: pairs, seconds: 5, sampleRate: 48_000)
        var config = RhythmConfig()
        config.onsetMinimumGap = 0.030
        XCTAssertEqual(RhythmRun(signal, sampleRate: 48_000, config: config).onsets.count, 20)
        for gap in [RhythmConfig().onsetMinimumGap, 0.060] {
            config.onsetMinimumGap = gap
            let run = RhythmRun(signal, sampleRate: 48_000, config: config)
            XCTAssertEqual(run.onsets.count, 10, "gap \(gap) s")
            for (a, b) in zip(run.onsets, run.onsets.dropFirst()) {
                XCTAssertGreaterThanOrEqual(b.frame - a.frame, Int(gap * 48_000), "gap \(gap) s")
            }
        }
    }

    func testSilenceAndSteadyTonesGiveNoOnsets() {
        let rate = 48_000.0
        XCTAssertEqual(RhythmRun([Float](repeating: 0, count: Int(3 * rate)), sampleRate: rate).onsets, [])
        for frequency in [55.0, 440, 3_000] {
            let tone = sine(frequency, amplitude: 0.5, seconds: 6, sampleRate: rate)
            let tracker = RhythmTracker(config: RhythmConfig(), sampleRate: rate)
            // The tone's start is an onset; after the first second the tone is steady.
            let start = RhythmRun(tracker, Array(tone[..<Int(rate)]), chunk: 512)
            XCTAssertLessThanOrEqual(start.onsets.count, 1)
            XCTAssertEqual(RhythmRun(tracker, Array(tone[Int(rate)...]), chunk: 512).onsets, [], "\(frequency) Hz")
        }
        // Steady noise is steady too.
        var seed: UInt32 = 7
        let noise = (0..<Int(4 * rate)).map { _ -> Float in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return 0.1 * Float(Int32(bitPattern: seed)) / Float(Int32.max)
        }
        let tracker = RhythmTracker(config: RhythmConfig(), sampleRate: rate)
        _ = RhythmRun(tracker, Array(noise[..<Int(rate)]), chunk: 512)
        XCTAssertLessThanOrEqual(RhythmRun(tracker, Array(noise[Int(rate)...]), chunk: 512).onsets.count, 1)
    }
}
