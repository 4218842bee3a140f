@testable import Analysis
import XCTest

/// `BeatScheduler`'s tempo: the BPM each announced beat carries.
final class BeatSchedulerTests: XCTestCase {
    static let sampleRate = 44_100.0
    /// The rhythm analysis's frame: 384 samples, 8.7 ms.
    static let frameSamples = 384.0

    /// Runs a scheduler on the predictions a model makes of `beats` (stream frames): its period and mean period
    /// a whole number of model frames, the next beat named to the nearest frame, as `TempoPhaseModel` names it.
    /// Returns the BPM each announced beat carries, read as `RhythmTracker` reads it, once the beat is announced.
    func carriedBPM(beats: [Double], truePeriod: Double) -> [Double] {
        var scheduler = BeatScheduler(frameSamples: Self.frameSamples)
        var bpm = [Double]()
        // The model's mean period is whole frames too (its belief on one period): the tempo must come from the
        // beats, the model's 123.05 BPM standing in for it would miss the bar.
        let modelPeriod = (truePeriod / Self.frameSamples).rounded()
        let frames = Int(beats.last! / Self.frameSamples)
        for f in 0..<frames {
            let instant = Double(f) * Self.frameSamples
            guard let next = beats.first(where: { $0 > instant }) else { break }
            scheduler.update(period: Int(modelPeriod),
                             framesToNextBeat: ((next - instant) / Self.frameSamples).rounded(),
                             meanPeriod: modelPeriod, instant: instant, mayLock: instant > Self.sampleRate)
            if scheduler.due(now: Int(instant), hop: Int(Self.frameSamples), lead: 0.02 * Self.sampleRate) != nil {
                bpm.append(60 * Self.sampleRate / scheduler.periodSamples)
            }
        }
        return bpm
    }

    func testASteadyTempoIsCarriedWithinAQuarterOfABPMThoughEveryOtherBeatIsLate() {
        // 123.4 BPM: 55.84 model frames a beat, so the model's period and positions are a frame off by turns.
        // Kick and snare alternate, the kick's onset peaking 13 ms after the snare's (BeatScheduler.periodSamples).
        let bpm = 123.4
        let period = 60 * Self.sampleRate / bpm
        let beats = (0..<80).map { 1000 + Double($0) * period + ($0 % 2 == 1 ? 0.013 * Self.sampleRate : 0) }
        let carried = carriedBPM(beats: beats, truePeriod: period)
        XCTAssertGreaterThan(carried.count, 60, "the beats were announced")
        // Once a dozen beats were announced: a frame of jitter in each is 8.7 ms in 486 ms, 1.8 %, and the
        // slope over the last eleven beats reads the tempo to a fraction of that.
        let settled = carried.dropFirst(12)
        let worst = settled.map { abs($0 - bpm) }.max() ?? .infinity
        XCTAssertLessThan(worst, 0.25, "BPM carried: \(settled.map { String(format: "%.2f", $0) })")
    }
}
