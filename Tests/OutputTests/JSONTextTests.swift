import Foundation
@testable import JSONOut
import XCTest

/// JSONText writes numbers as C's `%.Nf` does, byte for byte (printf, through String(format:), is the
/// reference), so replacing Foundation's formatting changed no line of `--json`.
final class JSONTextTests: XCTestCase {
    func formatted(_ value: Double, _ decimals: Int) -> String {
        var text = JSONText()
        text.fixed(value, decimals)
        return text.text
    }

    func testEveryKindOfValueComesOutAsPrintfPrintsIt() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        func check(_ v: Double) {
            for decimals in 0...4 {
                let expected = String(format: "%.\(decimals)f", v)
                let ours = formatted(v, decimals)
                if ours != expected { XCTFail("\(v) with \(decimals) decimals: \(ours), printf \(expected)"); return }
                checked += 1
            }
        }
        // The figures jacktap writes: dB from -200 to +20, levels 0…1, times, BPM, cents, Hz; as Float and Double.
        for _ in 0..<100_000 {
            let dB = Double.random(in: -200...20, using: &generator)
            check(dB)
            check(Double(Float(dB)))
            check(Double.random(in: 0...1, using: &generator))
            check(Double(Float.random(in: 0...1, using: &generator)))
            check(Double.random(in: 0...100_000, using: &generator))
            check(Double.random(in: -50...50, using: &generator))
        }
        // Ties and near-ties of the decimal grid, small negatives that round to zero, signed zeros, and large values.
        for n in -20_000...20_000 {
            for decimals in 1...4 {
                let tie = (Double(n) + 0.5) / pow(10, Double(decimals))
                check(tie)
                check(tie.nextUp)
                check(tie.nextDown)
            }
        }
        for v in [0.0, -0.0, -0.00001, -0.0004999, -0.0005, 0.0005, 0.00049999999999999, 2.5, 3.5, -2.5, 0.125, 0.375,
                  1e15, 9.1e15, 1e18, -1e20, Double.leastNonzeroMagnitude, -Double.leastNonzeroMagnitude, 1.7976931348623157e308] {
            check(v)
        }
        print("JSONText: \(checked) values checked against printf")
    }

    func testNonFiniteValuesAreNull() {
        XCTAssertEqual(formatted(.nan, 3), "null")
        XCTAssertEqual(formatted(.infinity, 3), "null")
        XCTAssertEqual(formatted(-.infinity, 0), "null")
    }

    func testStringsAreEscapedAndIntegersWritten() {
        var text = JSONText()
        text.quoted("a\"b\\c\u{01}\né")
        text.integer(-42)
        text.integer(0)
        text.integer(Int.min)
        text.boolean(true)
        XCTAssertEqual(text.text, "\"a\\\"b\\\\c\\u0001\\u000aé\"-420-9223372036854775808true")
    }
}
