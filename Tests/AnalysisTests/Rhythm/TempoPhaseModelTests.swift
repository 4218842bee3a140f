@testable import Analysis
import XCTest

/// `TempoPhaseModel` on activation it is handed frame by frame.
final class TempoPhaseModelTests: XCTestCase {
    /// A model over the default tempo range at 115 frames per second (69 frames: 100 BPM; 53: 130 BPM), as the
    /// onset-function activation reads it (a spike one or two frames wide).
    func model() -> TempoPhaseModel {
        let config = RhythmConfig()
        return TempoPhaseModel(frameRate: 115, minimumBPM: config.minimumBPM, maximumBPM: config.maximumBPM,
                               preferredMinimumBPM: config.preferredMinimumBPM,
                               preferredMaximumBPM: config.preferredMaximumBPM,
                               settings: .onsetFunction)
    }

    /// A step from 100 to 130 BPM at 115 frames per second (69 and 53 frames): 25 beats of the old tempo from frame
    /// 20, the last at `last`, then `beatsAfter` beats of the new one; the frames of every beat.
    static let oldPeriod = 69, newPeriod = 53
    func stepBeats(beatsAfter: Int) -> (onsets: Set<Int>, last: Int) {
        let last = 20 + 24 * Self.oldPeriod
        var onsets = Set((0...24).map { 20 + $0 * Self.oldPeriod })
        for k in 1...beatsAfter { onsets.insert(last + k * Self.newPeriod) }
        return (onsets, last)
    }

    func testTheBarEvidenceStartsAfreshOnceAStepIsNamed() {
        // 24 beats of 100 BPM, then 130 BPM: activation 1 on each beat's frame and the one after, 0.05 elsewhere.
        // The bars heard before the step are the old tempo's, and would pull the model back to it.
        let new = Self.newPeriod
        let (onsets, last) = stepBeats(beatsAfter: 60)
        let model = model()
        var beforeStep: Float = 0
        var afterStep: Float = 1
        var periodAfterStep = 0
        for f in 1...(last + 60 * new) {
            let a: Float = onsets.contains(f) || onsets.contains(f - 1) ? 1 : 0.05
            model.step(activation: a, accent: a)
            if f == last - 1 { beforeStep = model.barRepetition }
            // Five frames after the second beat of the new tempo, on which the step is named.
            if f == last + 2 * new + 5 {
                afterStep = model.barRepetition
                periodAfterStep = model.bestPeriod
            }
        }
        XCTAssertGreaterThan(beforeStep, 0.5, "the steady old tempo repeats its bars")
        XCTAssertEqual(periodAfterStep, new, "the step is taken")
        XCTAssertEqual(afterStep, 0, "no bar heard since the step")
        XCTAssertEqual(model.bestPeriod, new)
        XCTAssertGreaterThan(model.barRepetition, 0.5, "the new tempo's bars speak once they have been heard")
    }

    /// An activation shaped like the learned one's target (a peak on the beat's frame, half on each neighbour)
    /// at 50 BPM (138 frames: 9 beat states): the learned settings put the next beat (beat states − 1) / 2 = 4
    /// frames later than the beat states' first, towards the peak, on every beat.
    func testTheLearnedModelPutsTheBeatInTheMiddleOfTheBeatStates() {
        let period = 138
        var predicted = [Bool: [Int]]()
        for centred in [true, false] {
            var settings = BeatModelSettings.learned
            settings.beatAtStateCentre = centred
            settings.tempoPriorCost = 0  // the tempo is not what this pins
            // Nor the neutral level: at the learned settings' 0.12 this peak, three frames against nine beat
            // states, reads as 135 frames (eight beat states, a shift of 3.5); at madmom's 1/16 within 2 of 138.
            settings.neutralActivation = 1.0 / 16
            // 40-80 BPM: the double tempo, which a peak narrower than the beat states can also fit, is out.
            let model = TempoPhaseModel(frameRate: 115, minimumBPM: 40, maximumBPM: 80, preferredMinimumBPM: 40,
                                        preferredMaximumBPM: 80, settings: settings)
            for f in 0..<(16 * period) {
                let distance = abs(((f + period / 2) % period) - period / 2)
                model.step(activation: distance == 0 ? 0.9 : distance == 1 ? 0.45 : 0.01, accent: 0)
                if f > 8 * period && f % period == period / 2 {
                    // Half-way between two peaks: frames from the next peak to the predicted beat.
                    let nextPeak = (f / period + 1) * period
                    predicted[centred, default: []].append(f + Int(model.framesToNextBeat.rounded()) - nextPeak)
                }
            }
            XCTAssertEqual(model.meanPeriod, Double(period), accuracy: 2)
        }
        let centred = predicted[true] ?? [], first = predicted[false] ?? []
        XCTAssertEqual(centred.count, 8)
        XCTAssertEqual(centred.count, first.count)
        for (c, f) in zip(centred, first) {
            XCTAssertEqual(c - f, 4, "centred \(centred), first beat state \(first), frames from the peak")
            XCTAssertLessThan(abs(c), abs(f))
        }
    }

    /// `evidencePower` p reads a frame as its likelihood ratio raised to p: a model at p = 0.5 fed activation a
    /// follows the same belief as an untempered one fed the activation whose ratio is the square root of a's.
    func testTemperedEvidenceCountsAsTheRatioRaisedToThePower() throws {
        var tempered = BeatModelSettings.learned
        try tempered.apply("power=0.5")  // `--beat-tuning=power=0.5`
        XCTAssertEqual(tempered.evidencePower, 0.5)
        let untempered = BeatModelSettings.learned
        let neutral = untempered.neutralActivation
        func model(_ settings: BeatModelSettings) -> TempoPhaseModel {
            TempoPhaseModel(frameRate: 115, minimumBPM: 40, maximumBPM: 240, preferredMinimumBPM: 40,
                            preferredMaximumBPM: 240, settings: settings)
        }
        let a = model(tempered), b = model(untempered), c = model(untempered)
        // A beat every 63 frames (109.5 BPM) with a weaker one half-way, and a low level between.
        let period = 63
        var differsFromUntempered = false
        for f in 0..<(12 * period) {
            let phase = f % period
            let activation: Float = phase == 0 ? 0.8 : phase == period / 2 ? 0.5 : 0.02
            let ratio = activation * (1 - neutral) / ((1 - activation) * neutral)
            let root = ratio.squareRoot()
            // The activation whose ratio at the neutral level is `root`.
            let equivalent = root * neutral / (1 - neutral + root * neutral)
            a.step(activation: activation, accent: 0)
            b.step(activation: equivalent, accent: 0)
            c.step(activation: activation, accent: 0)
            XCTAssertEqual(a.bestPeriod, b.bestPeriod, "frame \(f)")
            XCTAssertEqual(a.bestPosition, b.bestPosition, accuracy: 0.01, "frame \(f)")
            if a.meanPeriod != c.meanPeriod || a.bestPosition != c.bestPosition { differsFromUntempered = true }
        }
        XCTAssertEqual(a.meanPeriod, b.meanPeriod, accuracy: 0.01)
        XCTAssertTrue(differsFromUntempered, "the power changes how the belief moves")
    }

    /// `transitionLambda` is what a change of tempo costs at a beat: with half the default λ the learned settings
    /// take a step from 100 to 130 BPM sooner (they have no step detector to name it).
    func testALowerTransitionLambdaFollowsATempoStepSooner() throws {
        let old = Self.oldPeriod, new = Self.newPeriod
        let (onsets, last) = stepBeats(beatsAfter: 40)
        var framesToFollow = [Double: Int]()
        for lambda in [100.0, 50.0] {
            var settings = BeatModelSettings.learned
            try settings.apply("lambda=\(lambda)")
            XCTAssertEqual(settings.transitionLambda, lambda)
            let model = TempoPhaseModel(frameRate: 115, minimumBPM: 40, maximumBPM: 240, preferredMinimumBPM: 40,
                                        preferredMaximumBPM: 240, settings: settings)
            for f in 1...(last + 40 * new) {
                let distance = onsets.map { abs($0 - f) }.min() ?? 99
                model.step(activation: distance == 0 ? 0.9 : distance == 1 ? 0.45 : 0.01, accent: 0)
                if f == last - 1 { XCTAssertEqual(model.meanPeriod, Double(old), accuracy: 1, "λ \(lambda)") }
                if f > last, framesToFollow[lambda] == nil, abs(model.meanPeriod - Double(new)) <= 1 {
                    framesToFollow[lambda] = f - last
                }
            }
        }
        let slow = try XCTUnwrap(framesToFollow[100], "the default λ follows the step in the end")
        let fast = try XCTUnwrap(framesToFollow[50])
        XCTAssertLessThan(fast, slow)
    }

    /// `barCost` under the learned settings (`--beat-tuning=barcost=10`: "The bar's weight under the learned
    /// activation" in docs/analysis.md): an activation that marks the beats of 75 BPM and is at the neutral level
    /// everywhere else fits 150 BPM as well (a beat of 150 on a neutral frame costs nothing), and the tempo prior
    /// (centre 114.7 BPM) prefers 150; the accents (3 on every fourth beat of 75, 1 on the other beats, 0.5
    /// halfway between) repeat at a bar of four beats of 75 and at no bar of 3 or 4 beats of 150. The learned
    /// settings, which do not weigh the bar, read 150; with the bar's weight the model reads 75.
    func testTheBarsWeightReadsTheTempoWhoseBarsTheAccentsRepeat() throws {
        var periods = [Int]()
        for tuning in ["barcost=0", "barcost=10"] {
            periods.append(try Self.bestPeriodOverBarAccents(learnedTuning: tuning))
        }
        XCTAssertEqual(BeatModelSettings.learned.barCost, 0, "the learned settings do not weigh the bar")
        XCTAssertEqual(Double(periods[0]), Double(Self.barAccentPeriod / 2), accuracy: 1, "the prior's choice, 150 BPM")
        XCTAssertEqual(Double(periods[1]), Double(Self.barAccentPeriod), accuracy: 1, "the bar's, 75 BPM")
    }

    /// A model over 40–240 BPM at 115 frames per second with the learned settings and `tuning` applied.
    static func learnedModel(tuning: String) throws -> (TempoPhaseModel, BeatModelSettings) {
        var settings = BeatModelSettings.learned
        try settings.apply(tuning)
        let model = TempoPhaseModel(frameRate: 115, minimumBPM: 40, maximumBPM: 240, preferredMinimumBPM: 40,
                                    preferredMaximumBPM: 240, settings: settings)
        return (model, settings)
    }

    /// 75 BPM at 115 frames per second.
    static let barAccentPeriod = 92

    /// The period a learned-settings model (with `learnedTuning`) reads after 40 beats of 75 BPM marked in the
    /// activation at 0.9, the neutral level elsewhere, whose accents (3 on every fourth beat, 1 on the others, 0.5
    /// halfway between) repeat at a bar of four beats of 75 and at no bar of 3 or 4 beats of 150.
    static func bestPeriodOverBarAccents(learnedTuning: String) throws -> Int {
        let period = barAccentPeriod
        let (model, settings) = try learnedModel(tuning: learnedTuning)
        for f in 0..<(40 * period) {
            let beat = f % period == 0, half = f % period == period / 2
            let accent: Float = f % (4 * period) == 0 ? 3 : beat ? 1 : half ? 0.5 : 0
            model.step(activation: beat ? 0.9 : settings.neutralActivation, accent: accent)
        }
        return model.bestPeriod
    }

    /// The bar weighed against a period's metrical relatives only (`barrelatives=on`) chooses the level as the
    /// global weighing does: 150 BPM's relative 75 fits the bar the accents repeat, so 150 pays and 75 is read.
    func testWeighedAgainstItsRelativesTheBarStillChoosesTheMetricalLevel() throws {
        var settings = BeatModelSettings.learned
        try settings.apply("barcost=10,barrelatives=on")
        XCTAssertTrue(settings.barAgainstRelatives)
        XCTAssertFalse(BeatModelSettings.learned.barAgainstRelatives, "off in the learned settings")
        XCTAssertThrowsError(try settings.apply("barrelatives=yes"), "on or off only")
        let period = try Self.bestPeriodOverBarAccents(learnedTuning: "barcost=10,barrelatives=on")
        XCTAssertEqual(Double(period), Double(Self.barAccentPeriod), accuracy: 1, "the bar's level, 75 BPM")
    }

    /// After a step from 100 to 130 BPM (not a metrical relative of it) the old tempo's bars still fit best for a
    /// bar or so. Weighed against every period, they hold the model on the old tempo; weighed against each period's
    /// relatives only, they do not, and the new tempo is read sooner.
    func testWeighedAgainstItsRelativesTheBarDoesNotHoldAnUnrelatedOldTempo() throws {
        let new = Self.newPeriod
        let (onsets, last) = stepBeats(beatsAfter: 30)
        var framesToFollow = [Bool: Int]()
        for relatives in [false, true] {
            let (model, settings) = try Self.learnedModel(tuning: "barcost=10,barrelatives=\(relatives ? "on" : "off")")
            for f in 1...(last + 30 * new) {
                let beat = onsets.contains(f)
                let downbeat = beat && (f <= last ? (f - 20) % (4 * Self.oldPeriod) == 0 : (f - last) % (4 * new) == 0)
                model.step(activation: beat ? 0.9 : settings.neutralActivation, accent: downbeat ? 3 : beat ? 1 : 0)
                if f == last {
                    XCTAssertEqual(Double(model.bestPeriod), Double(Self.oldPeriod), accuracy: 1,
                                   "100 BPM before the step")
                }
                if f > last, framesToFollow[relatives] == nil, abs(model.bestPeriod - new) <= 1 {
                    framesToFollow[relatives] = f - last
                }
            }
        }
        let global = try XCTUnwrap(framesToFollow[false], "the global weighing follows the step in the end")
        let relatives = try XCTUnwrap(framesToFollow[true])
        XCTAssertLessThan(relatives, global)
    }

    /// The periods a relative's bar fit is read over: every whole frame from r·(period − ½) to r·(period + ½),
    /// halves rounded up, for 2, ½, 3/2 and 2/3 of every period from 28 to 173 frames (40–246 BPM at 115 frames per
    /// second), clipped to those periods; none where the relative lies outside them.
    func testARelativesSpanIsEveryPeriodWithinHalfAFrameOfTheRelative() {
        let (shortest, longest) = (28, 173)
        for period in shortest...longest {
            for (numerator, denominator) in [(2, 1), (1, 2), (3, 2), (2, 3)] {
                let ratio = Double(numerator) / Double(denominator)
                // Written out in Double from the definition: the ends rounded half up, then clipped.
                let low = max(Int((ratio * (Double(period) - 0.5) + 0.5).rounded(.down)), shortest)
                let high = min(Int((ratio * (Double(period) + 0.5) + 0.5).rounded(.down)), longest)
                let span = TempoPhaseModel.relativeSpan(period: period, times: numerator, over: denominator,
                                                        shortest: shortest, longest: longest)
                let label = "\(numerator)/\(denominator) of \(period)"
                if low <= high {
                    XCTAssertEqual(span, low...high, label)
                } else {
                    XCTAssertNil(span, label)
                }
            }
        }
        // Spot checks by hand: 2 × 40 frames spans 79.5–80.5, so 79–81; ½ × 41 spans 20.25–20.75, so 20–21, none
        // of it from 28 on; ½ × 57 spans 28.25–28.75, so 28–29; 3/2 × 100 spans 149.25–150.75, so 149–151; 2 × 120
        // lies above 173.
        XCTAssertEqual(TempoPhaseModel.relativeSpan(period: 40, times: 2, over: 1, shortest: 28, longest: 173), 79...81)
        XCTAssertNil(TempoPhaseModel.relativeSpan(period: 41, times: 1, over: 2, shortest: 28, longest: 173))
        XCTAssertEqual(TempoPhaseModel.relativeSpan(period: 57, times: 1, over: 2, shortest: 28, longest: 173), 28...29)
        XCTAssertEqual(TempoPhaseModel.relativeSpan(period: 100, times: 3, over: 2, shortest: 28, longest: 173),
                       149...151)
        XCTAssertNil(TempoPhaseModel.relativeSpan(period: 120, times: 2, over: 1, shortest: 28, longest: 173))
    }

    /// The model carries each block's largest state and the belief's total from frame to frame, and scales the
    /// belief by powers of two instead of normalising it (`TempoPhaseModel`): it must still read what the forward
    /// filter it implements reads when every state is computed and the belief normalised on every frame. The
    /// reference here is that filter written out plainly, in Double, over (period, position in the beat).
    func testTheCarriedMaximaAndTotalReadAsAFilterNormalisedEveryFrame() {
        var settings = BeatModelSettings.learned
        settings.tempoPriorCost = 0  // no prior and no bar weight: the plain filter
        settings.beatAtStateCentre = false
        let model = TempoPhaseModel(frameRate: 115, minimumBPM: 100, maximumBPM: 200, preferredMinimumBPM: 100,
                                    preferredMaximumBPM: 200, settings: settings)
        let shortest = model.shortestPeriod, longest = model.longestPeriod
        let periods = Array(shortest...longest)
        // Transitions at a beat: exp(−λ |T'/T − 1|) over the periods within the model's cutoff, normalised.
        let transitions = periods.map { from -> [Double] in
            let w = periods.map { exp(-settings.transitionLambda * abs(Double($0) / Double(from) - 1)) }
            let kept = w.map { $0 >= Double(TempoPhaseModel.transitionCutoff) ? $0 : 0 }
            let sum = kept.reduce(0, +)
            return kept.map { $0 / sum }
        }
        let beatStates = periods.map { max(1, Int((settings.beatFraction * Double($0)).rounded())) }
        let stateCount = Double(periods.reduce(0, +))
        var belief = periods.map { [Double](repeating: 1 / stateCount, count: $0) }
        // Beats every 50 frames (138 BPM), stronger on every fourth, a weaker bump half-way, and a low level that
        // varies from frame to frame; after 1,200 frames the beat moves to every 41 frames (168 BPM).
        var seed: UInt32 = 12345
        var differentPeriods = Set<Int>()
        var compared = 0
        for f in 0..<2400 {
            seed = seed &* 1_103_515_245 &+ 12345
            let noise = Float(seed >> 16 & 0x7fff) / 32768
            let period = f < 1200 ? 50 : 41
            let phase = f % period, beat = f / period
            let activation: Float = phase == 0 ? (beat % 4 == 0 ? 0.95 : 0.7) : phase == period / 2 ? 0.3
                : 0.01 + 0.1 * noise
            model.step(activation: activation, accent: 0)
            // The reference: each block's last position leaves for position 0 of every block, the rest advance.
            let leaving = belief.map { $0[$0.count - 1] }
            for k in belief.indices {
                belief[k].removeLast()
                let entering = zip(leaving, transitions).reduce(0.0) { $0 + $1.0 * $1.1[k] }
                belief[k].insert(entering, at: 0)
            }
            let a = Double(min(max(activation, settings.activationFloor), 1 - settings.activationFloor))
            let n = Double(settings.neutralActivation)
            let ratio = a * (1 - n) / ((1 - a) * n)
            for k in belief.indices {
                for p in 0..<beatStates[k] { belief[k][p] *= ratio }
            }
            let sum = belief.reduce(0.0) { $0 + $1.reduce(0, +) }
            belief = belief.map { $0.map { $0 / sum } }
            let maxima = belief.map { $0.max()! }
            let best = maxima.firstIndex(of: maxima.max()!)!
            let runnerUp = maxima.enumerated().filter { $0.offset != best }.map(\.element).max()!
            let check = model.bookkeepingCheck()
            XCTAssertTrue(check.maximaHold, "frame \(f): a block's carried largest state is not its largest")
            XCTAssertLessThan(check.totalError, 1e-4, "frame \(f)")
            // A near tie between two periods may fall either way in Float: compare where the reference is clear.
            guard runnerUp < maxima[best] * 0.999 else { continue }
            XCTAssertEqual(model.bestPeriod, periods[best], "frame \(f)")
            var x = 0.0, y = 0.0
            for (p, value) in belief[best].enumerated() {
                x += value * cos(2 * Double.pi * Double(p) / Double(periods[best]))
                y += value * sin(2 * Double.pi * Double(p) / Double(periods[best]))
            }
            var angle = atan2(y, x)
            if angle < 0 { angle += 2 * Double.pi }
            let position = angle / (2 * Double.pi) * Double(periods[best])
            var difference = abs(model.bestPosition - position)
            difference = min(difference, Double(periods[best]) - difference)
            XCTAssertLessThan(difference, 0.01, "frame \(f)")
            differentPeriods.insert(model.bestPeriod)
            compared += 1
        }
        XCTAssertGreaterThan(compared, 1800, "the reference names its best period clearly on most frames")
        XCTAssertTrue(differentPeriods.contains(50) && differentPeriods.contains(41), "both tempi were read")
        XCTAssertGreaterThan(model.rescales, 0, "the belief was scaled back by a power of two on the way")
    }

    /// The carried maxima and total hold under the onset function's settings too (steps named, the bar weights, the
    /// preferred range), and when the belief falls fast: with every state a beat state, a low activation lowers the
    /// whole belief every frame, and a total carried through that would drift from what is left. At activation 0
    /// without a floor every state is 0, and the model starts again on that very frame, as a belief normalised
    /// every frame does.
    func testTheCarriedTotalHoldsWhenTheBeliefFallsFastAndTheModelRestartsWhenItVanishes() throws {
        func assertBookkeeping(_ model: TempoPhaseModel, _ label: String, file: StaticString = #filePath,
                               line: UInt = #line) {
            let check = model.bookkeepingCheck()
            XCTAssertTrue(check.maximaHold, label, file: file, line: line)
            XCTAssertLessThan(check.totalError, 1e-4, label, file: file, line: line)
        }
        // The onset function's settings through the step of the first test: 100 BPM, then 130.
        let new = Self.newPeriod
        let (onsets, last) = stepBeats(beatsAfter: 60)
        let stepping = model()
        for f in 1...(last + 60 * new) {
            let a: Float = onsets.contains(f) || onsets.contains(f - 1) ? 1 : 0.05
            stepping.step(activation: a, accent: a)
            assertBookkeeping(stepping, "onset settings, frame \(f)")
        }
        XCTAssertEqual(stepping.bestPeriod, new, "the step is taken")

        var everyStateABeat = BeatModelSettings.learned
        try everyStateABeat.apply("beatfraction=1")
        func wholeRange(_ settings: BeatModelSettings) -> TempoPhaseModel {
            TempoPhaseModel(frameRate: 115, minimumBPM: 40, maximumBPM: 240, preferredMinimumBPM: 40,
                            preferredMaximumBPM: 240, settings: settings)
        }
        let falling = wholeRange(everyStateABeat)
        for f in 0..<400 {
            falling.step(activation: f % 2 == 0 ? 0.01 : 0.02, accent: 0)  // the total × 0.07 or × 0.15 a frame
            assertBookkeeping(falling, "falling, frame \(f)")
        }
        XCTAssertGreaterThan(falling.rescales, 0, "the belief was scaled back up on the way")

        var vanishing = everyStateABeat
        try vanishing.apply("floor=0")
        let restarting = wholeRange(vanishing)
        for _ in 0..<20 { restarting.step(activation: 0.5, accent: 0) }
        XCTAssertNotEqual(restarting.bestPeriod, 0)
        restarting.step(activation: 0, accent: 0)
        XCTAssertEqual(restarting.bestPeriod, 0, "every state 0: the model starts again on this frame")
        restarting.step(activation: 0.5, accent: 0)
        assertBookkeeping(restarting, "after the restart")
    }
}
