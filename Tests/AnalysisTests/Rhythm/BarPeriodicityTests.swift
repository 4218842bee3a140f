@testable import Analysis
import XCTest

/// The bar evidence: an onset function that repeats every bar scores the beat periods that divide the bar into
/// 3 or 4 above those that do not.
final class BarPeriodicityTests: XCTestCase {
    /// 115 frames per second (jacktap's onset frames at 48 kHz), periods of 46…75 frames (92…150 BPM).
    func bars() -> BarPeriodicity { BarPeriodicity(frameRate: 115, shortestPeriod: 46, longestPeriod: 75) }

    /// A bar of `length` frames with onsets at `onsets` (frames into the bar), repeated for `seconds`.
    func push(_ bars: BarPeriodicity, length: Int, onsets: [Int], seconds: Double) {
        for frame in 0..<Int(seconds * 115) { bars.push(onsets.contains(frame % length) ? 1 : 0) }
    }

    func testATresilloBarOfFourBeatsScoresTheQuarterNoteAboveThreeEighths() {
        // A bar of 240 frames (four beats of 60 frames, 115 BPM) with onsets on eighths 1, 4 and 7: 0, 90, 180.
        let b = bars()
        push(b, length: 240, onsets: [0, 90, 180], seconds: 12)
        // Not quite 1: the first bar, with no bar before it to match, still weighs a little in the energy.
        XCTAssertEqual(b.correlation(lag: 240), 1, accuracy: 0.03)
        XCTAssertEqual(b.score(period: 60), 1, accuracy: 0.03, "four beats of 60 frames make the bar")
        // Three eighths (45 frames) are out of this range; its double, 90 frames, is too. 53 (the bar in 4½)
        // and 67 (in 3.6) fit no bar of 3 or 4.
        XCTAssertLessThan(b.score(period: 53), 0.5)
        XCTAssertLessThan(b.score(period: 67), 0.5)
    }

    func testAWaltzBarScoresItsBeatThroughABarOfThree() {
        let b = bars()
        push(b, length: 180, onsets: [0, 60, 120, 130], seconds: 12)
        XCTAssertEqual(b.score(period: 60), 1, accuracy: 0.03, "three beats of 60 frames make the bar")
        XCTAssertLessThan(b.score(period: 70), 0.5)
    }

    func testNothingIsReadBeforeABarHasBeenHeardAndResetForgets() {
        let b = bars()
        XCTAssertEqual(b.score(period: 60), 0)
        push(b, length: 240, onsets: [0, 90, 180], seconds: 12)
        XCTAssertGreaterThan(b.score(period: 60), 0.9)
        b.reset()
        XCTAssertEqual(b.framesSeen, 0)
        XCTAssertEqual(b.score(period: 60), 0)
    }
}
