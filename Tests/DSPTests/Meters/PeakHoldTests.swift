import DSP
import XCTest

final class PeakHoldTests: XCTestCase {
    func testHoldsForTheHoldTimeThenFallsAtTheFallRate() {
        var hold = PeakHold(holdSeconds: 1.5, fallDBPerSecond: 20)
        XCTAssertEqual(hold.update(levelDB: -3, elapsedSeconds: 0), -3)
        XCTAssertEqual(hold.update(levelDB: -40, elapsedSeconds: 1.5), -3, "held for 1.5 s")
        XCTAssertEqual(hold.update(levelDB: -40, elapsedSeconds: 0.5), -13, accuracy: 1e-4, "then 20 dB/s")
        XCTAssertEqual(hold.update(levelDB: -40, elapsedSeconds: 1.0), -33, accuracy: 1e-4)
        XCTAssertEqual(hold.update(levelDB: -40, elapsedSeconds: 1.0), -40, accuracy: 1e-4, "meets the level")
        XCTAssertEqual(hold.update(levelDB: -20, elapsedSeconds: 0.01), -20, "a higher level is taken at once")
    }

    func testKSystemHoldOfHalfASecondThenFifteenDBPerSecond() {
        var hold = PeakHold(holdSeconds: 0.5, fallDBPerSecond: 15)
        hold.update(levelDB: 0, elapsedSeconds: 0)
        XCTAssertEqual(hold.update(levelDB: -100, elapsedSeconds: 0.5), 0)
        XCTAssertEqual(hold.update(levelDB: -100, elapsedSeconds: 2), -30, accuracy: 1e-4)
    }

    func testSameResultWhetherTimeAdvancesInSmallOrLargeSteps() {
        // Levels change only at whole 0.25 s; the value at every whole 0.25 s must not depend on the step.
        func level(at t: Double) -> Float {
            switch t {
            case ..<0.25: return -6
            case ..<1.0: return -200
            case ..<1.25: return -30
            case ..<2.0: return -200
            case ..<2.25: return -12
            default: return -200
            }
        }
        func trace(step: Double) -> [Float] {
            var hold = PeakHold()
            var out = [Float]()
            let stepsPerQuarter = Int((0.25 / step).rounded())
            var t = 0.0
            hold.update(levelDB: level(at: 0), elapsedSeconds: 0)
            for quarter in 0..<24 {
                for s in 0..<stepsPerQuarter {
                    let next = Double(quarter) * 0.25 + Double(s + 1) * step
                    hold.update(levelDB: level(at: next - step), elapsedSeconds: next - t)
                    t = next
                }
                out.append(hold.value)
            }
            return out
        }
        let coarse = trace(step: 0.25)
        for step in [0.25 / 250, 0.25 / 93, 0.25 / 7, 0.25 / 2] {
            let fine = trace(step: step)
            for (f, c) in zip(fine, coarse) { XCTAssertEqual(f, c, accuracy: 1e-3, "step \(step)") }
        }
        XCTAssertEqual(coarse[7], -11, accuracy: 1e-3, "−6 taken at 0.25 s, held to 1.75 s, 20 dB/s to 2.0 s")
        XCTAssertEqual(coarse[16], -22, accuracy: 1e-3, "−12 taken at 2.25 s over −16, held to 3.75 s")
    }

    func testResetDropsToTheFloorAndNaNIsIgnored() {
        var hold = PeakHold()
        hold.update(levelDB: -1, elapsedSeconds: 0)
        XCTAssertEqual(hold.update(levelDB: .nan, elapsedSeconds: 0.1), -1)
        hold.reset()
        XCTAssertEqual(hold.value, Decibels.floor)
        XCTAssertEqual(hold.update(levelDB: -500, elapsedSeconds: 100), Decibels.floor)
    }
}
