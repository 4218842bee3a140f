import Foundation

/// One second-order IIR section, normalised so that a0 = 1:
/// y[n] = b0·x[n] + b1·x[n-1] + b2·x[n-2] − a1·y[n-1] − a2·y[n-2].
public struct BiquadCoefficients: Equatable, Sendable {
    public var b0: Double
    public var b1: Double
    public var b2: Double
    public var a1: Double
    public var a2: Double

    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0
        self.b1 = b1
        self.b2 = b2
        self.a1 = a1
        self.a2 = a2
    }

    /// Magnitude of the response at `frequency` Hz, for a filter running at `sampleRate`.
    public func magnitude(at frequency: Double, sampleRate: Double) -> Double {
        let w = 2 * Double.pi * frequency / sampleRate
        // H(e^jw) = (b0 + b1 e^-jw + b2 e^-2jw) / (1 + a1 e^-jw + a2 e^-2jw)
        let nr = b0 + b1 * cos(w) + b2 * cos(2 * w), ni = -(b1 * sin(w) + b2 * sin(2 * w))
        let dr = 1 + a1 * cos(w) + a2 * cos(2 * w), di = -(a1 * sin(w) + a2 * sin(2 * w))
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }
}

/// The K-weighting of ITU-R BS.1770-4 Annex 1: the "pre-filter" (a high shelf modelling the acoustic effect of
/// the head) followed by the "RLB" high-pass, each one biquad.
///
/// BS.1770 publishes the two sections' coefficients at 48 kHz only and asks that other rates use coefficients
/// giving the same frequency response. Both sections are therefore designed here from the analogue parameters
/// that reproduce the published 48 kHz figures (to 1e-14; libebur128's ebur128_init_filter) with the bilinear
/// transform prewarped at each section's f0, K = tan(π·f0/fs):
/// - shelf: f0 1681.974450955533 Hz, gain 3.999843853973347 dB, Q 0.7071752369554196; the band-edge gain is
///   Vh^0.4996667741545416 (the fitted exponent that makes the published b0…b2 come out, rather than RBJ's ½);
/// - high-pass: f0 38.13547087602444 Hz, Q 0.5003270373238773, numerator [1, −2, 1]·g.
///
/// The published high-pass numerator is [1, −2, 1] without the 1/a0 normalisation, so its passband gain is
/// a0(48 kHz) = 1 + K/Q + K² ≈ 1.005 (+0.043 dB), and the −0.691 of BS.1770's loudness formula is calibrated on
/// it. Keeping [1, −2, 1] at other rates (as libebur128 does) changes that gain with the rate, by −0.022 dB at
/// 96 kHz and −0.033 dB at 192 kHz: libebur128 reads a 1 kHz tone 0.017 and 0.027 LU lower there than at 48 kHz
/// (measured with Benchmarks/c-reference/ebur128_reference). Here g = a0(48 kHz)/a0(fs), so
/// the passband gain is the 48 kHz one at every rate (g is exactly 1 at 48 kHz) and the response is the same
/// (Fons Adriaensen's ebu_r128_proc likewise scales its high-pass by 1.004995 at every rate). A 1 kHz tone then
/// reads within 0.006 LU of its 48 kHz value at 44.1, 96 and 192 kHz (the rest is the shelf's bilinear warping).
public struct KWeighting: Equatable, Sendable {
    /// Stage 1, the high shelf ("pre-filter").
    public let shelf: BiquadCoefficients
    /// Stage 2, the RLB high-pass.
    public let highPass: BiquadCoefficients
    /// The sample rate the sections were designed for.
    public let sampleRate: Double

    // BS.1770-4 Annex 1 analogue parameters (see the type's documentation).
    static let shelfFrequency = 1681.974450955533
    static let shelfGainDB = 3.999843853973347
    static let shelfQ = 0.7071752369554196
    static let shelfBandGainExponent = 0.4996667741545416
    static let highPassFrequency = 38.13547087602444
    static let highPassQ = 0.5003270373238773
    /// The rate at which BS.1770 publishes the coefficients, and so defines the response.
    static let referenceRate = 48_000.0

    /// The two sections at `sampleRate` Hz.
    public init(sampleRate: Double) {
        precondition(sampleRate.isFinite && sampleRate > 2 * Self.shelfFrequency, "sample rate out of range")
        self.sampleRate = sampleRate
        shelf = Self.highShelf(
            f0: Self.shelfFrequency, gainDB: Self.shelfGainDB, q: Self.shelfQ, sampleRate: sampleRate)
        let passbandGain = Self.highPassA0(sampleRate: Self.referenceRate) / Self.highPassA0(sampleRate: sampleRate)
        highPass = Self.highPass(
            f0: Self.highPassFrequency, q: Self.highPassQ, gain: passbandGain, sampleRate: sampleRate)
    }

    /// The BS.1770 high shelf: unity at DC, 10^(gainDB/20) at Nyquist, bilinear with K = tan(π·f0/fs).
    public static func highShelf(f0: Double, gainDB: Double, q: Double, sampleRate: Double) -> BiquadCoefficients {
        let k = tan(Double.pi * f0 / sampleRate)
        let vh = pow(10, gainDB / 20)
        let vb = pow(vh, shelfBandGainExponent)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(
            b0: (vh + vb * k / q + k * k) / a0,
            b1: 2 * (k * k - vh) / a0,
            b2: (vh - vb * k / q + k * k) / a0,
            a1: 2 * (k * k - 1) / a0,
            a2: (1 - k / q + k * k) / a0)
    }

    /// A second-order high-pass, bilinear with K = tan(π·f0/fs), numerator gain·[1, −2, 1] (not divided by a0,
    /// as BS.1770 publishes it).
    public static func highPass(f0: Double, q: Double, gain: Double, sampleRate: Double) -> BiquadCoefficients {
        let k = tan(Double.pi * f0 / sampleRate)
        let a0 = 1 + k / q + k * k
        return BiquadCoefficients(
            b0: gain, b1: -2 * gain, b2: gain,
            a1: 2 * (k * k - 1) / a0,
            a2: (1 - k / q + k * k) / a0)
    }

    static func highPassA0(sampleRate: Double) -> Double {
        let k = tan(Double.pi * highPassFrequency / sampleRate)
        return 1 + k / highPassQ + k * k
    }

    /// Magnitude of the whole K-weighting at `frequency` Hz.
    public func magnitude(at frequency: Double) -> Double {
        shelf.magnitude(at: frequency, sampleRate: sampleRate)
            * highPass.magnitude(at: frequency, sampleRate: sampleRate)
    }

    /// The filter memory of one channel: both sections in transposed direct form II, in Double.
    public struct State: Equatable, Sendable {
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        public init() {}

        /// True when every state variable is exactly zero.
        public var isZero: Bool { s1 == 0 && s2 == 0 && s3 == 0 && s4 == 0 }

        /// Sets to zero every state variable smaller than `threshold` in magnitude.
        ///
        /// Denormal guard: after the input falls silent the state decays exponentially towards zero and would
        /// reach the subnormal range (below 2.2e-308), where x86 arithmetic takes a slow path ~100× slower.
        /// Over one sub-block (6.67 ms) the fastest mode (the shelf's poles) decays by at most ~e^-50 ≈ 2e-22 at any
        /// rate, so a state flushed below 1e-80 at every sub-block boundary stays above ~1e-102 in between, and
        /// so do the squares of the output (above 1e-204): nothing ever becomes subnormal. 1e-80 is 1,600 dB
        /// below full scale.
        @inline(__always)
        public mutating func flush(below threshold: Double = KWeighting.flushThreshold) {
            if abs(s1) < threshold { s1 = 0 }
            if abs(s2) < threshold { s2 = 0 }
            if abs(s3) < threshold { s3 = 0 }
            if abs(s4) < threshold { s4 = 0 }
        }
    }

    /// The threshold of `State.flush`.
    public static let flushThreshold = 1e-80

    /// Filters `count` samples and adds the squares of the K-weighted output, one by one in order, to `sum`.
    ///
    /// Input samples that are NaN, ±Inf or Float subnormals count as 0 (`TapKernel.sanitizedBits`): one bad
    /// sample would otherwise poison the recursive state, and every reading, for good. The running sum is one
    /// Double added to in sample order, so splitting a run of samples into several calls gives a bit-identical sum.
    @inline(__always)
    public func filterAndSumSquares(
        _ input: UnsafePointer<Float>, count: Int, state: inout State, sum: inout Double
    ) {
        let (b0, b1, b2, a1, a2) = (shelf.b0, shelf.b1, shelf.b2, shelf.a1, shelf.a2)
        let (c0, c1, c2, d1, d2) = (highPass.b0, highPass.b1, highPass.b2, highPass.a1, highPass.a2)
        var (s1, s2, s3, s4) = (state.s1, state.s2, state.s3, state.s4)
        var total = sum
        var i = 0
        while i < count {
            let x = Double(Float(bitPattern: TapKernel.sanitizedBits(input[i].bitPattern)))
            let y = b0 * x + s1
            s1 = b1 * x - a1 * y + s2
            s2 = b2 * x - a2 * y
            let z = c0 * y + s3
            s3 = c1 * y - d1 * z + s4
            s4 = c2 * y - d2 * z
            total += z * z
            i &+= 1
        }
        state.s1 = s1
        state.s2 = s2
        state.s3 = s3
        state.s4 = s4
        sum = total
    }

    /// Scalar reference of one K-weighted sample, written as the textbook difference equations (direct form I
    /// on explicit histories): the definition `filterAndSumSquares` is tested against.
    public struct Reference {
        public let weighting: KWeighting
        var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0, z1 = 0.0, z2 = 0.0
        public init(_ weighting: KWeighting) { self.weighting = weighting }

        public mutating func process(_ x: Double) -> Double {
            let s = weighting.shelf, h = weighting.highPass
            let y = s.b0 * x + s.b1 * x1 + s.b2 * x2 - s.a1 * y1 - s.a2 * y2
            let z = h.b0 * y + h.b1 * y1 + h.b2 * y2 - h.a1 * z1 - h.a2 * z2
            (x2, x1, y2, y1, z2, z1) = (x1, x, y1, y, z1, z)
            return z
        }
    }
}
