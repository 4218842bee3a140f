import DSP
import ToolSupport
import XCTest

final class TapKernelTests: XCTestCase {
    /// Samples with every special case the real-time kernel must clean: NaN, ±Inf, denormals, signed zeros.
    func makeSamples(count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix(seed: seed)
        var samples = (0..<count).map { _ in Float(generator.nextUnit() * 2 - 1) }
        let specials: [Float] = [.nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude,
                                 -Float.leastNormalMagnitude / 2, -0.0, 0.0]
        for (k, special) in specials.enumerated() where k * 37 < count { samples[k * 37] = special }
        return samples
    }

    func testFastKernelAgreesWithScalarReferenceOnEveryLength() {
        for count in [0, 1, 7, 8, 9, 63, 64, 255, 256, 1023, 1024] {
            let samples = makeSamples(count: count, seed: UInt64(count) + 1)
            var fastOut = [Float](repeating: 1, count: count)
            var referenceOut = [Float](repeating: 2, count: count)
            let fast = samples.withUnsafeBufferPointer { s in
                fastOut.withUnsafeMutableBufferPointer {
                    TapKernel.measure(s.baseAddress!, into: $0.baseAddress, count: count)
                }
            }
            let reference = samples.withUnsafeBufferPointer { s in
                referenceOut.withUnsafeMutableBufferPointer {
                    TapKernel.referenceMeasure(s.baseAddress!, into: $0.baseAddress, count: count)
                }
            }
            XCTAssertEqual(fast.peak, reference.peak, "peak, \(count) frames")
            XCTAssertEqual(fast.sumOfSquares, reference.sumOfSquares, accuracy: reference.sumOfSquares * 1e-5 + 1e-12)
            XCTAssertEqual(fastOut.map(\.bitPattern), referenceOut.map(\.bitPattern), "copied frames, \(count)")
        }
    }

    func testNonFiniteAndDenormalSamplesNeverReachTheMeters() {
        var samples: [Float] = [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, 0.5, -0.25, .nan, 0]
        samples += samples
        var out = [Float](repeating: 9, count: samples.count)
        let m = samples.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { TapKernel.measure(s.baseAddress!, into: $0.baseAddress, count: 16) }
        }
        XCTAssertEqual(m.peak, 0.5)
        XCTAssertEqual(m.sumOfSquares, 2 * (0.25 + 0.0625), accuracy: 1e-7)
        XCTAssertTrue(out.allSatisfy { $0.isFinite && ($0 == 0 || $0.isNormal) })
        XCTAssertEqual(out[4], 0.5)
        XCTAssertEqual(out[0], 0)
    }

    func testMeasureWithoutCopyGivesTheSameFigures() {
        let samples = makeSamples(count: 300, seed: 9)
        let withCopy = samples.withUnsafeBufferPointer { s in
            var out = [Float](repeating: 0, count: 300)
            return out.withUnsafeMutableBufferPointer { TapKernel.measure(s.baseAddress!, into: $0.baseAddress, count: 300) }
        }
        let measureOnly = samples.withUnsafeBufferPointer { TapKernel.measure($0.baseAddress!, into: nil, count: 300) }
        XCTAssertEqual(withCopy, measureOnly)
    }
}
