import DSP
import XCTest

final class TruePeakMeterTests: XCTestCase {
    /// Reads `signal` through a fresh meter fed in blocks of 256.
    func truePeak(_ signal: [Float], sampleRate: Double, blocks: [Int] = [256]) -> Float {
        let meter = TruePeakMeter(sampleRate: sampleRate)
        MeterSignal.feed(signal, blocks: blocks) { meter.process($0, count: $1) }
        return meter.read()
    }

    func testOversamplingIsFourBelow96kTwoBelow192kAndOneAbove() {
        XCTAssertEqual(TruePeakMeter(sampleRate: 44_100).oversampling, 4)
        XCTAssertEqual(TruePeakMeter(sampleRate: 48_000).oversampling, 4)
        XCTAssertEqual(TruePeakMeter(sampleRate: 88_200).oversampling, 4)
        XCTAssertEqual(TruePeakMeter(sampleRate: 96_000).oversampling, 2)
        XCTAssertEqual(TruePeakMeter(sampleRate: 176_400).oversampling, 2)
        XCTAssertEqual(TruePeakMeter(sampleRate: 192_000).oversampling, 1)
        XCTAssertEqual(TruePeakMeter(sampleRate: 384_000).oversampling, 1)
    }

    func testTech3341Cases15To19ReadWithinPlus0Point2Minus0Point4dBAt48k() {
        for rate in [48_000.0, 44_100.0] {
            for (number, signal, expected) in MeterSignal.truePeakSines(sampleRate: rate) {
                let reading = MeterSignal.dB(truePeak(signal, sampleRate: rate))
                XCTAssertLessThanOrEqual(reading, expected + 0.2, "case \(number) at \(rate)")
                XCTAssertGreaterThanOrEqual(reading, expected - 0.4, "case \(number) at \(rate)")
            }
        }
    }

    func testTech3341Cases20To23ReadWithinPlus0Point2Minus0Point4dBOf0dBTPAt48k() {
        for (number, signal) in MeterSignal.truePeakBursts(sampleRate: 48_000) {
            let reading = MeterSignal.dB(truePeak(signal, sampleRate: 48_000))
            XCTAssertLessThanOrEqual(reading, 0.2, "case \(number)")
            XCTAssertGreaterThanOrEqual(reading, -0.4, "case \(number)")
            let samplePeak = signal.map { abs($0) }.max()!
            XCTAssertGreaterThanOrEqual(truePeak(signal, sampleRate: 48_000), samplePeak, "case \(number)")
        }
    }

    func testTwiceOversamplingAt96kPassesCases15To19() {
        // At 2× the points between samples are found exactly for fs/4, fs/6 and fs/8 at these phases.
        for (number, signal, expected) in MeterSignal.truePeakSines(sampleRate: 96_000) {
            let reading = MeterSignal.dB(truePeak(signal, sampleRate: 96_000))
            XCTAssertLessThanOrEqual(reading, expected + 0.2, "case \(number)")
            XCTAssertGreaterThanOrEqual(reading, expected - 0.4, "case \(number)")
        }
    }

    func testNoOversamplingAt192kReadsTheSamplePeak() {
        // BS.1770-4 Annex 2 oversamples 1× from 192 kHz on: the reading is the sample peak, exactly.
        let tone = MeterSignal.sine(frequency: 997, amplitude: 0.5, seconds: 0.5, sampleRate: 192_000)
        XCTAssertEqual(MeterSignal.dB(truePeak(tone, sampleRate: 192_000)), -6.02, accuracy: 0.01)
        let quarter = MeterSignal.sine(frequency: 48_000, amplitude: 0.5, phaseDegrees: 45, seconds: 0.1,
                                       sampleRate: 192_000)
        XCTAssertEqual(truePeak(quarter, sampleRate: 192_000), quarter.map { abs($0) }.max()!)
    }

    func testAudioBandToneReadsItsAmplitudeAtEveryRate() {
        for rate in [44_100.0, 48_000, 96_000, 192_000] {
            let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.25, phaseDegrees: 10, seconds: 0.5,
                                        sampleRate: rate)
            XCTAssertEqual(MeterSignal.dB(truePeak(tone, sampleRate: rate)), -12.04, accuracy: 0.02, "\(rate)")
        }
    }

    func testSteadySinesFrom20HzTo20kHzReadTheirPeakWithinPlus0Point05Minus0Point10dB() {
        // The limiter-ceiling bar: a steady sine of amplitude 0.5 (-6.02 dBTP analytically) read over one tick
        // (1/30 s) after 0.2 s of the same sine, at every start phase. Log-spaced from 20 Hz, plus the
        // frequencies whose 4× grid repeats every few samples, where a peak can fall halfway between two
        // grid points at every cycle (fs/4, fs/3, 0.4 fs, 5/12 fs, 4/9 fs) and the 9, 11.025, 15 and
        // 17 kHz.
        for rate in [44_100.0, 48_000, 96_000] {
            var frequencies = (0..<40).map { 20 * pow(1000, Double($0) / 39) }
            frequencies += [rate / 4, rate / 3, 0.4 * rate, 5 * rate / 12, 4 * rate / 9, 9_000, 11_025, 15_000,
                            17_000, 19_000, 20_000].filter { $0 <= 20_000 }
            var worst = (low: 0.0, high: -Double.infinity)
            for f in frequencies {
                for phase in stride(from: 0.0, to: 360, by: 45) {
                    let tick = Int(rate / 30)
                    let settle = Int(0.2 * rate)
                    let signal = MeterSignal.sine(frequency: f, amplitude: 0.5, phaseDegrees: phase,
                                                  seconds: Double(settle + tick) / rate, sampleRate: rate)
                    let meter = TruePeakMeter(sampleRate: rate)
                    signal.withUnsafeBufferPointer { p in
                        meter.process(p.baseAddress!, count: settle)
                        _ = meter.read()
                        meter.process(p.baseAddress! + settle, count: tick)
                    }
                    let reading = meter.read()
                    let error = MeterSignal.dB(reading) - MeterSignal.dB(0.5)
                    worst = (min(worst.low, error), max(worst.high, error))
                    XCTAssertLessThanOrEqual(error, 0.05, "\(f) Hz at \(rate), phase \(phase)")
                    XCTAssertGreaterThanOrEqual(error, -0.10, "\(f) Hz at \(rate), phase \(phase)")
                    let samplePeak = signal[settle...].map { abs($0) }.max()!
                    XCTAssertGreaterThanOrEqual(reading, samplePeak, "\(f) Hz at \(rate), phase \(phase)")
                }
            }
            print("true peak of steady sines 20 Hz-20 kHz at \(rate): \(worst.low) / +\(worst.high) dB")
        }
    }

    func testTruePeakIsNeverBelowTheSamplePeakBitForBit() {
        // Random blocks of random signals, including loud high-frequency content: every read covers at
        // least the magnitudes of the samples processed since the previous read.
        var seed: UInt32 = 7
        for rate in [44_100.0, 48_000, 96_000, 192_000] {
            let meter = TruePeakMeter(sampleRate: rate)
            for round in 0..<200 {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                let count = Int(seed % 700) + 1
                let amplitude: Float = round % 3 == 0 ? 1 : 0.01
                let block = MeterSignal.noise(count: count, amplitude: amplitude, seed: seed)
                block.withUnsafeBufferPointer { meter.process($0.baseAddress!, count: count) }
                let reading = meter.read()
                XCTAssertGreaterThanOrEqual(reading, block.map { abs($0) }.max()!, "rate \(rate) round \(round)")
            }
        }
    }

    func testFastKernelAgreesWithTheScalarReferenceBitForBit() {
        let signal = MeterSignal.noise(count: 20_000, amplitude: 0.9, seed: 99)
            + MeterSignal.sine(frequency: 11_000, amplitude: 1, phaseDegrees: 33, seconds: 0.05, sampleRate: 48_000)
        for rate in [48_000.0, 96_000] {
            let reference = ScalarTruePeakMeter(sampleRate: rate)
            let expected = MeterSignal.readings(of: signal, segment: 1000, blocks: [1000],
                                                process: { reference.process($0, count: $1) },
                                                read: { reference.read() })
            for blocks in MeterSignal.blockPatterns {
                let fast = TruePeakMeter(sampleRate: rate)
                let got = MeterSignal.readings(of: signal, segment: 1000, blocks: blocks,
                                               process: { fast.process($0, count: $1) }, read: { fast.read() })
                XCTAssertEqual(got, expected, "rate \(rate) blocks \(blocks)")
            }
        }
    }

    func testReadingDoesNotDependOnTheBlockSize() {
        let signal = MeterSignal.programme()
        let reference = TruePeakMeter(sampleRate: 48_000)
        let expected = MeterSignal.readings(of: signal, segment: 4800, blocks: [4800],
                                            process: { reference.process($0, count: $1) },
                                            read: { reference.read() })
        for blocks in MeterSignal.blockPatterns {
            let meter = TruePeakMeter(sampleRate: 48_000)
            let got = MeterSignal.readings(of: signal, segment: 4800, blocks: blocks,
                                           process: { meter.process($0, count: $1) }, read: { meter.read() })
            for (g, e) in zip(got, expected) {
                XCTAssertEqual(MeterSignal.dB(max(g, 1e-10)), MeterSignal.dB(max(e, 1e-10)), accuracy: 0.01,
                               "blocks \(blocks)")
            }
        }
    }

    func testReadClearsTheMaximum() {
        let meter = TruePeakMeter(sampleRate: 48_000)
        let loud = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 0.1, sampleRate: 48_000)
        MeterSignal.feed(loud, blocks: [256]) { meter.process($0, count: $1) }
        XCTAssertGreaterThan(meter.read(), 0.49)
        // The last 16 samples' in-between points arrive with the next block (the interpolator's latency).
        let quiet = MeterSignal.silence(seconds: 0.1, sampleRate: 48_000)
        MeterSignal.feed(quiet, blocks: [256]) { meter.process($0, count: $1) }
        _ = meter.read()
        MeterSignal.feed(quiet, blocks: [256]) { meter.process($0, count: $1) }
        XCTAssertEqual(meter.read(), 0)
    }

    func testSilenceDenormalsNaNAndInfinityReadFiniteAndDoNotPoisonTheFilter() {
        for rate in [48_000.0, 96_000, 192_000] {
            let meter = TruePeakMeter(sampleRate: rate)
            MeterSignal.feed(MeterSignal.silence(seconds: 0.1, sampleRate: rate), blocks: [64]) {
                meter.process($0, count: $1)
            }
            XCTAssertEqual(meter.read(), 0)
            let garbage: [Float] = [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude / 4,
                                    .signalingNaN, 1e30]
            MeterSignal.feed(garbage + MeterSignal.silence(seconds: 0.01, sampleRate: rate), blocks: [3]) {
                meter.process($0, count: $1)
            }
            let afterGarbage = meter.read()
            XCTAssertTrue(afterGarbage.isFinite)
            XCTAssertEqual(afterGarbage, 0, "garbage reads as silence")
            let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 0.1, sampleRate: rate)
            MeterSignal.feed(tone, blocks: [97]) { meter.process($0, count: $1) }
            XCTAssertEqual(MeterSignal.dB(meter.read()), -6.02, accuracy: 0.02)
        }
    }
}
