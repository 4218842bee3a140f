import Analysis
import XCTest

/// The tracker does not jump to a multiple or a sub-multiple of the fundamental when the fundamental is weak
/// or the signal noisy.
final class PitchOctaveTests: XCTestCase {
    let rates = [44_100.0, 48_000, 96_000]

    /// Share of `estimates` within 50 cents of `frequency` (the MIREX raw-pitch tolerance).
    func shareWithin50Cents(_ estimates: [PitchEstimate], of frequency: Double) -> Double {
        let right = estimates.filter { $0.frequency > 0 && abs(PitchSignal.cents($0.frequency, from: frequency)) < 50 }
        return Double(right.count) / Double(max(estimates.count, 1))
    }

    /// A tone whose second harmonic is 9 dB above its fundamental (as in many sung vowels and bowed strings)
    /// repeats, badly, at half its period; the period itself still repeats exactly.
    func testWeakFundamentalUnderAStrongSecondHarmonicReadsTheFundamental() {
        for rate in rates {
            for frequency in [98.0, 146.83, 220, 440] {
                let samples = (0..<Int(0.3 * rate)).map { i -> Float in
                    let phase = 2 * Double.pi * frequency * Double(i) / rate
                    return Float(0.14 * sin(phase) + 0.4 * sin(2 * phase + 0.3) + 0.1 * sin(3 * phase + 1.1))
                }
                let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
                let estimates = PitchSignal.estimates(tracker, samples, chunk: tracker.hopSize).map(\.estimate)
                XCTAssertFalse(estimates.isEmpty)
                XCTAssertEqual(shareWithin50Cents(estimates, of: frequency), 1, "\(frequency) Hz at \(rate)")
            }
        }
    }

    /// In noise every dip of YIN's d′ rises about equally, so its dips at 2, 3, 4… periods compete with the
    /// period's: the tracker must still read the shortest lag that repeats, not a subharmonic. The eval
    /// corpus's "tones in pink noise" item uses the same SNR (tone RMS over noise RMS).
    func testSineInPinkNoiseAtThreeDecibelsSNRIsNotReadAsASubharmonic() {
        for rate in rates {
            for frequency in [220.0, 440, 660] {
                let count = Int(1.0 * rate)
                let noise = PitchSignal.pink(count: count, amplitude: 1, seed: 7)
                let noiseRMS = (noise.reduce(0) { $0 + Double($1) * Double($1) } / Double(count)).squareRoot()
                let toneRMS = 0.1
                let noiseGain = toneRMS / pow(10, 3.0 / 20) / noiseRMS
                let tone = PitchSignal.sine(frequency, rate: rate, seconds: 1.0, amplitude: Float(toneRMS * 2.0.squareRoot()))
                let samples = zip(tone, noise).map { $0 + Float(noiseGain) * $1 }
                let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
                let estimates = PitchSignal.estimates(tracker, samples, chunk: tracker.hopSize).map(\.estimate)
                XCTAssertGreaterThan(estimates.count, 100)
                XCTAssertGreaterThanOrEqual(shareWithin50Cents(estimates, of: frequency), 0.95, "\(frequency) Hz at \(rate)")
            }
        }
    }
}
