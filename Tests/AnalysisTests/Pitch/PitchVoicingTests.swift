import Analysis
import XCTest

/// Voicing: noise and silence carry no pitch; both gates are settable.
final class PitchVoicingTests: XCTestCase {
    func testWhiteAndPinkNoiseAreUnvoiced() {
        for rate in [44_100.0, 48_000, 96_000] {
            for (kind, noise) in [("white", PitchSignal.white(count: Int(rate * 2), amplitude: 0.5, seed: 11)),
                                  ("pink", PitchSignal.pink(count: Int(rate * 2), amplitude: 0.5, seed: 12))] {
                let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
                let estimates = PitchSignal.estimates(tracker, noise, chunk: tracker.hopSize).map(\.estimate)
                XCTAssertGreaterThan(estimates.count, 300)
                let voiced = estimates.filter(\.voiced).count
                XCTAssertLessThanOrEqual(Double(voiced), 0.02 * Double(estimates.count), "\(kind) noise at \(rate)")
                XCTAssertNil(tracker.note)
            }
        }
    }

    func testSilenceGivesFrequencyZeroUnvoicedAndNoNote() {
        let tracker = PitchTracker(config: PitchConfig(), sampleRate: 48_000)
        XCTAssertNil(tracker.latest)
        let readings = PitchSignal.estimates(tracker, [Float](repeating: 0, count: 24_000), chunk: 100)
        XCTAssertFalse(readings.isEmpty)
        for (estimate, note) in readings {
            XCTAssertEqual(estimate.frequency, 0)
            XCTAssertEqual(estimate.confidence, 0)
            XCTAssertFalse(estimate.voiced)
            XCTAssertNil(note)
        }
    }

    func testToneBelowTheLevelGateIsUnvoicedButKeepsItsCandidate() {
        let rate = 48_000.0
        // Peak 10^(-67/20) ≈ 0.000447: RMS -70 dBFS.
        let quiet = PitchSignal.sine(220, rate: rate, seconds: 0.2, amplitude: 0.000447)
        let gated = PitchTracker(config: PitchConfig(), sampleRate: rate)
        let estimates = PitchSignal.estimates(gated, quiet, chunk: 480)
        XCTAssertFalse(estimates.isEmpty)
        for (estimate, note) in estimates {
            XCTAssertFalse(estimate.voiced)
            XCTAssertNil(note)
            XCTAssertEqual(PitchSignal.cents(estimate.frequency, from: 220), 0, accuracy: 3)
        }
        var config = PitchConfig()
        config.levelGateDB = -80
        let open = PitchTracker(config: config, sampleRate: rate)
        XCTAssertTrue(PitchSignal.estimates(open, quiet, chunk: 480).allSatisfy { $0.estimate.voiced && $0.note != nil })
    }

    func testConfidenceGateIsSettable() {
        let rate = 48_000.0
        let tone = PitchSignal.sine(330, rate: rate, seconds: 0.2)
        var config = PitchConfig()
        config.confidenceGate = 1.01
        let tracker = PitchTracker(config: config, sampleRate: rate)
        let estimates = PitchSignal.estimates(tracker, tone, chunk: 240)
        XCTAssertFalse(estimates.isEmpty)
        XCTAssertTrue(estimates.allSatisfy { !$0.estimate.voiced && $0.note == nil && $0.estimate.frequency > 0 })
    }

    func testResetForgetsTheStream() {
        let rate = 48_000.0
        let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
        let tone = PitchSignal.sine(440, rate: rate, seconds: 0.2)
        let first = PitchSignal.estimates(tracker, tone, chunk: 100).map(\.estimate)
        tracker.reset()
        XCTAssertNil(tracker.latest)
        XCTAssertNil(tracker.note)
        XCTAssertEqual(PitchSignal.estimates(tracker, tone, chunk: 100).map(\.estimate), first)
    }
}
