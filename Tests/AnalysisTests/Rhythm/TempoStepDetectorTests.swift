@testable import Analysis
import ToolSupport
import XCTest

/// `TempoStepDetector` on activation it is handed frame by frame, beside a model that keeps believing the old
/// tempo (as the model does for some beats after a step): it names the new period on the second beat of the
/// new tempo, also when that beat falls back on the old grid, and never for a syncopation that repeats with the
/// bar or before it has heard a bar to compare with; it names a fast drift once the model's own beat has passed,
/// a late one on its beat, also one that starts a frame a beat, and never a humanised steady beat nor one beat
/// rushed unevenly after another a frame early.
final class TempoStepDetectorTests: XCTestCase {
    static let shortest = 32
    static let longest = 125

    /// Runs the detector over frames 1...`frames`, with activation 1 on `onsets` (and on the frame after, as
    /// `BeatActivation` reads an attack in two frames), 0.05 elsewhere, and a model that believes `period` with
    /// a beat on frame `phase`. Returns (frame, new period, frames since its beat) for every frame it fired on.
    func fire(onsets: Set<Int>, frames: Int, period: Int, phase: Int) -> [(frame: Int, period: Int, framesAgo: Int)] {
        let detector = TempoStepDetector(shortestPeriod: Self.shortest, longestPeriod: Self.longest)
        var fired = [(frame: Int, period: Int, framesAgo: Int)]()
        for f in 1...frames {
            let a: Float = onsets.contains(f) || onsets.contains(f - 1) ? 1 : 0.05
            // The position of the frame before, in the beat that began on the last frame ≡ phase (mod period).
            let position = Double(((f - 1 - phase) % period + period) % period)
            if let p = detector.observe(activation: a, period: period, position: position) {
                fired.append((f, p.period, p.framesAgo))
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
            XCTAssertEqual(fired.first?.framesAgo, 0, "\(old) → \(new) frames: this frame is the beat")
        }
    }

    func testAStepToThreeHalvesOfTheModelsPeriodIsNamedOnItsSecondBeat() {
        // 75 BPM read at its double (46 frames, the model's period): an onset every other model beat. Then 100 BPM
        // (69 frames): the second new beat falls back on the model's grid (3 × 46 = 2 × 69), as every second one
        // does, and is named all the same.
        let model = 46, old = 92, new = 69
        let last = 20 + 16 * old
        let onsets = Set((0...16).map { 20 + $0 * old } + (1...12).map { last + $0 * new })
        let fired = fire(onsets: onsets, frames: last + 13 * new, period: model, phase: 20)
        XCTAssertEqual(fired.first?.frame, last + 2 * new, "\(fired)")
        XCTAssertEqual(fired.first?.period, new)
        XCTAssertEqual(fired.first?.framesAgo, 0)
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

    func testAnAccelerandoIsNamedOnceTheModelsBeatHasPassed() {
        // 16 beats of 76 frames (91 BPM), then each beat 2 frames shorter than the one before (3 % a beat, the
        // accelerando of eval/real): 74, 72, 70…
        let old = 76
        var onsets = (0...16).map { 20 + $0 * old }
        for k in 1...8 { onsets.append(onsets.last! + old - 2 * k) }
        let fired = fire(onsets: Set(onsets), frames: onsets.last! + old, period: old, phase: 20)
        let first = try! XCTUnwrap(fired.first, "an accelerando of 2 frames a beat is named")
        // The second beat of the ramp (the last old beat and the two after it are 74 and 72 apart) comes 6 frames
        // before the model's beat, and is named when that beat has passed, with the frames since the onset and
        // the newer interval as the period: the nearer to the next one.
        let model = 20 + 18 * old
        XCTAssertEqual(first.frame, model, "named on the model's beat")
        XCTAssertEqual(first.framesAgo, model - onsets[18])
        XCTAssertEqual(first.period, 72)
    }

    func testARitardandoIsNamedOnTheLateBeat() {
        // 16 beats of the old period, then each beat 2 frames longer than the one before. From 58 frames (119 BPM):
        // 60, 62, 64…, the second beat of the ramp 6 frames after the model's beat. From 53 (130 BPM): 54, 56, 58…,
        // as eval/tempo_steps' ritardando to 100 BPM over 8 beats has them, the second beat only 4 frames (35 ms)
        // late and the mean of the two intervals (55) only 2 frames from the period; the newer is 3 from it. The
        // model's beat has passed, so the beat is this frame, and its period the newer interval.
        for (old, first, named) in [(58, 60, 62), (53, 54, 56)] {
            var onsets = (0...16).map { 20 + $0 * old }
            for k in 0..<8 { onsets.append(onsets.last! + first + 2 * k) }
            let fired = fire(onsets: Set(onsets), frames: onsets.last! + old, period: old, phase: 20)
            let drift = try! XCTUnwrap(fired.first, "a ritardando of 2 frames a beat from \(old) is named")
            XCTAssertEqual(drift.frame, onsets[18], "from \(old)")
            XCTAssertEqual(drift.framesAgo, 0, "from \(old)")
            XCTAssertEqual(drift.period, named, "from \(old)")
        }
    }

    func testABeatRushedUnevenlyAfterOneAFrameEarlyIsNoDrift() {
        // 58 frames, as the model's grid sees a beat between 57 and 58 frames: every other onset a frame early.
        // Every eighth beat is rushed by 5 frames more, after one a frame early: intervals of 57 and then 54
        // frames, 3 apart, the older within a frame of the period. An accelerando whose beats shorten unevenly has
        // its older interval at least 2 frames short already.
        let period = 58
        let onsets = Set((0..<100).map { k in 20 + k * period - k % 2 - (k % 8 == 6 ? 5 : 0) })
        XCTAssertEqual(fire(onsets: onsets, frames: 20 + 100 * period, period: period, phase: 20).map(\.frame), [])
    }

    func testAHumanisedSteadyBeatIsNoDrift() {
        // 69 frames, each onset moved by up to two frames either way (±17 ms), for a minute.
        var random = SplitMix(seed: 11)
        let period = 69
        let onsets = Set((0..<100).map { 20 + $0 * period + random.below(5) - 2 })
        XCTAssertEqual(fire(onsets: onsets, frames: 20 + 100 * period, period: period, phase: 20).map(\.frame), [])
    }
}
