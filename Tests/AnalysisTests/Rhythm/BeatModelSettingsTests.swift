@testable import Analysis
import Foundation
import XCTest

/// The tempo prior's two shapes and the `--beat-tuning` keys that choose between them.
final class BeatModelSettingsTests: XCTestCase {
    /// The log-normal: a tempo z standard deviations from the centre costs z²/2 (one octave over 0.5 is z = 2).
    func testTheLogNormalPriorCostsHalfTheSquaredDeviation() {
        var settings = BeatModelSettings.learned
        settings.tempoPriorBPM = 100
        settings.tempoPriorOctaves = 0.5
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 100), 0, accuracy: 1e-12)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 200), 2, accuracy: 1e-12)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 50), 2, accuracy: 1e-12)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 100 * pow(2, 0.25)), 0.125, accuracy: 1e-12)
    }

    /// The data's shape: its values at its tempi (40 BPM and every 1/12 octave to 240), linear in log tempo
    /// between them, and its end values beyond them.
    func testTheDataShapedPriorReadsItsTableLinearlyInLogTempo() throws {
        var settings = BeatModelSettings.learned
        try settings.apply("priorshape=data")
        let shape = BeatModelSettings.trainingTempoShape
        XCTAssertEqual(shape.count, BeatModelSettings.tempoPriorGrid.count)
        XCTAssertEqual(BeatModelSettings.tempoPriorGrid.first ?? 0, 40, accuracy: 1e-9)
        XCTAssertEqual(BeatModelSettings.tempoPriorGrid.last ?? 0, 40 * pow(2, 31.0 / 12), accuracy: 1e-9)
        for (bpm, cost) in zip(BeatModelSettings.tempoPriorGrid, shape) {
            XCTAssertEqual(settings.tempoPriorDeviation(bpm: bpm), cost, accuracy: 1e-9, "at \(bpm) BPM")
        }
        // A quarter of the way from the 20th tempo to the 21st, in log tempo.
        let between = 40 * pow(2, 20.25 / 12)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: between), 0.75 * shape[20] + 0.25 * shape[21], accuracy: 1e-9)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 30), shape[0], accuracy: 1e-9)
        XCTAssertEqual(settings.tempoPriorDeviation(bpm: 300), shape[31], accuracy: 1e-9)
        // −ln of a density relative to its peak: 0 at the peak, above it elsewhere.
        XCTAssertEqual(shape.min(), 0)

        try settings.apply("priorshape=lognormal")
        XCTAssertNil(settings.tempoPriorShape)
        XCTAssertEqual(settings, BeatModelSettings.learned)
        XCTAssertThrowsError(try settings.apply("priorshape=flat"))
    }
}
