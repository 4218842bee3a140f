@testable import Analysis
import XCTest

/// `TempoStepDetector` on activation it is handed frame by frame, beside a model that keeps believing the old
/// tempo (as the model does for some beats after a step): it names the new period on the second beat of the
/// new tempo, and never for a syncopation that repeats with the bar or before it has heard a bar to compare with.
final class TempoStepDetectorTests: XCTestCase {
    static let shortest = 32
    static let longest = 125

    /// Runs the detector over frames 1...`frames`, with activation 1 on `onsets` (and on the frame after, as
    /// `BeatActivation` reads an attack in two frames), 0.05 elsewhere, and a model that believes `period` with
    /// a beat on frame `phase`. Returns (frame, new period) for every frame it fired on.
    func fire(onsets: Set<Int>, frames: Int, period: Int, phase: Int) -> [(frame: Int, period: Int)] {
        let detector = TempoStepDetector(longestPeriod: Self.longest)
        var fired = [(frame: Int, period: Int)]()
        for f in 1...frames {
            let a: Float = onsets.contains(f) || onsets.contains(f - 1) ? 1 : 0.05
            // The position of the frame before, in the beat that began on the last frame ≡ phase (mod period).
            let position = Double(((f - 1 - phase) % period + period) % period)
            if let p = detector.observe(activation: a, period: period, position: position,
                                        shortestPeriod: Self.shortest, longestPeriod: Self.longest) {
                fired.append((f, p))
            }
        }
        return fired
    }

    func testAStepIsNamedOnTheSecondBeatOfTheNewTempo() {
        // 100 BPM at 115 frames per second is 69 frames; 130 BPM is 53. Sixteen old beats, then the new tempo
        // from the last of them.
        for (old, new) in [(69, 53), (53, 69), (58, 77)] {
            let last = 20 + 16 * old
            let onsets = Set((0...16).map { 20 + $0 * old } + (1...12).map { last + $0 * new })
            let fired = fire(onsets: onsets, frames: last + 13 * new, period: old, phase: 20)
            XCTAssertEqual(fired.first?.frame, last + 2 * new, "\(old) → \(new) frames")
            XCTAssertEqual(fired.first?.period, new, "\(old) → \(new) frames")
        }
    }

    func testASyncopationThatRepeatsWithTheBarIsNoStep() {
        // A tresillo at 120 BPM (58 frames): accents every three sixteenths, 3 + 3 + 2 to the half bar, for 30 s.
        // Each half bar holds three accents 43 frames apart, the last two off the beat, with the beat between them
        // empty: a step to 139 BPM as far as one half bar can tell.
        let period = 58
        var onsets = Set<Int>()
        for bar in 0..<60 {
            let start = 20 + bar * 4 * period
            for sixteenths in [0, 3, 6, 8, 11, 14] { onsets.insert(start + sixteenths * period / 4) }
        }
        let fired = fire(onsets: onsets, frames: 20 + 60 * 4 * period, period: period, phase: 20)
        XCTAssertEqual(fired.map(\.frame), [])
    }

    func testNothingIsNamedBeforeEightBeatsOfTheOldTempo() {
        let old = 69, new = 53
        let last = 20 + 5 * old
        let onsets = Set((0...5).map { 20 + $0 * old } + (1...12).map { last + $0 * new })
        let fired = fire(onsets: onsets, frames: last + 13 * new, period: old, phase: 20)
        // Not on the second beat of the new tempo: the three onsets begin 5 beats in. (This model never takes
        // the new tempo, so later triples, which begin after 8 beats' worth of frames, are named.)
        XCTAssertFalse(fired.contains { $0.frame == last + 2 * new }, "\(fired)")
        XCTAssertTrue(fired.allSatisfy { $0.frame - 2 * new > 8 * old + 20 }, "\(fired)")
        XCTAssertFalse(fired.isEmpty, "named once the triple begins after 8 beats")
    }

    func testAChangeOfLessThanATenthIsLeftToTheModel() {
        // 69 → 64 frames (100 → 108 BPM): the model's transitions follow such a change by themselves.
        let old = 69, new = 64
        let last = 20 + 16 * old
        let onsets = Set((0...16).map { 20 + $0 * old } + (1...12).map { last + $0 * new })
        XCTAssertEqual(fire(onsets: onsets, frames: last + 13 * new, period: old, phase: 20).map(\.frame), [])
    }
}
