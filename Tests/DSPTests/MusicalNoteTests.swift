import DSP
import XCTest

final class MusicalNoteTests: XCTestCase {
    func testA440IsA4AndMiddleCIsC4() {
        XCTAssertEqual(MusicalNote(frequency: 440)?.name, "A4")
        XCTAssertEqual(MusicalNote(frequency: 440)?.midi, 69)
        XCTAssertEqual(MusicalNote(frequency: 261.6256)?.name, "C4")
        XCTAssertEqual(MusicalNote(frequency: 41.2034)?.name, "E1")
    }

    func testCentsAreMeasuredFromTheNearestNote() {
        // 445 Hz is 19.56 cents above A4 (1200·log2(445/440)).
        XCTAssertEqual(MusicalNote(frequency: 445)!.cents, 19.56, accuracy: 0.01)
        XCTAssertEqual(MusicalNote(frequency: 453)!.name, "A#4")  // 50.41 cents above A4 is -49.59 from A#4
        XCTAssertEqual(MusicalNote(frequency: 453)!.cents, -49.59, accuracy: 0.01)
    }

    func testA4TuningIsSettable() {
        XCTAssertEqual(MusicalNote(frequency: 432, a4: 432)?.name, "A4")
        XCTAssertEqual(MusicalNote(frequency: 432, a4: 432)!.cents, 0, accuracy: 1e-4)
    }

    func testNoNoteForSilenceOrNonsense() {
        XCTAssertNil(MusicalNote(frequency: 0))
        XCTAssertNil(MusicalNote(frequency: .nan))
        XCTAssertNil(MusicalNote(frequency: -3))
    }
}
