/// log(1 + x) for x ≥ 0, written so that a loop over a spectrum vectorises: SuperFlux compresses every bin of
/// every frame with it, and libm's `log1pf`, a call per bin, was a fifth of a port's analysis time (perf,
/// `jacktap analyze`).
///
/// The method is fdlibm's `logf` (Sun Microsystems, 1993), whose minimax coefficients it uses: u = 1 + x is
/// split into 2^k · m with m in [√2/2, √2); log m = 2s + s·R(s²) with s = f / (2 + f), f = m − 1, for a
/// polynomial R of degree 4 in s²; k·ln 2 is added in two parts. The rounding of 1 + x is put back with
/// (x − (u − 1)) / u, so small x keep their precision. Within 2 units in the last place of the exact value over
/// the whole range (the test compares it with the double-precision libm).
enum LogCompression {
    private static let lg1: Float = 0.666_666_626_93
    private static let lg2: Float = 0.400_009_721_52
    private static let lg3: Float = 0.284_987_866_88
    private static let lg4: Float = 0.242_790_788_41
    /// ln 2 in a part with trailing zero bits, so k · ln2Hi is exact for the exponents of a float, and the rest.
    private static let ln2Hi: Float = 6.931_381_225_6e-01
    private static let ln2Lo: Float = 9.058_000_614_5e-06

    @inline(__always)
    static func log1p(_ x: Float) -> Float {
        let u = 1 + x
        let correction = (x - (u - 1)) / u
        // Move u's mantissa into [√2/2, √2) and count the exponent from there (0x3f3504f3 is √2/2).
        let shifted = u.bitPattern &+ (0x3f80_0000 &- 0x3f35_04f3)
        let k = Int32(bitPattern: shifted >> 23) &- 0x7f
        let m = Float(bitPattern: (shifted & 0x007f_ffff) &+ 0x3f35_04f3)
        let f = m - 1
        let s = f / (2 + f)
        let z = s * s
        let w = z * z
        let r = z * (lg1 + w * lg3) + w * (lg2 + w * lg4)
        let halfSquare = 0.5 * f * f
        let dk = Float(k)
        return s * (halfSquare + r) + dk * ln2Lo + correction - halfSquare + f + dk * ln2Hi
    }
}
