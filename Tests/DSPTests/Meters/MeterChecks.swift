import DSP
import XCTest

/// The verbs every single-channel meter shares, so the checks below run on each.
protocol ChannelMeter: AnyObject {
    func process(_ samples: UnsafePointer<Float>, count: Int)
    func read() -> Float
}

extension TruePeakMeter: ChannelMeter {}
extension VUMeter: ChannelMeter {}
extension PPMMeter: ChannelMeter {}
extension KMeter: ChannelMeter {}

/// Checks every meter must pass.
enum MeterChecks {
    /// Readings every 100 ms of `MeterSignal.programme()` agree within 0.01 dB whatever the blocks.
    static func assertBlockSizeIndependent(make: () -> ChannelMeter, file: StaticString = #filePath,
                                           line: UInt = #line) {
        let signal = MeterSignal.programme()
        let reference = make()
        let expected = MeterSignal.readings(of: signal, segment: 4800, blocks: [4800],
                                            process: { reference.process($0, count: $1) }, read: { reference.read() })
        for blocks in MeterSignal.blockPatterns {
            let meter = make()
            let got = MeterSignal.readings(of: signal, segment: 4800, blocks: blocks,
                                           process: { meter.process($0, count: $1) }, read: { meter.read() })
            XCTAssertEqual(got.count, expected.count, file: file, line: line)
            for (i, (g, e)) in zip(got, expected).enumerated() {
                XCTAssertEqual(Decibels.amplitude(Double(g)), Decibels.amplitude(Double(e)), accuracy: 0.01,
                               "blocks \(blocks), read \(i)", file: file, line: line)
            }
        }
    }

    /// Silence reads 0; NaN, ±Inf and denormals read finite and leave the meter working: a 1 kHz sine of
    /// amplitude 0.5 afterwards reads `expectAfterTone` (±0.1 dB).
    static func assertGarbageReadsFinite(make: () -> ChannelMeter, expectAfterTone: Float,
                                         file: StaticString = #filePath, line: UInt = #line) {
        let meter = make()
        MeterSignal.feed(MeterSignal.silence(seconds: 1, sampleRate: 48_000), blocks: [256]) {
            meter.process($0, count: $1)
        }
        XCTAssertEqual(meter.read(), 0, "silence", file: file, line: line)
        let denormals = (0..<48_000).map { Float.leastNormalMagnitude * Float($0 % 7) / 9 }
        MeterSignal.feed(denormals, blocks: [64]) { meter.process($0, count: $1) }
        let afterDenormals = meter.read()
        XCTAssertTrue(afterDenormals.isFinite, file: file, line: line)
        XCTAssertLessThan(afterDenormals, 1e-30, file: file, line: line)
        let garbage: [Float] = [.nan, .infinity, -.infinity, .signalingNaN, 1e30, -1e38, .leastNonzeroMagnitude]
        MeterSignal.feed(garbage, blocks: [3]) { meter.process($0, count: $1) }
        XCTAssertTrue(meter.read().isFinite, file: file, line: line)
        let tone = MeterSignal.sine(frequency: 1000, amplitude: 0.5, seconds: 3, sampleRate: 48_000)
        MeterSignal.feed(tone, blocks: [97]) { meter.process($0, count: $1) }
        _ = meter.read()
        MeterSignal.feed(Array(tone[0..<4800]), blocks: [97]) { meter.process($0, count: $1) }
        let reading = meter.read()
        XCTAssertTrue(reading.isFinite, file: file, line: line)
        XCTAssertEqual(MeterSignal.dB(reading), MeterSignal.dB(expectAfterTone), accuracy: 0.1,
                       file: file, line: line)
    }
}
