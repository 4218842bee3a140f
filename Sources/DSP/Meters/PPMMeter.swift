import Foundation

/// Quasi-peak programme meter, IEC 60268-10 type I (DIN 45406) or type II (BBC / EBU), calibrated so that
/// a steady sine of amplitude A reads A (the scale, in dB or PPM marks, is the caller's).
///
/// Two peak followers with different attack rates share one exponential release, and the reading is
/// their sum: the construction of Fons Adriaensen's iec1ppmdsp / iec2ppmdsp, whose attack rates are kept
/// (type I 450 s⁻¹ and 1300 s⁻¹, type II 200 s⁻¹ and 860 s⁻¹). Measured here with them, 48 kHz, relative
/// to the steady tone (in brackets: DIN 45406 or IEC 60268-10, or Fons's own figure where they give none):
/// - type I: 10 ms burst −0.83 dB (DIN: −1), 5 ms −2.07 dB (−2);
/// - type II: 10 ms burst −2.04 dB (IEC IIa: −2), 5 ms −3.95 dB (Fons −3.95).
/// The release is set from the standard's fall time, not from Fons's constant: type I falls 20 dB in
/// 1.5 s (DIN 45406; Fons's 1.7 s is the Nordic figure), type II 24 dB in 2.8 s (IEC 60268-10 IIa;
/// Fons 2.764 s). Attack and release act on every sample (Fons releases every fourth), so nothing depends
/// on the block size.
///
/// The calibration gain (≈ 0.512 for type I, 0.514 for type II; Fons 0.5108 / 0.5141) is measured in
/// `init`: the followers run on a steady 1 kHz sine of amplitude 1 until they settle (0.5 s; they settle
/// within 10⁻⁵ in 0.25 s) and the gain is the inverse of the largest sum over the last 0.1 s.
///
/// `read` returns the largest reading since the previous read. Not thread-safe: call `process` and
/// `read` from one thread.
public final class PPMMeter {
    /// Which IEC 60268-10 meter.
    public enum Kind: Sendable, Equatable {
        /// Type I: DIN 45406 (German and Nordic broadcasting): 10 ms burst −1 dB, falls 20 dB in 1.5 s.
        case typeI
        /// Type II: BBC / EBU (IEC 60268-10 IIa/IIb): 10 ms burst −2 dB, falls 24 dB in 2.8 s.
        case typeII

        /// Attack rates of the two followers, s⁻¹ (Fons Adriaensen's iec1ppmdsp / iec2ppmdsp).
        var attackRates: (Double, Double) {
            self == .typeI ? (450, 1300) : (200, 860)
        }

        /// (dB, seconds) of the specified fall.
        public var fall: (decibels: Double, seconds: Double) {
            self == .typeI ? (20, 1.5) : (24, 2.8)
        }
    }

    /// The meter's type.
    public let kind: Kind
    /// The sample rate the ballistics are scaled to.
    public let sampleRate: Double
    let attack1: Double
    let attack2: Double
    /// Per-sample release factor: exp(−k/fs), with k such that the reading falls `kind.fall` exactly.
    let release: Double
    let gain: Double
    var z1 = 0.0
    var z2 = 0.0
    var maximum = 0.0

    /// A meter at rest of `kind` for `sampleRate`; measures its calibration gain.
    public init(kind: Kind, sampleRate: Double) {
        self.kind = kind
        self.sampleRate = sampleRate
        let rates = kind.attackRates
        attack1 = rates.0 / sampleRate
        attack2 = rates.1 / sampleRate
        // ln(10)/20 · dB per second: the release rate in s⁻¹ that loses `decibels` in `seconds`.
        let k = kind.fall.decibels / kind.fall.seconds * log(10) / 20
        release = exp(-k / sampleRate)
        gain = PPMMeter.calibrationGain(attack1: attack1, attack2: attack2, release: release,
                                        sampleRate: sampleRate)
    }

    /// One sample of the two followers.
    @inline(__always)
    static func step(_ t: Double, _ z1: inout Double, _ z2: inout Double, attack1: Double, attack2: Double,
                     release: Double) {
        z1 *= release
        z2 *= release
        if t > z1 { z1 += attack1 * (t - z1) }
        if t > z2 { z2 += attack2 * (t - z2) }
    }

    /// 1 / the settled reading of a 1 kHz sine of amplitude 1.
    static func calibrationGain(attack1: Double, attack2: Double, release: Double, sampleRate: Double) -> Double {
        let settle = max(Int(0.5 * sampleRate), 1)
        let window = max(Int(0.1 * sampleRate), 1)
        var z1 = 0.0, z2 = 0.0, m = 0.0
        for i in 0..<(settle + window) {
            let cycles = Double(i) * 1000 / sampleRate
            let t = abs(sin(2 * Double.pi * (cycles - cycles.rounded(.down))))
            step(t, &z1, &z2, attack1: attack1, attack2: attack2, release: release)
            if i >= settle { m = max(m, z1 + z2) }
        }
        return m > 0 ? 1 / m : 1
    }

    /// Runs the ballistics over `count` samples.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        var z1 = self.z1, z2 = self.z2, m = maximum
        let a1 = attack1, a2 = attack2, r = release
        var i = 0
        while i < count {
            PPMMeter.step(Double(MeterInput.magnitude(samples[i])), &z1, &z2, attack1: a1, attack2: a2, release: r)
            let s = z1 + z2
            if s > m { m = s }
            i &+= 1
        }
        self.z1 = MeterInput.flush(z1)
        self.z2 = MeterInput.flush(z2)
        maximum = m
    }

    /// The largest reading (linear) since the previous read; the next read starts from `current`.
    public func read() -> Float {
        let value = Float(gain * maximum)
        maximum = z1 + z2
        return value
    }

    /// The reading now (linear), without the maximum since the last read.
    public var current: Float { Float(gain * (z1 + z2)) }

    /// Puts the meter back at rest.
    public func reset() {
        z1 = 0
        z2 = 0
        maximum = 0
    }
}
