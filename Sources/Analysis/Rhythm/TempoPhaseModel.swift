import Foundation

/// A causal probabilistic model of where the music is within its beat and how fast the beat goes: a hidden
/// Markov model over (beat period, position within the beat), filtered forward one frame at a time.
///
/// This is the beat state space of Krebs, Böck and Widmer ("An efficient state space model for joint tempo and
/// meter tracking", ISMIR 2015), as madmom's `DBNBeatTrackingProcessor` uses it, run forward only:
/// - one block of states per whole-frame beat period T from `maximumBPM` to `minimumBPM`, with T states each;
///   inside a beat the position advances one frame per frame;
/// - from a block's last position the model moves to position 0 of any block, with probability
///   ∝ exp(-λ |T'/T - 1|) (λ = 100: a tempo change of 1 % costs one nat per beat), so tempo may drift and
///   step from beat to beat but not within one. A sudden step costs λ times its size (30 nats for 100 → 130
///   BPM), so the model holds the old tempo for a few beats. Mixing in a small probability of a jump to any
///   tempo (1e-7 per beat) halved that delay but cost Hydrogen's syncopated GM_kit_Diddley 0.14 of beat F
///   (and λ = 50 cost every corpus more), so the model has neither. A jump weight ε added to every period
///   within ±0.6 octave (eval/real, 28 items): ε = 1e-6 followed the step after 4 beats instead of 6 and took
///   beat F from 0.948 to 0.912 (Sonic Pi's loops 0.974 → 0.890); 1e-5, 1e-4 and 1e-3 still needed 4 beats
///   and read 0.897, 0.885 and 0.857: a syncopated groove's off-beat accents look like a new tempo for a beat
///   or two, exactly as long as a real step does. A step is instead spotted from what the music did a bar
///   earlier and what it stopped doing (`TempoStepDetector`), and the model gets a share of its belief on a beat
///   of the new tempo at the second beat of it (`stepShare`), which it then weighs like any other;
/// - an observation: the first `beatFrames` positions of a beat are "beat" states and see the activation a
///   (0…1) with likelihood a, the others with (1 - a) · n/(1 - n), n = `neutralActivation` (their ratio raised
///   to `evidencePower`, 1 unless set). madmom marks the first 1/16 of a beat and takes n = 1/16, which suits
///   its network's activation, a bump some 50 ms wide.
///   jacktap's onset function is a spike one or two frames wide: a slow beat's 1/16 (8 frames at 60 BPM)
///   would hold six or seven empty frames, each counting against it, so slow readings lose to their doubles
///   whatever the music. Two frames for every period weigh every tempo alike. n sets which onsets speak for a
///   beat: 0.12 of the recent peak, so a hat between beats (0.02–0.3 of the kick below 1 kHz) barely does;
///   0.2 and more began to halve recorded loops whose beats vary in strength.
/// - a preferred tempo range (`preferredMinimumBPM`…`preferredMaximumBPM`): outside it every second spent at a
///   tempo costs up to `outsidePenalty` nats (rising linearly over the first `edgeOctaves` beyond the edge)
///   plus `outsideSlope` nats per squared octave beyond the edge. The ramp matters because periods are whole
///   frames: at 115 frames per second one period (39 frames, 177 BPM) serves both 174 BPM and the double of
///   90 BPM, and only a part of the penalty on it lets each take its own neighbour (40 frames, 173 BPM; 38,
///   182 BPM). The onset
///   function alone cannot tell a 90 BPM hip-hop groove with eighth-note hats from 180 BPM, nor a 174 BPM
///   drum-and-bass loop from 87: both readings explain every onset. The penalty settles such ties inside
///   the range, while material whose evidence for a level outside it is strong (a snare on every beat of
///   200 BPM punk, which the half tempo would leave between its beats) still gets that level.
/// - the bar: entering a block at a beat is weighted by how well its period divides the length at which the
///   onset function repeats into bars of 3 or 4 (`BarPeriodicity`, `barCost`). Krebs, Böck and Widmer's bar
///   pointer learns the bar's pattern from annotations; jacktap reads only its length, from the signal. It
///   settles what the onsets alone leave open: a loop accented every three sixteenths reads at 4/3 of its
///   tempo without it.
///
/// The blocks are rings: a state's slot does not move as its position advances, only each block's head does,
/// so a frame changes only each block's position 0 (the transitions into it, from a band of neighbouring
/// periods) and its beat states. The frame's work is kept to those: each block's largest state and the belief's
/// total are carried from frame to frame and brought up to date from the states the frame changed (a block is
/// searched again only when its largest state was among those changed downwards), and the belief is not
/// normalised each frame but scaled by a power of two, which leaves every ratio between states exact, once its
/// total leaves 2^±20. With a pass over every state each frame (their sum, then the scaling) the model took 68.9 M
/// callgrind instructions of `Benchmarks/beat-cost`'s learned run (40–240 BPM), 33.6 M without (docs/analysis.md,
/// "The tempo model and the network made cheaper"), reading every item of eval/real's later pieces alike. Everything
/// is allocated in `init`.
final class TempoPhaseModel {
    /// Probability mass kept in the transition band: periods further than exp(-λx) < 1e-12 are left out. A
    /// band cut at 1e-6 (±14 % of the period) left a step change beyond it nowhere to go but by drift; at
    /// 1e-12 (±28 %) the step from 100 to 130 BPM is followed after 6 beats of the real corpus instead of 8.
    static let transitionCutoff: Float = 1e-12
    static let transitionLambda: Double = 100
    static let beatFrames = 2
    static let neutralActivation: Float = 0.12
    /// Activations are clipped to floor…1-floor: a frame without onset must not rule a beat out entirely
    /// (a syncopated loop leaves beats silent), nor a loud onset every non-beat state.
    static let activationFloor: Float = 0.03
    static let edgeOctaves = 0.021
    static let meanNeighbours = 3

    let frameRate: Double
    /// Shortest and longest period, frames.
    let shortestPeriod: Int
    let longestPeriod: Int
    private let blockCount: Int
    private let blockStart: UnsafeMutablePointer<Int>
    private let head: UnsafeMutablePointer<Int>
    private let beatStates: UnsafeMutablePointer<Int>
    private let probability: UnsafeMutablePointer<Float>
    private let stateCount: Int
    /// Transition band of each source block: targets bandLow[k]..<bandLow[k]+bandCount[k], weights at
    /// bandWeight[bandOffset[k]...].
    private let bandLow: UnsafeMutablePointer<Int>
    private let bandCount: UnsafeMutablePointer<Int>
    private let bandOffset: UnsafeMutablePointer<Int>
    private let bandWeight: UnsafeMutablePointer<Float>
    private let leaving: UnsafeMutablePointer<Float>
    private let entering: UnsafeMutablePointer<Float>
    private let initial: UnsafeMutablePointer<Float>
    /// Each block's largest state and its slot, kept up to date frame by frame (`step`).
    private let blockMaximum: UnsafeMutablePointer<Float>
    private let blockMaximumSlot: UnsafeMutablePointer<Int>
    /// The belief's total, carried from frame to frame as the states change, and summed afresh every
    /// `totalRecountFrames` frames, so that rounding cannot build up in it.
    private var total = 0.0
    private var framesSinceRecount = 0
    /// How often the belief has been scaled back by a power of two since `init` (for tests).
    private(set) var rescales = 0
    /// The bar-length evidence (`BarPeriodicity`), each block's score from it and the weight it puts on
    /// entering each block.
    private let bars: BarPeriodicity
    /// Step changes of tempo and fast drifts, which the transitions alone follow only beats later.
    private let steps: TempoStepDetector
    private let barScore: UnsafeMutablePointer<Float>
    private let barWeight: UnsafeMutablePointer<Float>
    private var framesSinceBarUpdate = 0
    /// cos and sin of 2π·position/period for every state, by its position (slot order differs).
    private let cosine: UnsafeMutablePointer<Float>
    private let sine: UnsafeMutablePointer<Float>
    /// The most probable period after the last `step`, frames, and the position in the beat (0..<period,
    /// fractional): the circular mean of the positions of that period's states, weighted by their
    /// probability. The single most probable state's position jumps by a frame or two from beat to beat,
    /// because an onset one frame wide leaves two adjacent alignments almost equally likely; the mean lies
    /// between them.
    private(set) var bestPeriod = 0
    private(set) var bestPosition = 0.0
    /// Where the next beat falls, frames from now: at position 0, or at the middle of the best period's beat
    /// states, (beat states − 1) / 2 frames after it, when `settings.beatAtStateCentre` says that is where the
    /// activation peaks.
    var framesToNextBeat: Double {
        guard bestPeriod > 0 else { return 0 }
        let period = Double(bestPeriod)
        let beat = settings.beatAtStateCentre ? Double(beatStates[bestPeriod - shortestPeriod] - 1) / 2 : 0
        var ahead = beat - bestPosition
        while ahead <= 0 { ahead += period }
        return ahead
    }
    /// The probability-weighted mean period around `bestPeriod`, frames (fractional).
    private(set) var meanPeriod = 0.0

    /// How the activation is read, and which of the preferred range, the step detector and the bar weighting
    /// apply.
    let settings: BeatModelSettings

    init(frameRate: Double, minimumBPM: Double, maximumBPM: Double, preferredMinimumBPM: Double,
         preferredMaximumBPM: Double, settings: BeatModelSettings) {
        precondition(minimumBPM > 0 && maximumBPM > minimumBPM, "BPM range must be positive and ordered")
        self.frameRate = frameRate
        self.settings = settings
        let outsidePenalty = settings.outsidePenalty, outsideSlope = settings.outsideSlope
        shortestPeriod = max(2, Int((60 * frameRate / maximumBPM).rounded(.up)))
        longestPeriod = max(shortestPeriod + 1, Int((60 * frameRate / minimumBPM).rounded(.down)))
        blockCount = longestPeriod - shortestPeriod + 1
        blockStart = .allocate(capacity: blockCount)
        head = .allocate(capacity: blockCount)
        beatStates = .allocate(capacity: blockCount)
        var total = 0
        for k in 0..<blockCount {
            let period = shortestPeriod + k
            blockStart[k] = total
            beatStates[k] = settings.beatFraction > 0
                ? max(1, Int((settings.beatFraction * Double(period)).rounded())) : min(settings.beatFrames, period)
            total += period
        }
        stateCount = total
        probability = .allocate(capacity: total)
        initial = .allocate(capacity: total)
        cosine = .allocate(capacity: total)
        sine = .allocate(capacity: total)
        for k in 0..<blockCount {
            let period = shortestPeriod + k
            for p in 0..<period {
                let angle = 2 * Double.pi * Double(p) / Double(period)
                cosine[blockStart[k] + p] = Float(cos(angle))
                sine[blockStart[k] + p] = Float(sin(angle))
            }
        }
        leaving = .allocate(capacity: blockCount)
        blockMaximum = .allocate(capacity: blockCount)
        blockMaximum.initialize(repeating: 0, count: blockCount)
        blockMaximumSlot = .allocate(capacity: blockCount)
        blockMaximumSlot.initialize(repeating: 0, count: blockCount)
        entering = .allocate(capacity: blockCount + VectorLoops.Lanes.scalarCount)
        entering.initialize(repeating: 0, count: blockCount + VectorLoops.Lanes.scalarCount)
        bars = BarPeriodicity(frameRate: frameRate, shortestPeriod: shortestPeriod, longestPeriod: longestPeriod)
        steps = TempoStepDetector(shortestPeriod: shortestPeriod, longestPeriod: longestPeriod)
        barScore = .allocate(capacity: blockCount)
        barScore.initialize(repeating: 0, count: blockCount)
        barWeight = .allocate(capacity: blockCount)
        barWeight.initialize(repeating: 1, count: blockCount)
        // The preference, as a weight on entering each block: its per-frame cost over the beat's frames.
        var preference = [Double](repeating: 0, count: blockCount)
        for k in 0..<blockCount {
            let period = Double(shortestPeriod + k)
            let bpm = 60 * frameRate / period
            let beyond = max(0, log2(preferredMinimumBPM / bpm), log2(bpm / preferredMaximumBPM))
            let perSecond = outsidePenalty * min(1, beyond / Self.edgeOctaves) + outsideSlope * beyond * beyond
                + settings.tempoPriorCost * settings.tempoPriorDeviation(bpm: bpm)
            preference[k] = exp(-perSecond * period / frameRate)
        }
        bandLow = .allocate(capacity: blockCount)
        bandCount = .allocate(capacity: blockCount)
        bandOffset = .allocate(capacity: blockCount)
        var weights = [Float]()
        for k in 0..<blockCount {
            let from = Double(shortestPeriod + k)
            var row = [(Int, Double)]()
            for j in 0..<blockCount {
                let w = exp(-settings.transitionLambda * abs(Double(shortestPeriod + j) / from - 1))
                if w >= Double(Self.transitionCutoff) { row.append((j, w)) }
            }
            let sum = row.reduce(0) { $0 + $1.1 }
            bandLow[k] = row.first!.0
            // Whole lanes of eight (`VectorLoops.addScaled`), the weights past the band 0: adding 0 changes no
            // sum, and the targets past the last block are scratch (`entering` is allocated that much longer).
            bandCount[k] = VectorLoops.wholeLanes(row.count)
            bandOffset[k] = weights.count
            for (j, w) in row { weights.append(Float(w / sum * preference[j])) }
            weights += [Float](repeating: 0, count: bandCount[k] - row.count)
        }
        bandWeight = .allocate(capacity: weights.count)
        bandWeight.initialize(from: weights, count: weights.count)
        // Start: every state alike, weighted by the preference of its block over one beat.
        var sum = 0.0
        for k in 0..<blockCount { sum += preference[k] * Double(shortestPeriod + k) }
        for k in 0..<blockCount {
            let p = Float(preference[k] / sum)
            (initial + blockStart[k]).initialize(repeating: p, count: shortestPeriod + k)
        }
        reset()
    }

    deinit {
        blockStart.deallocate()
        head.deallocate()
        beatStates.deallocate()
        probability.deallocate()
        initial.deallocate()
        cosine.deallocate()
        sine.deallocate()
        leaving.deallocate()
        blockMaximum.deallocate()
        blockMaximumSlot.deallocate()
        entering.deallocate()
        barScore.deallocate()
        barWeight.deallocate()
        bandLow.deallocate()
        bandCount.deallocate()
        bandOffset.deallocate()
        bandWeight.deallocate()
    }

    /// The bar weights are recomputed every 16 frames (0.14 s): the bar evidence changes over bars, not frames.
    static let barUpdateFrames = 16
    /// What a beat period pays for a bar that fits worse than the best period's: `barCost` nats per second
    /// of beat for each unit of normalised correlation it falls short by. 5 and 10 both read Sonic Pi's
    /// safari at 120 instead of 160 BPM; 10 gave the best beat F on the real corpus (0.947 against 0.942 at 5,
    /// 0.920 without); 20 made the model so sure of its bar that an accelerating piece was followed 4 beats
    /// later.
    static let barCost: Double = 10
    /// The bar evidence speaks only after 2 s of music, one bar of 120 BPM: before that the correlation at
    /// bar lags rests on too few frames.
    static let barMinimumSeconds: Double = 2

    /// The weight of entering each block from the bar evidence: 1 for every block until it speaks.
    private func updateBarWeights() {
        // Without a bar cost every weight is exp(0) = 1 whatever the scores: they are not computed.
        guard settings.barCost > 0, Double(bars.framesSeen) >= Self.barMinimumSeconds * frameRate else {
            barWeight.update(repeating: 1, count: blockCount)
            return
        }
        var best: Float = 0
        for k in 0..<blockCount {
            barScore[k] = bars.score(period: shortestPeriod + k)
            best = max(best, barScore[k])
        }
        for k in 0..<blockCount {
            let period = shortestPeriod + k
            let rival = settings.barAgainstRelatives ? bestRelativeScore(period: period) : best
            let seconds = Double(period) / frameRate
            barWeight[k] = Float(exp(-settings.barCost * Double(max(rival - barScore[k], 0)) * seconds))
        }
    }

    /// The best bar fit among the metrical relatives of a period of `period` frames: 2, ½, 3/2 and 2/3 of it (the
    /// beat one level up or down in duple or triple grouping); 0 where none is in range.
    private func bestRelativeScore(period: Int) -> Float {
        max(max(bestScore(period: period, times: 2, over: 1), bestScore(period: period, times: 1, over: 2)),
            max(bestScore(period: period, times: 3, over: 2), bestScore(period: period, times: 2, over: 3)))
    }

    /// The best bar fit over the periods `relativeSpan` gives; 0 where it lies outside the model's periods.
    private func bestScore(period: Int, times numerator: Int, over denominator: Int) -> Float {
        guard let span = Self.relativeSpan(period: period, times: numerator, over: denominator,
                                           shortest: shortestPeriod, longest: longestPeriod) else { return 0 }
        var best: Float = 0
        for q in span { best = max(best, barScore[q - shortestPeriod]) }
        return best
    }

    /// The whole-frame periods that r = `numerator`/`denominator` of a period of `period` ± ½ frames spans,
    /// ⌊r·(period − ½)⌉ … ⌊r·(period + ½)⌉ (halves rounded up; for these four ratios no end falls on a half),
    /// within `shortest`…`longest`; nil where none is. In integers: ⌊r·(period − ½) + ½⌋ =
    /// ⌊(numerator·(2·period − 1) + denominator) / (2·denominator)⌋.
    static func relativeSpan(period: Int, times numerator: Int, over denominator: Int, shortest: Int,
                             longest: Int) -> ClosedRange<Int>? {
        let low = max((numerator * (2 * period - 1) + denominator) / (2 * denominator), shortest)
        let high = min((numerator * (2 * period + 1) + denominator) / (2 * denominator), longest)
        return low <= high ? low...high : nil
    }

    /// How strongly the onsets repeat at a bar of the best period (0…1, `BarPeriodicity.score`): music
    /// repeats its bars, speech and noise do not.
    var barRepetition: Float { bestPeriod > 0 ? bars.score(period: bestPeriod) : 0 }

    /// What a step (`TempoStepDetector`), or a drifting beat named on its own frame (a late one), puts on a beat of
    /// the new period at this frame: twice the belief's mass, so that the new tempo holds two thirds of it. The model still weighs it against the old tempo from the
    /// next frame on, the old tempo's third with it.
    /// eval/tempo_steps: 0.1 left the steps of 100 → 130 and 100 → 120 BPM a beat later, 0.3 the step from 80
    /// BPM (read at 160) two beats later. 0.5 lost the fourth beat of 160 → 120: a bump of the second's bass
    /// 0.12 s after it, on the old grid (activation 0.47, a beat to the model's observation), won the old tempo
    /// back. 1 still lost the third beat of 75 (read at 150) → 100, where nothing is heard between the step and
    /// the old grid's next beat. eval/real and eval/run read the same at 0.5 and 2.
    static let stepShare: Float = 2
    /// What a drift named after its beat has passed (an early one) gets: as much as the rest of the belief. That beat's onset
    /// has gone by, so nothing more speaks for it before the next beat; at 0.3 the model kept its old
    /// period, and the accelerando of eval/real still lost its third beat (109 ms late).
    static let driftShare: Float = 1

    /// Adds to the belief a beat of `period` frames that was `framesAgo` frames ago (0: this frame is a beat).
    private func enterBeat(period: Int, framesAgo: Int) {
        recount()
        let k = period - shortestPeriod
        let share = framesAgo > 0 ? Self.driftShare : Self.stepShare
        let slot = (head[k] + framesAgo % period) % period
        let added = Float(total) * share
        probability[blockStart[k] + slot] += added
        total += Double(added)
        if probability[blockStart[k] + slot] > blockMaximum[k] {
            blockMaximum[k] = probability[blockStart[k] + slot]
            blockMaximumSlot[k] = slot
        }
    }

    /// The total is summed afresh every 32 frames (0.28 s), and on any frame that takes away half of it or more:
    /// between, it is carried as the states change. The carried total's error is a rounding of the changed
    /// states, so once the belief falls far within a frame it would no longer be small beside what is left.
    static let totalRecountFrames = 32
    /// The belief is scaled back (by a power of two) once its total leaves 2^−20…2^20. A frame multiplies the
    /// total by at most the likelihood ratio of a beat, 7·10^4 at the learned settings' floor (2^16), three times
    /// that when a step is named (`stepShare`), so no state can overflow, and the least probable states keep within
    /// 2^20 of where a belief normalised every frame holds them.
    static let totalExponentLimit = 20

    /// Sums every state afresh into `total`.
    private func recount() {
        total = Double(VectorLoops.sum(probability, count: stateCount))
        framesSinceRecount = 0
    }

    /// Block `k`'s largest state and its slot, searched for.
    private func largestState(_ k: Int) -> (value: Float, slot: Int) {
        let base = probability + blockStart[k]
        var largest = base[0], slot = 0
        for s in 1..<(shortestPeriod + k) where base[s] > largest {
            largest = base[s]
            slot = s
        }
        return (largest, slot)
    }

    /// Searches block `k` for its largest state.
    private func findBlockMaximum(_ k: Int) {
        (blockMaximum[k], blockMaximumSlot[k]) = largestState(k)
    }

    /// Back to the starting belief: any tempo (as preferred), any phase.
    func reset() {
        probability.update(from: initial, count: stateCount)
        for k in 0..<blockCount {
            head[k] = 0
            findBlockMaximum(k)
        }
        recount()
        bars.reset()
        steps.reset()
        updateBarWeights()
        framesSinceBarUpdate = 0
        bestPeriod = 0
        bestPosition = 0
        meanPeriod = 0
    }

    /// Advances the belief by one frame that saw `activation` (0…1: how much this frame looks like a beat) and
    /// `accent` (the frame's onset strength, unnormalised, for the bar evidence).
    func step(activation: Float, accent: Float) {
        bars.push(accent)
        framesSinceBarUpdate += 1
        if framesSinceBarUpdate >= Self.barUpdateFrames {
            framesSinceBarUpdate = 0
            updateBarWeights()
        }
        // Each block's head moves back one slot: the slot that held the last position now holds position 0.
        for k in 0..<blockCount {
            let period = shortestPeriod + k
            let h = head[k] == 0 ? period - 1 : head[k] - 1
            head[k] = h
            leaving[k] = probability[blockStart[k] + h]
            entering[k] = 0
        }
        for k in 0..<blockCount where leaving[k] > 0 {
            VectorLoops.addScaled(bandWeight + bandOffset[k], times: leaving[k], into: entering + bandLow[k],
                                  count: bandCount[k])
        }
        for k in 0..<blockCount { entering[k] *= barWeight[k] }
        let floor = settings.activationFloor, neutral = settings.neutralActivation
        let a = min(max(activation, floor), 1 - floor)
        var ratio = a * (1 - neutral) / ((1 - a) * neutral)
        if settings.evidencePower != 1 { ratio = powf(ratio, settings.evidencePower) }
        // Position 0 takes what enters the block, the beat states see the frame; every other state is as it was,
        // so the block's largest state is the largest of those changed and the one carried, unless the carried
        // one was among those changed and did not grow.
        var change = 0.0
        for k in 0..<blockCount {
            let period = shortestPeriod + k
            let base = probability + blockStart[k]
            let h = head[k]
            base[h] = entering[k]
            var before: Float = 0, largest: Float = -1, largestSlot = h
            // The beat states run from the head, wrapping past the block's last slot at most once.
            let firstRun = min(beatStates[k], period - h)
            Self.observe(base, h..<(h + firstRun), ratio, &before, &largest, &largestSlot)
            Self.observe(base, 0..<(beatStates[k] - firstRun), ratio, &before, &largest, &largestSlot)
            change += Double(entering[k]) - Double(leaving[k]) + Double(before) * (Double(ratio) - 1)
            let carried = blockMaximumSlot[k]
            let position = carried >= h ? carried - h : carried - h + period
            let carriedChanged = position < beatStates[k]
            if carried == h || (carriedChanged && ratio < 1) {
                findBlockMaximum(k)
            } else if carriedChanged || largest > blockMaximum[k] {
                blockMaximum[k] = largest
                blockMaximumSlot[k] = largestSlot
            }
        }
        let fell = change < -total / 2
        total += change
        framesSinceRecount += 1
        if settings.detectsSteps, let step = steps.observe(activation: activation, period: bestPeriod, position: bestPosition) {
            enterBeat(period: step.period, framesAgo: step.framesAgo)
            // The bars heard so far are the old tempo's: their evidence would pull the model back to it (a ramp of
            // 95 → 120 BPM over 8 beats lost its fifth beat to the old bar), so it starts afresh and speaks again
            // after `barMinimumSeconds` of the new tempo.
            bars.reset()
            updateBarWeights()
            framesSinceBarUpdate = 0
        }
        let limit = Double(sign: .plus, exponent: Self.totalExponentLimit, significand: 1)
        if fell || framesSinceRecount >= Self.totalRecountFrames || !(total > 1 / limit && total < limit) {
            recount()
            guard total > 0, total.isFinite else {
                reset()
                return
            }
            if !(total > 1 / limit && total < limit) {
                // A power of two: every state and every carried maximum scales exactly.
                // Within Float's exponents: a total below 2^−120 is brought up over frames, not at once.
                let factor = Float(sign: .plus, exponent: min(max(-total.exponent, -120), 120), significand: 1)
                _ = VectorLoops.scale(probability, count: stateCount, by: factor)
                for k in 0..<blockCount { blockMaximum[k] *= factor }
                total *= Double(factor)
                rescales += 1
            }
        }
        // The best period: the first block that holds the most probable state.
        var best: Float = -1
        var low = 0
        for k in 0..<blockCount where blockMaximum[k] > best {
            best = blockMaximum[k]
            low = k
        }
        let period = shortestPeriod + low
        bestPeriod = period
        var x: Float = 0, y: Float = 0
        let base = probability + blockStart[low]
        let h = head[low]
        for slot in 0..<period {
            let p = base[slot]
            var position = slot - h
            if position < 0 { position += period }
            x += p * cosine[blockStart[low] + position]
            y += p * sine[blockStart[low] + position]
        }
        var angle = Double(atan2f(y, x))
        if angle < 0 { angle += 2 * Double.pi }
        bestPosition = angle / (2 * Double.pi) * Double(period)
        // The period between whole frames: the mean over the best period's neighbours, weighted by their
        // probability (120 BPM is 57.6 frames; the best block alone says 57 or 58, 121.2 or 119.1 BPM).
        var weighted = 0.0, mass = 0.0
        for j in max(0, low - Self.meanNeighbours)...min(blockCount - 1, low + Self.meanNeighbours) {
            let blockMass = Double(VectorLoops.sum(probability + blockStart[j], count: shortestPeriod + j))
            weighted += blockMass * Double(shortestPeriod + j)
            mass += blockMass
        }
        meanPeriod = mass > 0 ? weighted / mass : Double(period)
    }

    /// Multiplies the states in `slots` by `ratio`, adding their values before it to `before` and noting the
    /// largest after it.
    @inline(__always)
    private static func observe(_ base: UnsafeMutablePointer<Float>, _ slots: Range<Int>, _ ratio: Float,
                                _ before: inout Float, _ largest: inout Float, _ largestSlot: inout Int) {
        for slot in slots {
            let value = base[slot]
            before += value
            base[slot] = value * ratio
            if base[slot] > largest {
                largest = base[slot]
                largestSlot = slot
            }
        }
    }

    /// For tests: whether every block's carried largest state is its largest, and the carried total's
    /// difference from a fresh sum, relative to it.
    func bookkeepingCheck() -> (maximaHold: Bool, totalError: Double) {
        var hold = true
        for k in 0..<blockCount {
            let largest = largestState(k).value
            let atCarriedSlot = probability[blockStart[k] + blockMaximumSlot[k]]
            if largest != blockMaximum[k] || atCarriedSlot != largest { hold = false }
        }
        let sum = Double(VectorLoops.sum(probability, count: stateCount))
        return (hold, abs(total - sum) / sum)
    }
}
