/// Which instant a figure describes: live, its bundle's timetag says so (docs/outputs.md, "Timetags").
public enum FigureInstant: String, Sendable, CaseIterable {
    /// The tick's: the end of the analysed frames.
    case tick
    /// The centre of the pitch analysis window: sent in a bundle of its own with that timetag.
    case pitchWindow = "pitch window"
    /// The beat's predicted instant (sent `--beat-lead` ahead of it).
    case beat
    /// The moment it is sent.
    case now
}
