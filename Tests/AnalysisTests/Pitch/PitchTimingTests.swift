import Analysis
import XCTest

/// Each estimate describes the centre of its window (stamping at the block's end cost aubio 3.5 points of raw
/// pitch accuracy, measured with mir_eval), and the hop does not depend on how the stream is cut.
final class PitchTimingTests: XCTestCase {
    /// Two notes of equal level, A3 then D#4 (a tritone: no short common period), switching at a known frame.
    /// Mixed windows read neither; the last A3 and the first D#4 estimates sit symmetrically about the switch,
    /// not half a window (25 ms) after it as an end-of-window stamp would put them.
    func testNoteChangeIsStampedAtTheSwitchFrame() {
        for rate in [44_100.0, 48_000, 96_000] {
            let switchFrame = Int(0.3 * rate)
            let samples = PitchSignal.tone(rate: rate, seconds: 0.6) { $0 < 0.3 ? 220 : 311.127 }
            let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
            let estimates = PitchSignal.estimates(tracker, samples, chunk: 1).map(\.estimate)
            let firstNew = estimates.first { abs(PitchSignal.cents($0.frequency, from: 311.127)) < 50 }
            let lastOld = estimates.last { abs(PitchSignal.cents($0.frequency, from: 220)) < 50 }
            guard let firstNew, let lastOld else { return XCTFail("\(rate): a note is never read") }
            XCTAssertGreaterThan(firstNew.centreFrame, lastOld.centreFrame)
            XCTAssertEqual((firstNew.centreFrame + lastOld.centreFrame) / 2, switchFrame,
                           accuracy: tracker.windowSize / 10, "\(rate)")
            XCTAssertLessThan(firstNew.centreFrame - lastOld.centreFrame, tracker.windowSize, "\(rate)")
        }
    }

    /// A tone after silence is first voiced at an estimate centred within half a window before its onset,
    /// never after it.
    func testToneOnsetIsFirstVoicedNearTheOnsetFrame() {
        let rate = 48_000.0
        let onset = 12_000
        let samples = [Float](repeating: 0, count: onset) + PitchSignal.sine(440, rate: rate, seconds: 0.2)
        let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
        let estimates = PitchSignal.estimates(tracker, samples, chunk: 64).map(\.estimate)
        let first = estimates.first(where: \.voiced)
        XCTAssertNotNil(first)
        XCTAssertLessThanOrEqual(first?.centreFrame ?? .max, onset + tracker.hopSize)
        XCTAssertGreaterThanOrEqual(first?.centreFrame ?? .min, onset - tracker.windowSize / 2)
    }

    func testEstimatesAreIdenticalWhateverTheChunkSize() {
        let rate = 48_000.0
        let samples = PitchSignal.tone(rate: rate, seconds: 0.5) { 150 * pow(2, $0 * 3) }
            + PitchSignal.pink(count: 10_000, amplitude: 0.2, seed: 4)
        let reference = PitchSignal.estimates(PitchTracker(config: PitchConfig(), sampleRate: rate), samples, chunk: 1)
        XCTAssertGreaterThan(reference.count, 80)
        for chunk in [64, 1_000, 4_097] {
            let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
            let readings = PitchSignal.estimates(tracker, samples, chunk: chunk)
            XCTAssertFalse(readings.isEmpty)
            for reading in readings {
                let same = reference.first { $0.estimate.centreFrame == reading.estimate.centreFrame }
                XCTAssertEqual(same?.estimate, reading.estimate, "chunk \(chunk)")
                XCTAssertEqual(same?.note, reading.note, "chunk \(chunk)")
            }
            XCTAssertEqual(readings.last?.estimate, reference.last?.estimate)
        }
    }

    func testEstimatesComeEveryHopOnceTheWindowIsFull() {
        let rate = 44_100.0
        let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
        let estimates = PitchSignal.estimates(tracker, PitchSignal.sine(440, rate: rate, seconds: 0.3)).map(\.estimate)
        XCTAssertEqual(estimates.first?.centreFrame, tracker.windowSize / 2)
        for (a, b) in zip(estimates, estimates.dropFirst()) { XCTAssertEqual(b.centreFrame - a.centreFrame, tracker.hopSize) }
        // A reader at 100 Hz always finds a new estimate.
        XCTAssertLessThanOrEqual(Double(tracker.hopSize), rate / 100)
    }
}
