/// When a figure is sent.
public enum FigureCadence: String, Sendable, CaseIterable {
    /// Every tick (`--rate`, 30 per second of audio), in the tick's bundle.
    case everyTick = "every tick"
    /// Ticks whose pitch estimate is voiced: not sent when unvoiced or silent.
    case voicedTicks = "voiced ticks"
    /// Every tick once the beat tracker has locked.
    case onceLocked = "once locked"
    /// At once, the moment the analysis detects it.
    case atOnce = "at once"
    /// With each beat, in the beat's bundle.
    case withBeat = "with each beat"
    /// With beat 1 of a bar, in the beat's bundle.
    case withDownbeat = "with beat 1"
    /// Once a second, and at each change.
    case everySecond = "once a second, and at each change"
    /// When the analysis starts (at the start and again after a restart).
    case atStart = "when the analysis starts"
    /// When it changes, in a datagram of its own.
    case atChange = "when it changes"
}
