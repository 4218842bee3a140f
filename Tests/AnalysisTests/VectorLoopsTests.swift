@testable import Analysis
import XCTest

/// The eight-lane loops give what the plain loops give, to within float rounding, for every length (the tails
/// that do not fill a vector included).
final class VectorLoopsTests: XCTestCase {
    /// Values in [-1, 1) that look random and are the same in every run.
    func values(_ count: Int, seed: Double) -> [Float] {
        (0..<count).map { i in
            let x = sin(Double(i) * 12.9898 + seed * 78.233) * 43_758.5453
            return Float(2 * (x - x.rounded(.down)) - 1)
        }
    }

    let lengths = [0, 1, 7, 8, 9, 15, 16, 17, 100, 683]

    func testSumsMatchDoublePrecisionSums() {
        for n in lengths {
            let v = values(n, seed: 1)
            XCTAssertEqual(Double(VectorLoops.sum(v, count: n)), v.reduce(0) { $0 + Double($1) }, accuracy: 1e-4)
            XCTAssertEqual(Double(VectorLoops.sumOfSquares(v, count: n)),
                           v.reduce(0) { $0 + Double($1) * Double($1) }, accuracy: 1e-4)
        }
    }

    func testRiseCountsOnlyWhatRisesAboveTheFloor() {
        for n in lengths {
            let old = values(n, seed: 2), new = values(n, seed: 3)
            for floor: Float in [-.infinity, 0.25] {
                let expected = zip(old, new).reduce(0.0) { sum, pair in
                    sum + Double(max(0, max(pair.1, floor) - max(pair.0, floor)))
                }
                XCTAssertEqual(Double(VectorLoops.rise(from: old, to: new, count: n, floor: floor)), expected,
                               accuracy: 1e-4, "n \(n), floor \(floor)")
            }
        }
        // Nothing rises when the new frame is the old one, or lies wholly below the floor.
        let v = values(100, seed: 4)
        XCTAssertEqual(VectorLoops.rise(from: v, to: v, count: 100), 0)
        XCTAssertEqual(VectorLoops.rise(from: v.map { $0 - 3 }, to: v.map { $0 - 2 }, count: 100, floor: 1), 0)
    }

    func testRisesInOnePassAreTheTwoRisesToTheBit() {
        for n in lengths {
            let old = values(n, seed: 8), new = values(n, seed: 9)
            for floor: Float in [-.infinity, -0.5, 0.25, 2] {
                let (all, aboveFloor) = VectorLoops.rises(from: old, to: new, count: n, floor: floor)
                XCTAssertEqual(all.bitPattern, VectorLoops.rise(from: old, to: new, count: n).bitPattern, "n \(n)")
                XCTAssertEqual(aboveFloor.bitPattern,
                               VectorLoops.rise(from: old, to: new, count: n, floor: floor).bitPattern,
                               "n \(n), floor \(floor)")
            }
        }
    }

    func testMaximumTakesTheLargerOfEachPair() {
        for n in lengths {
            // Ties, and +0 against −0 (where Swift's max takes its second argument), in every lane and the tail.
            let a = values(n, seed: 10).enumerated().map { $0 % 3 == 0 ? 0 : $1 }
            let b = values(n, seed: 11).enumerated().map { $0 % 3 == 0 ? -0.0 : ($0 % 5 == 0 ? a[$0] : $1) }
            var target = [Float](repeating: .nan, count: n)
            VectorLoops.maximum(a, b, into: &target, count: n)
            XCTAssertEqual(target.map(\.bitPattern), (0..<n).map { max(a[$0], b[$0]).bitPattern }, "n \(n)")
        }
    }

    func testMagnitudesAndPowersOfInterleavedComplexValues() {
        for n in lengths {
            let pairs = values(2 * n, seed: 5)
            var magnitudes = [Float](repeating: -1, count: n)
            let largest = VectorLoops.magnitudes(of: pairs, count: n, into: &magnitudes)
            let expected: [Float] = (0..<n).map { k in
                let (re, im) = (pairs[2 * k], pairs[2 * k + 1])
                return (re * re + im * im).squareRoot()
            }
            XCTAssertEqual(magnitudes, expected)
            XCTAssertEqual(largest, expected.max() ?? 0)
            var power = pairs
            VectorLoops.squareMagnitudes(&power, count: n)
            for k in 0..<n {
                XCTAssertEqual(power[2 * k], expected[k] * expected[k], accuracy: 1e-6)
                XCTAssertEqual(power[2 * k + 1], 0)
            }
        }
    }

    func testScaleAndAddScaled() {
        for n in lengths {
            var v = values(n, seed: 6)
            let original = v
            let (sum, maximum) = VectorLoops.scale(&v, count: n, by: 0.5)
            XCTAssertEqual(v, original.map { $0 * 0.5 })
            XCTAssertEqual(Double(sum), v.reduce(0) { $0 + Double($1) }, accuracy: 1e-4)
            XCTAssertEqual(maximum, v.max() ?? -.infinity)
            var target = values(n, seed: 7)
            let before = target
            VectorLoops.addScaled(original, times: 3, into: &target, count: n)
            XCTAssertEqual(target, (0..<n).map { before[$0] + 3 * original[$0] })
        }
    }
}
