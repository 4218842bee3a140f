/// What a programme's alarm says (`--alarms`): the faults a broadcaster's loudness logger raises.
public enum AlarmKind: String, Sendable, CaseIterable {
    /// Short-term loudness under -60 LUFS for `--silence` seconds: dead air.
    case silence
    /// Short-term loudness over the target plus its tolerance (`--target`).
    case overTarget = "over_target"
    /// A true peak over `--true-peak-max` (-1 dBTP, EBU R128's maximum), held for a second after the last.
    case truePeak = "true_peak"
}
