/// The position of a channel in a loudness measurement, which sets its weight G_i in ITU-R BS.1770-4 (Annex 1,
/// Table 3): front channels 1.0, surrounds 1.41 (+1.5 dB), the LFE channel excluded.
///
/// A single JACK port measured on its own is one channel of weight 1.0 (use `.centre`, or `.left`): a −20 dBFS
/// 997 Hz sine on it reads −23.01 LUFS.
public enum ChannelRole: String, CaseIterable, Sendable {
    case left = "L"
    case right = "R"
    case centre = "C"
    case lfe = "LFE"
    case leftSurround = "Ls"
    case rightSurround = "Rs"

    /// G_i of BS.1770-4: 1.0 for L, R and C, 1.41 for Ls and Rs (the standard's figure, not √2), 0 for the
    /// LFE channel, which BS.1770 leaves out of the measurement.
    public var weight: Double {
        switch self {
        case .left, .right, .centre: 1.0
        case .lfe: 0.0
        case .leftSurround, .rightSurround: 1.41
        }
    }
}
