import Foundation

/// A JSON line under construction, as UTF-8 bytes: numbers are written by integer arithmetic, not by
/// `String(format:)`, because formatting every value of 64 ports 30 times a second through Foundation cost a
/// quarter of a core. Each number comes out exactly as `%.Nf` prints it (the tests compare them over millions of
/// values), so the lines are the same byte for byte.
struct JSONText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// The line as a String.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Literal JSON text (punctuation, keys, null).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Bytes known to need no escaping (a key written from the schema), as they are.
    mutating func append(_ text: some Collection<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// `text` as a JSON string: quotes and backslashes escaped, control characters as \u00XX.
    mutating func quoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 15)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer<I: BinaryInteger>(_ value: I) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        digits(UInt64(value.magnitude), minimumCount: 1)
    }

    mutating func boolean(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// `value` with `decimals` digits after the point, as C's `%.Nf` prints it (the exact binary value rounded
    /// half to even; "-" before a negative value, even one that rounds to zero), or null when not finite.
    ///
    /// The scaled value |v|·10^N is one multiplication away from the exact one (10^N is exact for N ≤ 22), off
    /// by at most half a unit in its last place; unless that leaves it within one unit of a rounding boundary
    /// (.5), rounding it rounds the exact value the same way. At a boundary, and beyond 2^53, printf decides.
    mutating func fixed<F: BinaryFloatingPoint>(_ value: F, _ decimals: Int) {
        let v = Double(value)
        guard v.isFinite else { raw("null"); return }
        precondition(decimals >= 0 && decimals < Self.powersOfTen.count, "0 to 18 decimals")
        let scaled = v.magnitude * Double(Self.powersOfTen[decimals])
        let whole = scaled.rounded(.down)
        let fraction = scaled - whole
        guard scaled < 9.0e15, (fraction - 0.5).magnitude > scaled * 4.5e-16 else {
            bytes.append(contentsOf: String(format: "%.\(decimals)f", v).utf8)
            return
        }
        let rounded = UInt64(whole) + (fraction > 0.5 ? 1 : 0)
        if v.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        let unit = Self.powersOfTen[decimals]
        digits(rounded / unit, minimumCount: 1)
        if decimals > 0 {
            bytes.append(UInt8(ascii: "."))
            digits(rounded % unit, minimumCount: decimals)
        }
    }

    /// The decimal digits of `value`, zero-padded to `minimumCount`.
    private mutating func digits(_ value: UInt64, minimumCount: Int) {
        var reversed: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                       UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &reversed) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < minimumCount {
                buffer[count] = UInt8(ascii: "0")
                count += 1
            }
            for i in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[i]) }
        }
    }

    static let powersOfTen: [UInt64] = (0...18).map { n in (0..<n).reduce(1) { acc, _ in acc * 10 } }
    static let hexDigits = Array("0123456789abcdef".utf8)
}
