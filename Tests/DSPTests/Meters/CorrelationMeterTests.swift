import DSP
import XCTest

final class CorrelationMeterTests: XCTestCase {
    let rate = 48_000.0

    func correlation(_ left: [Float], _ right: [Float], blocks: [Int] = [256]) -> Float {
        let meter = CorrelationMeter(sampleRate: rate)
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                var done = 0, b = 0
                while done < l.count {
                    let n = min(blocks[b % blocks.count], l.count - done)
                    meter.process(left: l.baseAddress! + done, right: r.baseAddress! + done, count: n)
                    done += n
                    b += 1
                }
            }
        }
        return meter.read()
    }

    func testIdenticalSignalsReadPlusOne() {
        let noise = MeterSignal.noise(count: 96_000, amplitude: 0.5)
        XCTAssertEqual(correlation(noise, noise), 1, accuracy: 0.01)
        // Quiet signals too (Fons's +10⁻¹⁰ in the denominator pulls a −60 dBFS pair toward 0).
        let quiet = noise.map { $0 * 0.001 }
        XCTAssertEqual(correlation(quiet, quiet), 1, accuracy: 0.01)
    }

    func testInvertedSignalsReadMinusOne() {
        let noise = MeterSignal.noise(count: 96_000, amplitude: 0.5)
        XCTAssertEqual(correlation(noise, noise.map { -$0 }), -1, accuracy: 0.01)
    }

    func testUncorrelatedNoiseReadsNearZero() {
        let left = MeterSignal.noise(count: 96_000, amplitude: 0.5, seed: 1)
        let right = MeterSignal.noise(count: 96_000, amplitude: 0.5, seed: 987_654)
        XCTAssertLessThan(abs(correlation(left, right)), 0.1)
    }

    func testQuadratureSinesReadNearZero() {
        let left = MeterSignal.sine(frequency: 500, amplitude: 0.5, seconds: 2, sampleRate: rate)
        let right = MeterSignal.sine(frequency: 500, amplitude: 0.5, phaseDegrees: 90, seconds: 2, sampleRate: rate)
        XCTAssertLessThan(abs(correlation(left, right)), 0.05)
    }

    func testSilenceReadsZeroNotNaN() {
        let silence = MeterSignal.silence(seconds: 1, sampleRate: rate)
        XCTAssertEqual(correlation(silence, silence), 0)
        let fresh = CorrelationMeter(sampleRate: rate)
        XCTAssertEqual(fresh.read(), 0)
    }

    func testGarbageReadsFiniteAndDecaysIntoSilence() {
        let garbage: [Float] = [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, 1e30, .signalingNaN]
        let left = garbage + MeterSignal.noise(count: 48_000, amplitude: 0.5)
        let right = garbage.reversed() + MeterSignal.noise(count: 48_000, amplitude: 0.5)
        XCTAssertEqual(correlation(left, right, blocks: [5]), 1, accuracy: 0.01)
        let denormals = (0..<48_000).map { Float.leastNormalMagnitude * Float($0 % 5) / 7 }
        let reading = correlation(denormals, denormals)
        XCTAssertTrue(reading.isFinite)
    }

    func testReadingDoesNotDependOnTheBlockSize() {
        let left = MeterSignal.programme()
        let right = zip(left, MeterSignal.noise(count: left.count, amplitude: 0.2)).map { $0 * 0.7 + $1 }
        let expected = correlation(left, right, blocks: [4800])
        for blocks in MeterSignal.blockPatterns {
            XCTAssertEqual(correlation(left, right, blocks: blocks), expected, accuracy: 1e-6, "\(blocks)")
        }
    }
}
