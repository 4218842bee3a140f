import DSP
import XCTest

final class DecibelsTests: XCTestCase {
    func testSilenceIsFlooredAtMinus200NeverInfinite() {
        XCTAssertEqual(Decibels.amplitude(0), -200)
        XCTAssertEqual(Decibels.amplitude(.nan), -200)
        XCTAssertEqual(Decibels.power(1e-40), -200)
    }

    func testHalfScaleIsMinus6Point02() {
        XCTAssertEqual(Decibels.amplitude(0.5), -6.0206, accuracy: 1e-4)
        XCTAssertEqual(Decibels.power(0.5), -3.0103, accuracy: 1e-4)
    }

    func testUnitMappingIsLinearAndClamped() {
        XCTAssertEqual(Decibels.unit(-30, low: -60), 0.5)
        XCTAssertEqual(Decibels.unit(-90, low: -60), 0)
        XCTAssertEqual(Decibels.unit(6, low: -60), 1)
    }
}
