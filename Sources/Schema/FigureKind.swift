/// What a figure measures, which decides how a destination may rescale it (``scaling``).
public enum FigureKind: String, Sendable, CaseIterable {
    /// 0…1 (a level, a band).
    case level
    /// dBFS or dBTP, floored at -200.
    case decibels
    /// LUFS (BS.1770-4), floored at -200.
    case loudness
    /// LU: a difference of loudness levels (the loudness range).
    case loudnessUnits
    /// A reading on a meter's own scale (VU, PPM dB, K dB): 0 is the meter's reference, not full scale.
    case meterScale
    /// Hz and a confidence.
    case frequency
    /// A named note, its MIDI number and cents.
    case note
    /// Beats per minute.
    case tempo
    /// A 0…1 position in a cycle (the beat).
    case phase
    /// A whole number that only goes up (clip events, beats, bars).
    case count
    /// An event's strength, 0…1.
    case strength
    /// Stereo phase correlation, -1…+1.
    case correlation
    /// A state and counts of the run.
    case state

    /// How a destination's `scale=` maps the figure's float arguments.
    public var scaling: ValueKind {
        switch self {
        case .level: .unit
        case .decibels, .loudness: .decibels
        case .phase: .cyclicUnit
        case .loudnessUnits, .meterScale, .frequency, .note, .tempo, .count, .strength, .correlation, .state: .asIs
        }
    }
}
