/// What the float arguments of a message measure, as far as a destination's ``ValueScale`` mapping is concerned;
/// each figure's follows from its ``FigureKind`` (``FigureKind/scaling``).
public enum ValueKind: Sendable, Equatable {
    /// Decibels (dBFS, dBTP, LUFS): mapped from the destination's floor..ceiling to 0..1 for unit, byte and
    /// percent, sent as they are with `scale=db`.
    case decibels
    /// Already 0..1 (a level, a band): clamped to 0..1 and sent as it is, or as 0..255 / 0..100.
    case unit
    /// A 0..1 position in a cycle (the beat phase): scaled like ``unit`` but never smoothed, because a
    /// smoothed saw tooth would sweep back through the whole cycle at every wrap.
    case cyclicUnit
    /// Anything with its own unit (Hz, MIDI note, BPM, counts, VU, PPM, K, LU, correlation, onset
    /// strength): sent as it is whatever the scale.
    case asIs

    /// The kind of the message at `address` (without prefix, `/in_1/peak`), by the figure the schema declares
    /// there; an address the schema does not declare is sent as it is.
    public static func of(address: String) -> ValueKind {
        FigureSchema.figure(at: address)?.kind.scaling ?? .asIs
    }
}
