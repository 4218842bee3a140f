import Foundation

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
    /// The power a frame's likelihood ratio is raised to (1: as it is). Below 1 it tempers the evidence: the
    /// learned activation reads as the probability of a beat state frame by frame (`eval/beat_profile.py
    /// --calibration`), but neighbouring frames are not independent evidence (its logit correlates 0.83 with the
    /// next frame's), so the model counts the same evidence several times. Tried with the shipped network on the
    /// later pieces of eval/real (397 items; docs/analysis.md, "Each frame's evidence tempered"): 0.75, 0.5 and
    /// 0.33 (with the prior scaled alike, and at Bayes' neutral level 0.052) read the tempo right on 5 to 14 more
    /// of 327 items and beat F no higher (−0.011 to +0.000), the beats within the tempo less sure: 1 stays.
    public var evidencePower: Float = 1
    /// λ of the transitions between tempi at a beat, ∝ exp(−λ |T'/T − 1|) (`TempoPhaseModel`): scaled with
    /// `evidencePower`, it keeps what a tempo change costs against the evidence for it. Every term scaled alike
    /// (evidence, prior and λ, at 0.5 and 0.33) read the later pieces' beat F lower (−0.007, −0.017): 100 stays.
    public var transitionLambda: Double = TempoPhaseModel.transitionLambda
    /// The preferred tempo range and what a tempo outside it costs per second (`RhythmConfig`): 0 for none.
    public var outsidePenalty: Double
    public var outsideSlope: Double
    /// A prior over tempo, log-normal: a tempo `z` standard deviations (`tempoPriorOctaves`) from
    /// `tempoPriorBPM` costs `tempoPriorCost` · z²/2 nats per second (0: no prior).
    public var tempoPriorBPM: Double = 120
    public var tempoPriorOctaves: Double = 1
    public var tempoPriorCost: Double = 0
    /// In place of the log-normal's z²/2 when set: −ln of the training tempi's own density relative to its
    /// peak, at `tempoPriorGrid`'s tempi (a Gaussian kernel density in log tempo), linear in log tempo between.
    public var tempoPriorShape: [Double]?
    /// The tempi the shape is given at: 40 BPM and every semitone of tempo (1/12 octave) up to 240.
    public static let tempoPriorGrid: [Double] = (0..<32).map { 40 * pow(2, Double($0) / 12) }
    /// The shape of the training part's tempi (289 items, weighted by duration), as eval/train-beat-network
    /// printed it for the shipped network (Silverman's bandwidth, 0.194 octave).
    public static let trainingTempoShape: [Double] = [
        2.263, 1.973, 1.794, 1.713, 1.709, 1.747, 1.78, 1.765, 1.693, 1.596, 1.504, 1.424, 1.334, 1.203, 1.019, 0.797,
        0.562, 0.342, 0.163, 0.045, 0.0, 0.026, 0.106, 0.221, 0.354, 0.507, 0.693, 0.931, 1.233, 1.596, 2.0, 2.428,
    ]
    /// Whether `TempoStepDetector` puts belief on a new tempo after a step or a drift it spots.
    public var detectsSteps: Bool
    /// Nats per second of beat a period pays for a bar that fits worse than the best period's (0: the bar
    /// evidence does not weigh on the tempo). At 10 (the onset function's value) the learned activation read beat
    /// F higher (the later pieces of eval/real +0.009, the held-out part +0.010) but followed 7 of eval/tempo_steps'
    /// 12 steps one or two beats later and lost a beat of one ramp (docs/analysis.md, "The bar's weight under the
    /// learned activation"): without a step detector the old tempo's bars hold it until they fade. The learned
    /// settings keep 0.
    public var barCost: Double
    /// Whether a period's bar fit is weighed against its metrical relatives' (2, ½, 3/2 and 2/3 of it) rather
    /// than against the best period's: the bar length then chooses between the levels of one beat and leaves a
    /// change to an unrelated tempo to the beat evidence. Under the learned activation at `barCost` 10 it read the
    /// later pieces of eval/real at the tempo as often as the bar weighed against every period (216 and 218 of 327,
    /// 208 without) but not the beat F (+0.001 against +0.008), and still followed two of eval/tempo_steps' steps a
    /// beat late (docs/analysis.md, "The bar weighed against a period's metrical relatives"): off.
    public var barAgainstRelatives = false
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
    ///
    /// Tried with the shipped network and not kept: three beat states a beat whatever the tempo (the width of the
    /// network's training target), neutral 0.2 and the training tempi's own distribution as the prior
    /// (`--beat-tuning=beatfraction=0,beatframes=3,neutral=0.2,priorshape=data`). It read the training part 0.817
    /// and 181 of 226 tempi against 0.794 and 167, and the held-out part 0.675 and 213 of 296 against 0.682 and 211:
    /// the held-out Hydrogen songs at their tempo (4 of 6 against 0), the LMMS songs and Sonic Pi loops worse.
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

    /// Applies `key=value` pairs separated by commas (beatfraction, beatframes, neutral, floor, power, lambda, penalty,
    /// slope, steps on|off, centre on|off, barcost, barrelatives on|off, prior, priorbpm, prioroctaves, priorshape
    /// data|lognormal): for evaluating variants with `eval/real --jacktap-arg`.
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
            case "power": evidencePower = Float(try Self.number(value, item))
            case "lambda": transitionLambda = try Self.number(value, item)
            case "penalty": outsidePenalty = try Self.number(value, item)
            case "slope": outsideSlope = try Self.number(value, item)
            case "barcost": barCost = try Self.number(value, item)
            case "prior": tempoPriorCost = try Self.number(value, item)
            case "priorbpm": tempoPriorBPM = try Self.number(value, item)
            case "prioroctaves": tempoPriorOctaves = try Self.number(value, item)
            case "priorshape":
                guard value == "data" || value == "lognormal" else { throw BeatModelSettingsError(item: String(item)) }
                tempoPriorShape = value == "data" ? Self.trainingTempoShape : nil
            case "centre":
                guard value == "on" || value == "off" else { throw BeatModelSettingsError(item: String(item)) }
                beatAtStateCentre = value == "on"
            case "barrelatives":
                guard value == "on" || value == "off" else { throw BeatModelSettingsError(item: String(item)) }
                barAgainstRelatives = value == "on"
            case "steps":
                guard value == "on" || value == "off" else { throw BeatModelSettingsError(item: String(item)) }
                detectsSteps = value == "on"
            default: throw BeatModelSettingsError(item: String(item))
            }
        }
    }

    /// The prior's cost at `bpm` before `tempoPriorCost`: z²/2 of the log-normal, or the shape's.
    func tempoPriorDeviation(bpm: Double) -> Double {
        guard let shape = tempoPriorShape, shape.count == Self.tempoPriorGrid.count else {
            let z = log2(bpm / tempoPriorBPM) / max(tempoPriorOctaves, 0.01)
            return z * z / 2
        }
        let position = min(max(12 * log2(bpm / Self.tempoPriorGrid[0]), 0), Double(shape.count - 1))
        let below = min(Int(position), shape.count - 2)
        let t = position - Double(below)
        return shape[below] * (1 - t) + shape[below + 1] * t
    }

    private static func number(_ text: String, _ item: Substring) throws(BeatModelSettingsError) -> Double {
        guard let v = Double(text), v.isFinite, v >= 0 else { throw BeatModelSettingsError(item: String(item)) }
        return v
    }
}
