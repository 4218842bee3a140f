/// When a programme raises its alarms (`--alarms`, `--silence`, `--target`, `--true-peak-max`).
public struct AlarmSettings: Sendable, Equatable {
    /// The alarms that are on.
    public var kinds: Set<AlarmKind>
    /// Seconds of short-term loudness under ``silenceBelowLUFS`` before the silence alarm.
    public var silenceSeconds: Double
    /// The level under which a programme is silent: -60 LUFS short-term, where speech pauses and quiet music
    /// stay above and only dead air or a faded-out channel go below.
    public var silenceBelowLUFS: Double = -60
    public var target: LoudnessTarget
    /// The highest true peak allowed, dBTP (EBU R128: -1; ATSC A/85: -2).
    public var truePeakMaxDB: Double
    /// An over-target alarm ends once short-term loudness is this far back under the limit, so that a programme
    /// hovering at the limit does not flicker the alarm at every tick.
    public var overTargetHysteresisLU: Double = 0.5
    /// A true-peak alarm ends this long after its last over, so that a single over is seen.
    public var truePeakHoldSeconds: Double = 1

    public init(kinds: Set<AlarmKind>, silenceSeconds: Double = 10, target: LoudnessTarget = .ebuR128,
                truePeakMaxDB: Double = -1) {
        self.kinds = kinds
        self.silenceSeconds = silenceSeconds
        self.target = target
        self.truePeakMaxDB = truePeakMaxDB
    }
}
