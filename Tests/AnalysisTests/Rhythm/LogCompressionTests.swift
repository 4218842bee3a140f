@testable import Analysis
import Foundation
import XCTest

/// SuperFlux's log compression is log(1 + x) to within 2 units in the last place of a float, against the
/// double-precision libm, from the smallest magnitudes a spectrum holds to far beyond full scale.
final class LogCompressionTests: XCTestCase {
    func assertWithinTwoUnits(_ x: Float, file: StaticString = #filePath, line: UInt = #line) {
        let exact = Foundation.log1p(Double(x))
        let got = Double(LogCompression.log1p(x))
        let unit = Double(Float(exact).ulp)
        XCTAssertLessThanOrEqual(abs(got - exact), 2 * unit, "log1p(\(x)) = \(got), exact \(exact)",
                                 file: file, line: line)
    }

    func testMatchesLibmFromTinyToHugeArguments() {
        // Every power-of-ten step from 1e-30 to 1e30 in 1/97 decade steps: mantissas of every kind.
        var exponent = -30.0
        while exponent <= 30 {
            assertWithinTwoUnits(Float(pow(10, exponent)))
            exponent += 1.0 / 97
        }
    }

    func testIsExactAroundTheReductionBoundariesAndZero() {
        XCTAssertEqual(LogCompression.log1p(0), 0)
        // Around u = √2/2·2^k and powers of two, where the reduction changes k.
        for k in -3...20 {
            for base in [Float(2).squareRoot() / 2, 1] {
                let u = base * Float(pow(2, Double(k)))
                for x in [u.nextDown - 1, u - 1, u.nextUp - 1] where x >= 0 { assertWithinTwoUnits(x) }
            }
        }
    }
}
