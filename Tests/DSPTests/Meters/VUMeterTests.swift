import DSP
import XCTest

final class VUMeterTests: XCTestCase {
    let rate = 48_000.0

    func measure(sampleRate: Double = 48_000) -> BallisticsMeasure {
        let meter = VUMeter(sampleRate: sampleRate)
        let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 3, sampleRate: sampleRate)
        return BallisticsMeasure.measure(tone: tone, silenceSamples: Int(sampleRate), tick: Int(sampleRate / 1000),
                                         sampleRate: sampleRate, fallFraction: 0.01,
                                         process: { meter.process($0, count: $1) }, read: { meter.read() })
    }

    func testSteadySineReadsItsAmplitude() {
        for frequency in [100.0, 1000, 5000] {
            let meter = VUMeter(sampleRate: rate)
            let tone = MeterSignal.sine(frequency: frequency, amplitude: 0.5, seconds: 2, sampleRate: rate)
            MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
            _ = meter.read()
            MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
            XCTAssertEqual(MeterSignal.dB(meter.read()), -6.02, accuracy: 0.05, "\(frequency) Hz")
        }
    }

    func testVUReaches99PercentAt300msWithOneToOnePointFivePercentOvershoot() {
        // IEC 60268-17: 99 % of the final reading at 300 ms, overshoot 1 … 1.5 %; ±5 % on the time.
        for sampleRate in [44_100.0, 48_000, 96_000] {
            let m = measure(sampleRate: sampleRate)
            XCTAssertEqual(m.riseTo99Percent, 0.300, accuracy: 0.015, "\(sampleRate)")
            XCTAssertGreaterThanOrEqual(m.overshoot, 0.010, "\(sampleRate)")
            XCTAssertLessThanOrEqual(m.overshoot, 0.015, "\(sampleRate)")
        }
    }

    func testVUReturnsToOnePercentIn300ms() {
        // IEC 60268-17: the return takes as long as the rise (Fons measured 301 ms).
        XCTAssertEqual(measure().fallTime, 0.300, accuracy: 0.015)
    }

    func testReadKeepsTheOvershootBetweenReads() {
        // Read only once, at 1 s: the overshoot peak (~0.5 s) is in it although the needle has settled.
        let meter = VUMeter(sampleRate: rate)
        let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 1, sampleRate: rate)
        MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
        XCTAssertGreaterThan(meter.read() / meter.current, 1.009)
    }

    func testReadingDoesNotDependOnTheBlockSize() {
        MeterChecks.assertBlockSizeIndependent(make: { VUMeter(sampleRate: 48_000) })
    }

    func testSilenceAndGarbageReadFinite() {
        MeterChecks.assertGarbageReadsFinite(make: { VUMeter(sampleRate: 48_000) }, expectAfterTone: 0.5)
    }
}
