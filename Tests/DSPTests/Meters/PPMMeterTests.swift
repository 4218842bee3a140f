import DSP
import XCTest

final class PPMMeterTests: XCTestCase {
    let rate = 48_000.0

    /// The reading of a steady tone of amplitude 0.5 after it has settled.
    func steadyReading(_ kind: PPMMeter.Kind, frequency: Double, sampleRate: Double = 48_000) -> Float {
        let meter = PPMMeter(kind: kind, sampleRate: sampleRate)
        let tone = MeterSignal.sine(frequency: frequency, amplitude: 0.5, seconds: 1, sampleRate: sampleRate)
        MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
        _ = meter.read()
        MeterSignal.feed(tone, blocks: [256]) { meter.process($0, count: $1) }
        return meter.read()
    }

    /// The reading of a burst of `milliseconds` of the tone (from a zero crossing), relative to the steady
    /// tone, dB.
    func burstReading(_ kind: PPMMeter.Kind, frequency: Double, milliseconds: Double) -> Double {
        let meter = PPMMeter(kind: kind, sampleRate: rate)
        let burst = MeterSignal.sine(frequency: frequency, amplitude: 0.5, seconds: milliseconds / 1000,
                                     sampleRate: rate)
        MeterSignal.feed(burst + MeterSignal.silence(seconds: 0.5, sampleRate: rate), blocks: [256]) {
            meter.process($0, count: $1)
        }
        return MeterSignal.dB(meter.read()) - MeterSignal.dB(steadyReading(kind, frequency: frequency))
    }

    /// Seconds for the reading of a settled 1 kHz tone to fall by `decibels` once the tone stops.
    func fallTime(_ kind: PPMMeter.Kind, decibels: Double, sampleRate: Double = 48_000) -> Double {
        let meter = PPMMeter(kind: kind, sampleRate: sampleRate)
        let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 1, sampleRate: sampleRate)
        return BallisticsMeasure.measure(tone: tone, silenceSamples: Int(4 * sampleRate),
                                         tick: Int(sampleRate / 1000), sampleRate: sampleRate,
                                         fallFraction: pow(10, -decibels / 20),
                                         process: { meter.process($0, count: $1) }, read: { meter.read() }).fallTime
    }

    func testSteadySineReadsItsAmplitude() {
        for kind in [PPMMeter.Kind.typeI, .typeII] {
            for sampleRate in [44_100.0, 48_000, 96_000] {
                for frequency in [1000.0, 5000] {
                    XCTAssertEqual(MeterSignal.dB(steadyReading(kind, frequency: frequency, sampleRate: sampleRate)),
                                   -6.02, accuracy: 0.05, "\(kind) \(sampleRate) \(frequency) Hz")
                }
            }
        }
    }

    func testTypeIITenMillisecondBurstReadsMinus2dB() {
        // IEC 60268-10 type II (BBC / EBU): 10 ms burst −2 dB; ±0.5 dB.
        XCTAssertEqual(burstReading(.typeII, frequency: 5000, milliseconds: 10), -2, accuracy: 0.5)
        XCTAssertEqual(burstReading(.typeII, frequency: 1000, milliseconds: 10), -2, accuracy: 0.5)
    }

    func testTypeITenMillisecondBurstReadsMinus1dBAndFiveMillisecondMinus2dB() {
        // DIN 45406 / IEC 60268-10 type I: 10 ms burst −1 dB, 5 ms −2 dB; ±0.5 dB.
        XCTAssertEqual(burstReading(.typeI, frequency: 5000, milliseconds: 10), -1, accuracy: 0.5)
        XCTAssertEqual(burstReading(.typeI, frequency: 1000, milliseconds: 10), -1, accuracy: 0.5)
        XCTAssertEqual(burstReading(.typeI, frequency: 5000, milliseconds: 5), -2, accuracy: 0.5)
    }

    func testTypeIIFalls24dBIn2Point8Seconds() {
        for sampleRate in [48_000.0, 96_000] {
            XCTAssertEqual(fallTime(.typeII, decibels: 24, sampleRate: sampleRate), 2.8, accuracy: 0.14)
        }
    }

    func testTypeIFalls20dBIn1Point5Seconds() {
        for sampleRate in [48_000.0, 96_000] {
            XCTAssertEqual(fallTime(.typeI, decibels: 20, sampleRate: sampleRate), 1.5, accuracy: 0.075)
        }
    }

    func testReadingDoesNotDependOnTheBlockSize() {
        MeterChecks.assertBlockSizeIndependent(make: { PPMMeter(kind: .typeI, sampleRate: 48_000) })
        MeterChecks.assertBlockSizeIndependent(make: { PPMMeter(kind: .typeII, sampleRate: 48_000) })
    }

    func testSilenceAndGarbageReadFinite() {
        MeterChecks.assertGarbageReadsFinite(make: { PPMMeter(kind: .typeI, sampleRate: 48_000) },
                                             expectAfterTone: 0.5)
        MeterChecks.assertGarbageReadsFinite(make: { PPMMeter(kind: .typeII, sampleRate: 48_000) },
                                             expectAfterTone: 0.5)
    }
}
