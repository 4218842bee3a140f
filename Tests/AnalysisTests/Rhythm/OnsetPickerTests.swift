@testable import Analysis
import XCTest

/// The onset picker on hand-made onset functions at 44.1 kHz (344.5 frames/s: a 34-frame mean, a 17-frame
/// minimum gap), where the threshold of a frame is twice the mean of the 34 before it plus 0.005.
final class OnsetPickerTests: XCTestCase {
    let framing = RhythmFraming(sampleRate: 44_100)

    /// Pushes `values` (with `silent` for the frames listed) and returns the push indices that gave an onset.
    private func onsetFrames(_ values: [Float], silentAt silent: Set<Int> = []) -> [Int] { picks(values, silentAt: silent).map(\.frame) }

    /// The push indices that gave an onset, each with whether it was reported at a peak.
    private func picks(_ values: [Float], silentAt silent: Set<Int> = []) -> [(frame: Int, atPeak: Bool)] {
        var picker = OnsetPicker(framing: framing, threshold: 0.005, minimumGap: RhythmConfig().onsetMinimumGap)
        return values.indices.compactMap { i in
            picker.push(values[i], strong: true, silent: silent.contains(i)).map { (frame: i, atPeak: $0.atPeak) }
        }
    }

    private let baseline = [Float](repeating: 0.001, count: 50)

    func testASlowRiseIsReportedOnItsThirdFrameOverTheThresholdAndNotAgainAtItsPeak() {
        // 0.01, 0.02, … 0.12 then down again: over the threshold (0.007, 0.0075, 0.0086, …) from its first
        // frame, peaking 12 frames (35 ms) later.
        let rise = (1...12).map { Float($0) * 0.01 }
        let values = baseline + rise + rise.reversed().dropFirst() + baseline
        let found = picks(values)
        XCTAssertEqual(found.map(\.frame), [baseline.count + 2])
        XCTAssertEqual(found.map(\.atPeak), [false])
    }

    func testAShortPeakIsReportedOneFrameAfterIt() {
        let found = picks(baseline + [0.05, 0.01] + baseline)
        XCTAssertEqual(found.map(\.frame), [baseline.count + 1])
        XCTAssertEqual(found.map(\.atPeak), [true])
    }

    func testNothingIsReportedWhileTheNewestHopIsSilent() {
        // A peak known at a silent frame is dropped, and a run stays unreported while it is silent.
        let spike = baseline + [0.05, 0.01] + baseline
        XCTAssertEqual(onsetFrames(spike, silentAt: [baseline.count + 1]), [])
        let rise = (1...12).map { Float($0) * 0.01 }
        let ramp = baseline + rise + baseline
        XCTAssertEqual(onsetFrames(ramp, silentAt: [baseline.count + 2]), [baseline.count + 3])
    }

    func testASecondRunWithinTheMinimumGapIsNotReported() {
        // Two 3-frame runs 10 frames (29 ms) apart, then a third 30 frames (87 ms) after the first.
        let run: [Float] = [0.03, 0.04, 0.05, 0.001]
        let gap = [Float](repeating: 0.001, count: 6)
        let values = baseline + run + gap + run + [Float](repeating: 0.001, count: 16) + run + baseline
        let first = baseline.count + 2
        XCTAssertEqual(onsetFrames(values), [first, first + 30])
    }
}
