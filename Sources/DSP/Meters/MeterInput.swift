/// What every meter does to an input sample before it reaches a ballistic filter, and the denormal guard
/// of the filter states.
///
/// A sample that is NaN, ±Inf or larger in magnitude than `limit` (2^32, +193 dBFS, far beyond any
/// converter) is read as silence, as the tap's kernel reads NaN and Inf, so no meter state can become
/// NaN or overflow when squared. The ballistic states are Doubles: a one-pole step of 11.1/fs (VU) or
/// 9.72/fs (K) is below a Float's resolution near the final value at 192 kHz, and a Float sample (even
/// a denormal one) is a normal Double.
enum MeterInput {
    /// Largest accepted magnitude: 2^32.
    static let limit: Float = 4_294_967_296

    /// |x| for a usable sample, 0 for NaN, ±Inf and anything above `limit` (a NaN fails the compare).
    @inline(__always)
    static func magnitude(_ x: Float) -> Float {
        let m = abs(x)
        return m < limit ? m : 0
    }

    /// x for a usable sample, 0 otherwise (the signed form of `magnitude`).
    @inline(__always)
    static func sample(_ x: Float) -> Float {
        abs(x) < limit ? x : 0
    }

    /// 0 for a filter state below 1e-30 (−600 dB), the state itself otherwise; applied to each state at
    /// the end of every block. The states are Doubles, which only reach denormals (below 2.2e-308, where
    /// x86 arithmetic is up to ~100× slower) after minutes of silence: a type II PPM needs 12 minutes. A
    /// per-sample add/sub guard (Fons Adriaensen adds 1e-10 per block; 1e-20 per sample in stcorrdsp)
    /// would lengthen every filter's dependency chain by two additions; per block it costs nothing, and
    /// the only difference it makes between block sizes is below 1e-30, far under the ±0.01 dB allowed.
    @inline(__always)
    static func flush(_ z: Double) -> Double {
        abs(z) < 1e-30 ? 0 : z
    }
}
