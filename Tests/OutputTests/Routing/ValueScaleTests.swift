import OSCOut
import Schema
import XCTest

/// The mappings issue 5 defines: dB → floor..ceiling → 0..1, clamped; byte = round(255·v); percent = 100·v.
final class ValueScaleTests: XCTestCase {
    func testDecibelsMapLinearlyBetweenFloorAndCeilingAndClamp() {
        let map = { (scale: ValueScale, dB: Double) in scale.map(dB, kind: .decibels, floor: -60, ceiling: 0) }
        XCTAssertEqual(map(.unit, -30), 0.5)
        XCTAssertEqual(map(.unit, -200), 0)
        XCTAssertEqual(map(.unit, 6), 1)
        XCTAssertEqual(map(.percent, -15), 75)
        XCTAssertEqual(map(.byte, -30).rounded(), 128)  // 127.5 rounds away from zero
        XCTAssertEqual(map(.db, -30), -30)
        XCTAssertEqual(ValueScale.unit.map(-20, kind: .decibels, floor: -40, ceiling: -10), 20.0 / 30, accuracy: 1e-12)
    }

    func testUnitValuesPassThroughClampedAndOthersAreUntouched() {
        XCTAssertEqual(ValueScale.unit.map(1.5, kind: .unit, floor: -60, ceiling: 0), 1)
        XCTAssertEqual(ValueScale.byte.map(0.5, kind: .unit, floor: -60, ceiling: 0), 127.5)
        XCTAssertEqual(ValueScale.percent.map(0.25, kind: .cyclicUnit, floor: -60, ceiling: 0), 25)
        XCTAssertEqual(ValueScale.byte.map(440, kind: .asIs, floor: -60, ceiling: 0), 440)
        XCTAssertFalse(ValueScale.byte.sendsInteger(.asIs))
        XCTAssertTrue(ValueScale.byte.sendsInteger(.decibels))
    }

    func testLeafNamesDecideTheKind() {
        XCTAssertEqual(ValueKind.of(address: "/jacktap/in_1/peak"), .decibels)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/main/loudness/shortterm"), .decibels)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/main/loudness/range"), .asIs)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/in_1/bands7"), .unit)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/in_1/phase"), .cyclicUnit)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/in_1/vu"), .asIs)
        XCTAssertEqual(ValueKind.of(address: "/jacktap/in_1/pitch"), .asIs)
    }
}
