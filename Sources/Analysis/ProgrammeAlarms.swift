/// One programme's alarms, raised and ended tick by tick from its loudness and its ports' true peaks, in audio
/// time: the same audio raises the same alarms on any machine, live or from a file.
struct ProgrammeAlarms {
    let settings: AlarmSettings
    private(set) var on: Set<AlarmKind> = []
    private var quietSince: Double?
    private var lastOver: Double?

    init(settings: AlarmSettings) { self.settings = settings }

    /// Forgets every alarm (its engine is done; the ends were sent).
    mutating func endAll() {
        on = []
        quietSince = nil
        lastOver = nil
    }

    /// The alarms that start (true) or end (false) at this tick, at `time` seconds of audio. While the programme
    /// is paused (a break that is not the programme) it raises no silence and no over-target alarm; a true peak
    /// over the maximum is an over on the air whatever the programme, and counts.
    mutating func update(time: Double, shortTerm: Float, truePeakDB: Float?, paused: Bool = false) -> [(AlarmKind, Bool)] {
        var changes = [(AlarmKind, Bool)]()
        func set(_ kind: AlarmKind, _ wanted: Bool) {
            guard settings.kinds.contains(kind), on.contains(kind) != wanted else { return }
            if wanted { on.insert(kind) } else { on.remove(kind) }
            changes.append((kind, wanted))
        }
        let shortTerm = Double(shortTerm)
        if paused {
            quietSince = nil
            set(.silence, false)
        } else if shortTerm < settings.silenceBelowLUFS {
            let since = quietSince ?? time
            quietSince = since
            set(.silence, time - since >= settings.silenceSeconds - 1e-9)
        } else {
            quietSince = nil
            set(.silence, false)
        }
        let limit = settings.target.lufs + settings.target.toleranceLU
        if paused {
            set(.overTarget, false)
        } else if shortTerm > limit {
            set(.overTarget, true)
        } else if shortTerm <= limit - settings.overTargetHysteresisLU {
            set(.overTarget, false)
        }
        if let truePeakDB, Double(truePeakDB) > settings.truePeakMaxDB { lastOver = time }
        set(.truePeak, lastOver.map { time - $0 < settings.truePeakHoldSeconds } ?? false)
        return changes
    }
}
