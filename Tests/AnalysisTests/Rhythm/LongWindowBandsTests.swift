@testable import Analysis
import Foundation
import XCTest

/// The long window of the beat features (version 2) resolves a semitone: a note's band is its own, and a step
/// to the next semitone rises in the new note's band far more than in the old one's.
final class LongWindowBandsTests: XCTestCase {
    /// The band whose range holds `hz`.
    func band(holding hz: Double) -> Int {
        LongWindowBands.lowerEdges.lastIndex { $0 <= hz } ?? 0
    }

    func testAToneReadsLoudestInItsOwnSemitoneBandAndAStepRisesInTheNextOne() {
        for rate in [44_100.0, 48_000, 96_000] {
            let framing = RhythmFraming(sampleRate: rate)
            var bands = LongWindowBands(framing: framing, decimation: BeatActivation.decimation)
            defer { bands.deallocate() }
            let hop = framing.hop * BeatActivation.decimation
            let values = UnsafeMutablePointer<Float>.allocate(capacity: bands.bandCount)
            let rises = UnsafeMutablePointer<Float>.allocate(capacity: bands.bandCount)
            defer { values.deallocate(); rises.deallocate() }
            // A4 for a second, then B♭4 (a semitone up), the windows sliding by one model frame.
            let a4 = 440.0, bFlat4 = 440 * pow(2, 1.0 / 12)
            let seconds = 2.0
            // Phase-continuous, so the step makes no click (a click rises in every band).
            var phase = 0.0
            let samples = (0..<Int(seconds * rate)).map { i -> Float in
                defer { phase += 2 * .pi * (Double(i) < rate ? a4 : bFlat4) / rate }
                return Float(0.5 * sin(phase))
            }
            var loudestBefore = -1, riseAfter = [Float](), riseOfOld = [Float]()
            samples.withUnsafeBufferPointer { p in
                var end = bands.size
                while end <= p.count {
                    bands.push(p.baseAddress! + end - bands.size, values: values, rises: rises)
                    let t = Double(end) / rate
                    if t < 0.99 {
                        loudestBefore = (0..<bands.bandCount).max { values[$0] < values[$1] }!
                    } else if t > 1 && t < 1 + Double(bands.size) / rate {
                        riseAfter.append(rises[band(holding: bFlat4)])
                        riseOfOld.append(rises[band(holding: a4)])
                    }
                    end += hop
                }
            }
            XCTAssertEqual(loudestBefore, band(holding: a4), "at \(rate) Hz")
            XCTAssertNotEqual(band(holding: a4), band(holding: bFlat4))
            // Version 1's sixth-of-an-octave bands hold both notes in one band: the step barely shows there.
            let sixths = BeatFeatures.lowerEdges
            XCTAssertEqual(sixths.lastIndex { $0 <= a4 }, sixths.lastIndex { $0 <= bFlat4 })
            XCTAssertGreaterThan(riseAfter.max() ?? 0, 1, "at \(rate) Hz: the new note's band rises")
            // The old note's band holds bins half-way to the new note, inside the new note's main lobe (a Hann
            // window's is 4 bins wide, a semitone at A4 is 2.4): it rises too, but far less.
            XCTAssertLessThan(riseOfOld.max() ?? 1, 0.5 * (riseAfter.max() ?? 0),
                              "at \(rate) Hz: the old one's rises less")
        }
    }
}
