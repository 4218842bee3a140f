/// How the tempo/phase model (`TempoPhaseModel`) reads its activation, and what it adds to it: the two
/// activations jacktap has are shaped differently, so each has its own settings.
public struct BeatModelSettings: Sendable, Equatable {
    /// Beat states per beat: `beatFraction` of the period (at least one frame) when above 0, else `beatFrames`.
    public var beatFraction: Double
    public var beatFrames: Int
    /// The activation a non-beat state expects: what an activation must exceed to speak for a beat.
    public var neutralActivation: Float
    /// Activations are clipped to floor…1−floor.
    public var activationFloor: Float
    /// The preferred tempo range and what a tempo outside it costs per second (`RhythmConfig`): 0 for none.
    public var outsidePenalty: Double
    public var outsideSlope: Double
    /// A prior over tempo, log-normal: a tempo `z` standard deviations (`tempoPriorOctaves`) from
    /// `tempoPriorBPM` costs `tempoPriorCost` · z²/2 nats per second (0: no prior).
    public var tempoPriorBPM: Double = 120
    public var tempoPriorOctaves: Double = 1
    public var tempoPriorCost: Double = 0
    /// Whether `TempoStepDetector` puts belief on a new tempo after a step or a drift it spots.
    public var detectsSteps: Bool
    /// Nats per second of beat a period pays for a bar that fits worse than the best period's (0: the bar
    /// evidence does not weigh on the tempo).
    public var barCost: Double
    /// Whether the beat lies in the middle of the beat states rather than at their first. An activation that
    /// peaks on the beat, as wide before it as after (the learned one: its training target is 1 at the beat's
    /// frame and 0.5 at both neighbours), is best explained by beat states centred on the peak, so their first
    /// lies (beat states − 1) / 2 frames early: 1/32 of the period with `beatFraction` 1/16, 37 ms at 51 BPM.
    /// On the training part of eval/real the shipped network's beats fell 1.7 % of the period early at the
    /// first beat state (the median over items of "where the beats fall"), more on slower pieces, and +0.3 % in
    /// the middle. The onset function rises at the attack and holds for two frames (`BeatActivation`): the
    /// attack is the first beat state.
    public var beatAtStateCentre = false

    public init(beatFraction: Double, beatFrames: Int, neutralActivation: Float, activationFloor: Float,
                outsidePenalty: Double, outsideSlope: Double, detectsSteps: Bool, barCost: Double) {
        self.beatFraction = beatFraction
        self.beatFrames = beatFrames
        self.neutralActivation = neutralActivation
        self.activationFloor = activationFloor
        self.outsidePenalty = outsidePenalty
        self.outsideSlope = outsideSlope
        self.detectsSteps = detectsSteps
        self.barCost = barCost
    }

    /// The settings the onset-function activation was tuned with (see `TempoPhaseModel` and `RhythmConfig`
    /// for the reasons of each figure).
    public static let onsetFunction = BeatModelSettings(
        beatFraction: 0, beatFrames: TempoPhaseModel.beatFrames, neutralActivation: TempoPhaseModel.neutralActivation,
        activationFloor: TempoPhaseModel.activationFloor, outsidePenalty: RhythmConfig.outsidePenalty,
        outsideSlope: RhythmConfig.outsideSlope, detectsSteps: true, barCost: TempoPhaseModel.barCost)

    /// The learned activation's: madmom's observation model (Krebs, Böck and Widmer 2015: the first 1/16 of a
    /// beat are beat states) with the onset function's neutral level, 0.12, in place of madmom's 1/16: an
    /// activation a frame must exceed to speak for a beat there. Chosen on the training part of eval/real (281
    /// items, beat F): 0.776 at 1/16, 0.794 at 0.12, 0.794 at 0.2, 0.791 at 0.3; then measured once held out (327
    /// items): 0.673 at 1/16 and 0.682 at 0.12, tempo 207 and 211 of 296. The beat in the middle of the beat states
    /// (`beatAtStateCentre`); no preferred range, step detector or bar weighting: the network's activation says
    /// which pulse is the beat. A tempo prior from the data: the log-normal of the training part's tempi (centre
    /// 114.7 BPM, standard deviation 0.567 octave, weighted by duration, as eval/train-beat-network printed them
    /// for the shipped network), at 1 nat per second and squared deviation. Chosen on the training part of
    /// eval/real for the first network (beat F, 113 items): without the prior 0.850, with it 0.862 (3 nats:
    /// 0.846); the step detector on top changed nothing there (0.862).
    public static let learned: BeatModelSettings = {
        var settings = BeatModelSettings(
            beatFraction: 1.0 / 16, beatFrames: 2, neutralActivation: 0.12, activationFloor: 1e-4,
            outsidePenalty: 0, outsideSlope: 0, detectsSteps: false, barCost: 0)
        settings.tempoPriorBPM = 114.7
        settings.tempoPriorOctaves = 0.567
        settings.tempoPriorCost = 1
        settings.beatAtStateCentre = true
        return settings
    }()

    /// Applies `key=value` pairs separated by commas (beatfraction, beatframes, neutral, floor, penalty,
    /// slope, steps on|off, centre on|off, barcost, prior, priorbpm, prioroctaves): for evaluating variants with
    /// `eval/real --jacktap-arg`.
    public mutating func apply(_ text: String) throws(BeatModelSettingsError) {
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw BeatModelSettingsError(item: String(item)) }
            let value = parts[1]
            switch parts[0] {
            case "beatfraction": beatFraction = try Self.number(value, item)
            case "beatframes": beatFrames = Int(try Self.number(value, item))
            case "neutral": neutralActivation = Float(try Self.number(value, item))
            case "floor": activationFloor = Float(try Self.number(value, item))
            case "penalty": outsidePenalty = try Self.number(value, item)
            case "slope": outsideSlope = try Self.number(value, item)
            case "barcost": barCost = try Self.number(value, item)
            case "prior": tempoPriorCost = try Self.number(value, item)
            case "priorbpm": tempoPriorBPM = try Self.number(value, item)
            case "prioroctaves": tempoPriorOctaves = try Self.number(value, item)
            case "centre":
                guard value == "on" || value == "off" else { throw BeatModelSettingsError(item: String(item)) }
                beatAtStateCentre = value == "on"
            case "steps":
                guard value == "on" || value == "off" else { throw BeatModelSettingsError(item: String(item)) }
                detectsSteps = value == "on"
            default: throw BeatModelSettingsError(item: String(item))
            }
        }
    }

    private static func number(_ text: String, _ item: Substring) throws(BeatModelSettingsError) -> Double {
        guard let v = Double(text), v.isFinite, v >= 0 else { throw BeatModelSettingsError(item: String(item)) }
        return v
    }
}
