import DSP
import XCTest

/// EBU Tech 3342 (2016) loudness range test cases 1–4: 1 kHz stereo sine, 20 s steps, LRA ± 1 LU. Each is fed
/// in blocks of 64, 256 and 1024 frames, which must give bit-identical readings.
final class Tech3342Tests: XCTestCase {
    private func range(_ levels: [Double], label: String) -> Float {
        let tone = ToneBuilder.render(levels.map { (20.0, $0) })
        return measureAtEveryBlockSize([tone, tone], roles: [.left, .right], label: label).range
    }

    func testCase1StepsOfMinus20AndMinus30GiveTenLU() {
        assertReading(range([-20, -30], label: "3342-1"), 10, 1, "3342-1 LRA")
    }

    func testCase2StepsOfMinus20AndMinus15GiveFiveLU() {
        assertReading(range([-20, -15], label: "3342-2"), 5, 1, "3342-2 LRA")
    }

    func testCase3StepsOfMinus40AndMinus20GiveTwentyLU() {
        assertReading(range([-40, -20], label: "3342-3"), 20, 1, "3342-3 LRA")
    }

    func testCase4FiveStepsGiveFifteenLU() {
        assertReading(range([-50, -35, -20, -35, -50], label: "3342-4"), 15, 1, "3342-4 LRA")
    }

    func testSteadyToneHasNoLoudnessRange() {
        // Only full 3 s windows are sampled: the ramp while the window fills must not count (a meter that samples
        // it every 0.5 s puts the 10th percentile of this tone 1.76 LU down the ramp and reads 1.8 LU).
        let tone = ToneBuilder.render([(20, -23)])
        let r = measureAtEveryBlockSize([tone, tone], roles: [.left, .right], label: "steady 1 kHz tone")
        XCTAssertEqual(r.range, 0)
        let odd = ToneBuilder.render(frequency: 997, [(20, -20)])
        let r997 = measureAtEveryBlockSize([odd], roles: [.centre], label: "steady 997 Hz tone")
        XCTAssertEqual(Double(r997.range), 0, accuracy: 0.001)
    }
}
