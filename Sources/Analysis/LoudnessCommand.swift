/// What the control input, a key or a signal asks of a loudness programme (EBU Tech 3341 §2.4: a meter offers
/// start, pause and reset of the integration).
public enum LoudnessCommand: String, Sendable, CaseIterable {
    /// Integrated, range and maxima ignore the audio until `resume`; momentary and short-term keep showing it.
    case pause
    /// Integrated, range and maxima take the audio again.
    case resume
    /// Integrated, range, maxima and the programme's highest true peak start again.
    case reset
}
