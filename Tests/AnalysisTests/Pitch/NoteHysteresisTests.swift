import Analysis
import DSP
import XCTest

/// The displayed note changes only past the half-semitone boundary plus the hysteresis.
final class NoteHysteresisTests: XCTestCase {
    let rate = 48_000.0
    /// Half-way between A4 and A#4 at A4 = 440 Hz.
    let boundary = 440 * pow(2, 0.5 / 12)

    /// Displayed notes over a 0.3 s A4 lead-in followed by `body`.
    func notes(hysteresis: Float, body: (Double) -> Double) -> [MusicalNote?] {
        var config = PitchConfig()
        config.hysteresisCents = hysteresis
        let tracker = PitchTracker(config: config, sampleRate: rate)
        let samples = PitchSignal.tone(rate: rate, seconds: 1.5) { $0 < 0.3 ? 440 : body($0 - 0.3) }
        return PitchSignal.estimates(tracker, samples, chunk: tracker.hopSize).map(\.note)
    }

    func changes(_ notes: [MusicalNote?]) -> Int {
        zip(notes, notes.dropFirst()).filter { $0?.midi != $1?.midi }.count
    }

    /// Vibrato of ±20 cents (5 Hz) straddling the A4/A#4 boundary.
    func wobble(_ t: Double) -> Double { boundary * pow(2, 20 * sin(2 * Double.pi * 5 * t) / 1200) }

    func testVibratoAcrossABoundaryWithinTheHysteresisDoesNotFlicker() {
        let shown = notes(hysteresis: 25, body: wobble)
        XCTAssertTrue(shown.allSatisfy { $0 != nil })
        XCTAssertEqual(changes(shown), 0)
        XCTAssertEqual(shown.last??.name, "A4")
    }

    func testWithoutHysteresisTheSameVibratoFlickers() {
        XCTAssertGreaterThan(changes(notes(hysteresis: 0, body: wobble)), 4)
    }

    func testCrossingTheBoundaryBeyondTheHysteresisChangesTheNote() {
        // 60 cents past the boundary (A4 +110 cents): A#4 +10 cents.
        let shown = notes(hysteresis: 25) { _ in self.boundary * pow(2, 60.0 / 1200) }
        XCTAssertEqual(changes(shown), 1)
        XCTAssertEqual(shown.last??.name, "A#4")
        XCTAssertEqual(shown.last??.midi, 70)
        XCTAssertEqual(Double(shown.last??.cents ?? 0), 10, accuracy: 3)
    }

    func testHeldNoteStaysNamedWhilePastTheBoundary() {
        // 15 cents past the boundary, inside a 25-cent hysteresis: still A4, at the +50 edge.
        let shown = notes(hysteresis: 25) { _ in self.boundary * pow(2, 15.0 / 1200) }
        XCTAssertEqual(changes(shown), 0)
        XCTAssertEqual(shown.last??.name, "A4")
        XCTAssertEqual(Double(shown.last??.cents ?? 0), 50, accuracy: 0.1)
    }
}
