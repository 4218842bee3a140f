/// A held peak in dB: holds the highest level for `holdSeconds`, then falls at `fallDBPerSecond` until a
/// level reaches it again (the K-system's digital peak indicator: 0.5 s, then 15 dB/s in Fons Adriaensen's
/// kmeterdsp; bar graphs commonly hold 1–2 s).
///
/// Advanced by elapsed time, not by samples or periods: the held value is computed from the peak and the
/// time since it (`peak − fall · max(0, age − hold)`), never by subtracting per step, so it is the same
/// whether time advances in many small steps or few large ones (jack_mixer's K-meter peak fell at a rate that
/// depended on the period size until jack_mixer pull request #133). Values are floored at `Decibels.floor`.
public struct PeakHold: Sendable, Equatable {
    /// How long a peak is held before it falls, seconds.
    public var holdSeconds: Double
    /// How fast the held value falls after the hold, dB per second.
    public var fallDBPerSecond: Double
    /// The last peak, dB.
    var peak: Double = Double(Decibels.floor)
    /// Seconds since `peak`.
    var age: Double = 0

    /// A held value at the floor, holding `holdSeconds` then falling `fallDBPerSecond`.
    public init(holdSeconds: Double = 1.5, fallDBPerSecond: Double = 20) {
        self.holdSeconds = max(holdSeconds, 0)
        self.fallDBPerSecond = max(fallDBPerSecond, 0)
    }

    /// The held value now, dB.
    public var value: Float {
        let fallen = peak - fallDBPerSecond * max(0, age - holdSeconds)
        return Float(max(fallen, Double(Decibels.floor)))
    }

    /// Advances time by `elapsedSeconds`, then takes `levelDB` (the level at the end of that time) if it is
    /// at or above the held value; returns the held value. NaN levels and negative times are ignored.
    @discardableResult
    public mutating func update(levelDB: Float, elapsedSeconds: Double) -> Float {
        if elapsedSeconds > 0 { age += elapsedSeconds }
        let held = value
        if levelDB >= held {
            peak = Double(levelDB)
            age = 0
        }
        return value
    }

    /// Drops the held value to the floor.
    public mutating func reset() {
        peak = Double(Decibels.floor)
        age = 0
    }
}
