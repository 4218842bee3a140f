/// VU meter, IEC 60268-17: the ballistics of the moving-coil volume indicator, in linear units calibrated
/// so that a steady sine of amplitude A reads A (the scaling to VU marks is the caller's).
///
/// The needle is a second-order system driven by the full-wave rectified signal, as in Fons Adriaensen's
/// vumeterdsp: two one-pole sections with the second's output fed back at half weight,
///     z1' = ω(|x| − z2/2 − z1),   z2' = ω(z1 − z2),   ω = 11.1 s⁻¹,
/// whose poles −ω ± jω/√2 give a damping of 1/√1.5 = 0.816, hence an overshoot of
/// exp(−πζ/√(1−ζ²)) = 1.18 % (IEC 60268-17: 1 … 1.5 %), and 99 % of the final reading after 300 ms
/// (IEC 60268-17: 300 ms); Fons measured 300 ms / 1.17 % / 301 ms with these constants (his vumeterdsp as
/// x42/meters.lv2 ships it, 48 kHz).
/// The states are updated every sample (Fons updates the second every fourth), with ω/fs per step;
/// measured here at 44.1, 48 and 96 kHz: 301 ms, 1.176 %, 301 ms.
///
/// Calibration: a sine's mean |x| is 2A/π and the loop settles at z = (2/3)·mean|x|, so the gain is
/// 1.5·π/2 (Fons: 1.5 × 1.571).
///
/// `read` returns the largest reading since the previous read, so an overshoot between two reads is not
/// lost; `current` is the needle now. Not thread-safe: call `process` and `read` from one thread.
public final class VUMeter {
    /// The ballistic corner, ω = 11.1 rad/s (Fons Adriaensen's vumeterdsp, meets IEC 60268-17).
    public static let omega = 11.1
    /// Calibration gain: a steady sine of amplitude A reads A.
    static let gain = 1.5 * Double.pi / 2

    /// The sample rate the ballistics are scaled to.
    public let sampleRate: Double
    let w: Double
    var z1 = 0.0
    var z2 = 0.0
    var maximum = 0.0

    /// A meter at rest for `sampleRate`.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        w = VUMeter.omega / sampleRate
    }

    /// Runs the ballistics over `count` samples.
    public func process(_ samples: UnsafePointer<Float>, count: Int) {
        var z1 = self.z1, z2 = self.z2, m = maximum
        let w = self.w, a = 1 - self.w, halfW = 0.5 * self.w
        var i = 0
        while i < count {
            // z1 + w·(|x| − z2/2 − z1), arranged so that the loop-carried chain z2 → z1 → z2 is two
            // multiply-adds long (the rectified input's term does not wait for the states).
            let wx = w * Double(MeterInput.magnitude(samples[i]))
            z1 = (a * z1 + wx) - halfW * z2
            z2 = a * z2 + w * z1
            if z2 > m { m = z2 }
            i &+= 1
        }
        self.z1 = MeterInput.flush(z1)
        self.z2 = MeterInput.flush(z2)
        maximum = m
    }

    /// The largest reading (linear, ≥ 0) since the previous read; the next read starts from `current`.
    public func read() -> Float {
        let value = Float(max(VUMeter.gain * maximum, 0))
        maximum = z2
        return value
    }

    /// The reading now (linear, ≥ 0): the needle, without the maximum since the last read.
    public var current: Float { Float(max(VUMeter.gain * z2, 0)) }

    /// Puts the needle back at rest.
    public func reset() {
        z1 = 0
        z2 = 0
        maximum = 0
    }
}
