/// What the float arguments of a message measure, decided by the message's leaf name (the last part of its
/// address): it tells a destination's ``ValueScale`` how to map them.
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

    /// The one table of leaf names. Add a leaf here when the OSC contract gains a path; a leaf that is not
    /// listed is sent as it is. Loudness leaves are the parts after `<programme>/loudness/`; `range` (LU,
    /// a difference of levels) is deliberately absent. VU, PPM and K are scale readings, not dBFS.
    public static let byLeaf: [String: ValueKind] = [
        // dBFS / dBTP / LUFS
        "peak": .decibels, "rms": .decibels, "truepeak": .decibels, "hold": .decibels,
        "momentary": .decibels, "shortterm": .decibels, "integrated": .decibels,
        "max_momentary": .decibels, "max_shortterm": .decibels,
        // 0..1
        "level": .unit, "bands": .unit, "bands4": .unit, "bands7": .unit,
        "bass": .unit, "lowmid": .unit, "mid": .unit, "high": .unit,
        "phase": .cyclicUnit,
    ]

    /// The kind of the message at `address`, by its leaf name.
    public static func of(address: String) -> ValueKind {
        guard let slash = address.lastIndex(of: "/") else { return byLeaf[address] ?? .asIs }
        return byLeaf[String(address[address.index(after: slash)...])] ?? .asIs
    }
}
