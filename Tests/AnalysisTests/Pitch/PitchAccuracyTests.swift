import Analysis
import XCTest

/// The tracker reads the fundamental: sines across E1…4 kHz within cents, harmonic-rich tones without octave
/// errors, at the sample rates jacktap meets.
final class PitchAccuracyTests: XCTestCase {
    let rates = [44_100.0, 48_000, 96_000]

    /// Estimates made once the window holds only the tone.
    func steadyEstimates(_ samples: [Float], rate: Double, config: PitchConfig = PitchConfig()) -> [PitchEstimate] {
        let tracker = PitchTracker(config: config, sampleRate: rate)
        return PitchSignal.estimates(tracker, samples, chunk: tracker.hopSize).map(\.estimate)
    }

    func testSinesFromE1To4kHzReadWithinThreeCentsAtEveryRate() {
        for rate in rates {
            for frequency in [41.2034, 55, 98, 261.626, 440, 1_000, 2_093, 3_520, 4_000] {
                let estimates = steadyEstimates(PitchSignal.sine(frequency, rate: rate, seconds: 0.25), rate: rate)
                XCTAssertGreaterThan(estimates.count, 10)
                for e in estimates {
                    XCTAssertEqual(PitchSignal.cents(e.frequency, from: frequency), 0, accuracy: 3,
                                   "\(frequency) Hz at \(rate)")
                    XCTAssertTrue(e.voiced, "\(frequency) Hz at \(rate)")
                    XCTAssertGreaterThan(e.confidence, 0.95, "\(frequency) Hz at \(rate)")
                }
            }
        }
    }

    /// E1 (41.2 Hz) needs a 4,096-sample FFT at 48 kHz: the window spans two of its periods, 2,330 samples.
    func testE1IsReadAt48kHzWithTheDefaultRange() {
        let rate = 48_000.0
        let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
        XCTAssertGreaterThanOrEqual(Double(tracker.windowSize), 2 * rate / 41.2034)
        let estimates = PitchSignal.estimates(tracker, PitchSignal.sawtooth(41.2034, rate: rate, seconds: 0.4),
                                              chunk: tracker.hopSize).map(\.estimate)
        XCTAssertFalse(estimates.isEmpty)
        for e in estimates {
            XCTAssertTrue(e.voiced)
            XCTAssertEqual(PitchSignal.cents(e.frequency, from: 41.2034), 0, accuracy: 5)
        }
    }

    /// A sawtooth has every harmonic at 1/k: the classic bait for octave-up errors.
    func testSawtoothIsReadAtItsFundamental() {
        for rate in rates {
            for frequency in [61.74, 110, 196, 440, 880, 1_760] {
                let estimates = steadyEstimates(PitchSignal.sawtooth(frequency, rate: rate, seconds: 0.2), rate: rate)
                XCTAssertFalse(estimates.isEmpty)
                for e in estimates {
                    XCTAssertEqual(PitchSignal.cents(e.frequency, from: frequency), 0, accuracy: 5,
                                   "\(frequency) Hz at \(rate)")
                    XCTAssertTrue(e.voiced)
                }
            }
        }
    }

    /// A decaying plucked string: inharmonic attack, a spectrum that changes as it rings.
    func testPluckedStringIsReadAtItsFundamental() {
        let rate = 48_000.0
        for delay in [109, 218, 436, 872] {
            let frequency = rate / (Double(delay) + 0.5)
            let estimates = steadyEstimates(PitchSignal.pluck(delay: delay, rate: rate, seconds: 0.6), rate: rate)
            let voiced = estimates.filter(\.voiced)
            XCTAssertGreaterThan(voiced.count, estimates.count * 9 / 10, "\(frequency) Hz")
            for e in voiced {
                XCTAssertEqual(PitchSignal.cents(e.frequency, from: frequency), 0, accuracy: 10, "\(frequency) Hz")
            }
        }
    }

    func testA4SettingNamesNotesAgainstThatTuning() {
        let rate = 48_000.0
        var config = PitchConfig()
        config.a4 = 432
        let tracker = PitchTracker(config: config, sampleRate: rate)
        let readings = PitchSignal.estimates(tracker, PitchSignal.sine(440, rate: rate, seconds: 0.2), chunk: 256)
        let note = readings.last?.note
        XCTAssertEqual(note?.name, "A4")
        XCTAssertEqual(note?.midi, 69)
        // 1200·log2(440/432) = 31.77 cents.
        XCTAssertEqual(Double(note?.cents ?? 0), 31.77, accuracy: 2)
    }
}
