import Foundation

/// Conversions between linear values and decibels as jacktap publishes them.
///
/// Silence is "-inf" nowhere: every dB value is floored at `floor` (-200) so that every OSC receiver and JSON
/// parser can read it, and NaN never leaves jacktap.
public enum Decibels {
    /// The lowest dB value jacktap ever reports.
    public static let floor: Float = -200

    /// 20·log10(amplitude), floored; NaN reads as the floor.
    public static func amplitude(_ linear: Double) -> Float {
        guard linear > 0, linear.isFinite else { return linear == .infinity ? 200 : floor }
        return Swift.max(Float(20 * log10(linear)), floor)
    }

    /// 10·log10(power), floored; NaN reads as the floor.
    public static func power(_ linear: Double) -> Float {
        guard linear > 0, linear.isFinite else { return linear == .infinity ? 200 : floor }
        return Swift.max(Float(10 * log10(linear)), floor)
    }

    /// Maps `db` linearly from `low`…0 dB onto 0…1, clamped.
    public static func unit(_ db: Float, low: Float) -> Float {
        guard db.isFinite else { return 0 }
        return Swift.min(Swift.max((db - low) / -low, 0), 1)
    }
}
