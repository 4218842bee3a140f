import Foundation

/// Phase correlation of a stereo pair, −1 … +1: +1 for identical signals, −1 for one the inverse of the
/// other, about 0 for unrelated ones, and 0 (never NaN) for silence.
///
/// As Fons Adriaensen's stcorrdsp, set up the way x42 meters instantiates it (`init(rate, 2 kHz, 0.3 s)`):
/// each channel is first low-passed by a one-pole at 2 kHz, so that the uncorrelated top octaves of
/// spaced microphones do not make the needle jitter, then L·R, L² and R² are smoothed by one-poles of
/// 300 ms time constant and the reading is ⟨LR⟩ / √(⟨L²⟩⟨R²⟩). Coefficients are the exact one-pole
/// discretisation 1 − e^(−ωT) rather than Fons's ωT, so the figures hold at any sample rate.
///
/// Fons divides by √(⟨L²⟩⟨R²⟩ + 10⁻¹⁰), which pulls quiet signals toward 0 (a −60 dBFS pair in phase reads
/// 0.05); here the quotient is exact and only a pair whose product is below 10⁻³⁰ (each below about
/// −150 dBFS) reads 0.
///
/// `read` returns the value now. Not thread-safe: call `process` and `read` from one thread.
public final class CorrelationMeter {
    /// Corner of the pre-filter (Fons / x42 meters: 2 kHz).
    public static let lowPassHertz = 2000.0
    /// Time constant of the smoothed products (Fons / x42 meters: 0.3 s).
    public static let timeConstant = 0.3

    /// The sample rate the filters are scaled to.
    public let sampleRate: Double
    let w1: Double
    let w2: Double
    var zl = 0.0
    var zr = 0.0
    var zlr = 0.0
    var zll = 0.0
    var zrr = 0.0

    /// A meter at rest for `sampleRate`.
    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        w1 = 1 - exp(-2 * Double.pi * CorrelationMeter.lowPassHertz / sampleRate)
        w2 = 1 - exp(-1 / (CorrelationMeter.timeConstant * sampleRate))
    }

    /// Runs the filters over `count` frames of the pair.
    public func process(left: UnsafePointer<Float>, right: UnsafePointer<Float>, count: Int) {
        var zl = self.zl, zr = self.zr, zlr = self.zlr, zll = self.zll, zrr = self.zrr
        let w1 = self.w1, w2 = self.w2, a1 = 1 - self.w1, a2 = 1 - self.w2
        var i = 0
        while i < count {
            zl = a1 * zl + w1 * Double(MeterInput.sample(left[i]))
            zr = a1 * zr + w1 * Double(MeterInput.sample(right[i]))
            zlr = a2 * zlr + w2 * (zl * zr)
            zll = a2 * zll + w2 * (zl * zl)
            zrr = a2 * zrr + w2 * (zr * zr)
            i &+= 1
        }
        self.zl = MeterInput.flush(zl)
        self.zr = MeterInput.flush(zr)
        self.zlr = MeterInput.flush(zlr)
        self.zll = MeterInput.flush(zll)
        self.zrr = MeterInput.flush(zrr)
    }

    /// The correlation now, −1 … +1; 0 for silence.
    public func read() -> Float {
        let power = zll * zrr
        guard power > 1e-30 else { return 0 }
        return Float(min(max(zlr / power.squareRoot(), -1), 1))
    }

    /// Puts the meter back at rest.
    public func reset() {
        zl = 0
        zr = 0
        zlr = 0
        zll = 0
        zrr = 0
    }
}
