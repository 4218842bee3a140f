import Analysis
import ToolSupport
import XCTest

/// Bars on synthetic drum loops whose bars are known: the one where the music started, the counter and the
/// beat in the bar, and the meter read from the accents.
final class BarTrackingTests: XCTestCase {
    func run(_ loop: DrumLoop) -> RhythmRun { RhythmRun(loop.render(), sampleRate: loop.sampleRate) }

    func testTheOneIsWhereTheMusicStartedAndBarsCountOnFromIt() {
        for bpm in [96.0, 120, 150] {
            let loop = DrumLoop(bpm: bpm, sampleRate: 48_000, seconds: 16, firstBeat: 0.2)
            let beats = run(loop).beats
            XCTAssertGreaterThan(beats.count, 16, "\(bpm) BPM")
            for beat in beats {
                let t = Double(beat.frame) / loop.sampleRate
                let index = Int(((t - loop.firstBeat) * bpm / 60).rounded())
                XCTAssertEqual(beat.beatsPerBar, 4, "\(bpm) BPM at \(t) s")
                XCTAssertEqual(beat.beatInBar, index % 4 + 1, "\(bpm) BPM at \(t) s")
            }
            // The counter starts at 1 and advances on every beat 1, and only then.
            var bar = beats[0].bar
            XCTAssertEqual(bar, 1)
            for beat in beats.dropFirst() {
                if beat.beatInBar == 1 { bar += 1 }
                XCTAssertEqual(beat.bar, bar, "\(bpm) BPM, beat \(beat.count)")
            }
        }
    }

    func testAWaltzIsReadInThreeWithTheOneOnTheKick() {
        let loop = DrumLoop(bpm: 132, sampleRate: 44_100, seconds: 20, firstBeat: 0.2, beatsPerBar: 3)
        let beats = run(loop).beats
        // The meter needs 8 beats of accents and 4 more that agree: from 8 s on it is 3.
        let late = beats.filter { Double($0.frame) / loop.sampleRate > 8 }
        XCTAssertGreaterThan(late.count, 20)
        for beat in late {
            let t = Double(beat.frame) / loop.sampleRate
            XCTAssertEqual(beat.beatsPerBar, 3, "at \(t) s")
            let isDownbeat = loop.downbeats.contains { abs($0 - t) <= 0.07 }
            XCTAssertEqual(beat.beatInBar == 1, isDownbeat, "at \(t) s")
        }
    }

    func testFourFourIsNotReadInThree() {
        for bpm in [90.0, 128, 174] {
            let beats = run(DrumLoop(bpm: bpm, sampleRate: 48_000, seconds: 20, firstBeat: 0.2)).beats
            XCTAssertTrue(beats.allSatisfy { $0.beatsPerBar == 4 }, "\(bpm) BPM")
        }
    }
}
