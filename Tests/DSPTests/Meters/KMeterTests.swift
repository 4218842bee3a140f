import DSP
import XCTest

final class KMeterTests: XCTestCase {
    let rate = 48_000.0

    func testSteadySineReadsItsPeak() {
        // K-system: a sine's RMS reads as its peak (RMS × √2).
        for frequency in [100.0, 1000, 5000] {
            let meter = KMeter(sampleRate: rate)
            let tone = MeterSignal.sine(frequency: frequency, amplitude: 0.5, seconds: 3, sampleRate: rate)
            MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
            _ = meter.read()
            MeterSignal.feed(Array(tone[0..<48_000]), blocks: [256]) { meter.process($0, count: $1) }
            XCTAssertEqual(MeterSignal.dB(meter.read()), -6.02, accuracy: 0.05, "\(frequency) Hz")
        }
    }

    func testSquareWaveReadsItsRMSTimesRootTwo() {
        // A square wave of amplitude 0.25 has RMS 0.25, so it reads 0.25·√2 (−9.03 dBFS).
        let meter = KMeter(sampleRate: rate)
        let square = (0..<(3 * 48_000)).map { ($0 / 24) % 2 == 0 ? Float(0.25) : -0.25 }
        MeterSignal.feed(square, blocks: [256]) { meter.process($0, count: $1) }
        XCTAssertEqual(MeterSignal.dB(meter.current), MeterSignal.dB(0.25) + 3.0103, accuracy: 0.02)
    }

    func testKMeterReaches99PercentAt600msWithNoOvershoot() {
        // Fons Adriaensen's kmeterdsp (x42/meters.lv2, 48 kHz): 99 % at 600 ms, no overshoot; ±5 %.
        for sampleRate in [44_100.0, 48_000, 96_000] {
            let meter = KMeter(sampleRate: sampleRate)
            let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 4, sampleRate: sampleRate)
            let m = BallisticsMeasure.measure(tone: tone, silenceSamples: Int(sampleRate), tick: Int(sampleRate / 1000),
                                              sampleRate: sampleRate, fallFraction: 0.01,
                                              process: { meter.process($0, count: $1) }, read: { meter.read() })
            XCTAssertEqual(m.riseTo99Percent, 0.600, accuracy: 0.030, "\(sampleRate)")
            XCTAssertLessThanOrEqual(m.overshoot, 0.0005, "\(sampleRate)")
        }
    }

    func testReadingDoesNotDependOnTheBlockSize() {
        MeterChecks.assertBlockSizeIndependent(make: { KMeter(sampleRate: 48_000) })
    }

    func testSilenceAndGarbageReadFinite() {
        MeterChecks.assertGarbageReadsFinite(make: { KMeter(sampleRate: 48_000) }, expectAfterTone: 0.5)
    }
}
