/// The RMS meter of Bob Katz's K-system (K-20 / K-14 / K-12), calibrated so that a steady sine reads its
/// peak (RMS × √2, the "sine reads as its peak" convention of the K-system and of AES17 dBFS); the K-20,
/// -14 or -12 offset of the 0 mark is the caller's.
///
/// Ballistics of Fons Adriaensen's kmeterdsp: the squared signal through two cascaded one-pole low-passes
/// of ω = 9.72 s⁻¹. Their step response 1 − e^(−ωt)(1 + ωt) has no overshoot, and the reading (its square
/// root) reaches 99 % when that response reaches 0.98, at ωt = 5.84, t = 0.601 s: Fons's "99 % at
/// 600 ms" (his kmeterdsp as x42/meters.lv2 ships it, 48 kHz); measured here 600.8 ms at 48 kHz. Both sections
/// are updated every sample (Fons updates the second every fourth).
///
/// `read` returns the largest reading since the previous read. Not thread-safe: call `process` and `read`
/// from one thread. The K-system's peak hold (0.5 s, then 15 dB/s) is `PeakHold`'s.
public final class KMeter {
    /// The ballistic corner, ω = 9.72 rad/s (Fons Adriaensen's kmeterdsp).
    public static let omega = 9.72

    /// The sample rate the ballistics are scaled to.
    public let sampleRate: Double
    let w: Double
    var z1 = 0.0
    var z2 = 0.0
    var maximum = 0.0

    /// A meter at rest for `sampleRate`.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        w = KMeter.omega / sampleRate
    }

    /// Runs the ballistics over `count` samples.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        var z1 = self.z1, z2 = self.z2, m = maximum
        let w = self.w, a = 1 - self.w
        var i = 0
        while i < count {
            let x = Double(MeterInput.sample(samples[i]))
            z1 = a * z1 + w * (x * x)
            z2 = a * z2 + w * z1
            if z2 > m { m = z2 }
            i &+= 1
        }
        self.z1 = MeterInput.flush(z1)
        self.z2 = MeterInput.flush(z2)
        maximum = m
    }

    /// The largest reading (linear, sine peak calibrated) since the previous read; the next read starts
    /// from `current`.
    public func read() -> Float {
        let value = Float((2 * max(maximum, 0)).squareRoot())
        maximum = z2
        return value
    }

    /// The reading now (linear), without the maximum since the last read.
    public var current: Float { Float((2 * max(z2, 0)).squareRoot()) }

    /// Puts the meter back at rest.
    public func reset() {
        z1 = 0
        z2 = 0
        maximum = 0
    }
}
