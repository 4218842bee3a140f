import Schema

/// How a destination wants its values: `scale=db|unit|byte|percent`.
///
/// Lighting consoles take levels as 0..1 floats (Resolume, QLC+, MagicQ), 0..255 integers (DMX) or
/// 0..100 (ETC Eos); QLC+ does not clamp and wraps 1.5 to a low value (QLC+ 4.12's OSC plugin takes
/// `(char)(255.0 * v)`, oscpacketizer.cpp), so every mapped value is clamped.
public enum ValueScale: String, Sendable, Equatable, CaseIterable {
    /// Values as measured: dB in dB, 0..1 in 0..1 (the v1 contract).
    case db
    /// dB mapped linearly from floor..ceiling to 0..1; 0..1 values clamped to 0..1.
    case unit
    /// As `unit`, times 255, rounded, sent as an int32.
    case byte
    /// As `unit`, times 100, sent as a float.
    case percent

    /// `value` of `kind` on this scale, as a real number (before ``byte``'s rounding), so that smoothing
    /// works on the continuous value. `floor` and `ceiling` are the dB that map to 0 and 1.
    public func map(_ value: Double, kind: ValueKind, floor: Double, ceiling: Double) -> Double {
        let unitValue: Double
        switch (self, kind) {
        case (_, .asIs), (.db, _): return value
        case (_, .decibels): unitValue = (value - floor) / (ceiling - floor)
        case (_, .unit), (_, .cyclicUnit): unitValue = value
        }
        let clamped = unitValue.isNaN ? 0 : min(1, max(0, unitValue))
        switch self {
        case .db, .unit: return clamped
        case .byte: return 255 * clamped
        case .percent: return 100 * clamped
        }
    }

    /// Whether values of `kind` leave as int32 on this scale.
    public func sendsInteger(_ kind: ValueKind) -> Bool {
        self == .byte && kind != .asIs
    }
}
