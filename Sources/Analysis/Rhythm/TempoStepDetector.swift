/// Spots a step change of tempo on the second beat of the new tempo, and an accelerando or ritardando too fast for
/// the model's transitions, for `TempoPhaseModel`, which on its own holds the old tempo for some six beats after a
/// step: a step costs the model λ times its size (23 nats for 100 → 130 BPM), and the bar evidence still favours
/// the old bar for a few seconds more.
///
/// The model cannot simply make steps cheaper: a syncopated groove's off-beat accents look like a new tempo for
/// a beat or two, exactly as long as a real step does (a jump weight to any tempo within ±0.6 octave followed
/// the step after 4 beats and cost the real corpus 0.04 to 0.09 of beat F, see `TempoPhaseModel`). What tells
/// them apart is what the music did before and what it stopped doing. A step is:
/// - three strong onsets (activation ≥ `strongActivation`), equally spaced (± `spacingTolerance` frames) at a
///   period at least `minimumChange` away from the model's, the middle one off its beat grid (further than
///   `offGridFrames` from a beat) and the last off it too unless the new period puts it back on (3/2 of the
///   old): the first two beats of a new tempo, counted from the last beat of the old;
/// - every beat of the old grid since the first of them left empty (activation under `emptyActivation` within
///   `gridWindowFrames` of it), and at least one such beat: the old tempo stopped;
/// - neither of the two new onsets that are off the grid heard 2, 3, 4 or 8 beats of the old tempo earlier
///   (± `repeatFrames`): a syncopation repeats with the bar, a new tempo is new. Sonic Pi's safari loop, whose
///   accents every three sixteenths are such triples in every bar, fires without this check and never with it;
/// - and at least `historyBeats` beats of the old tempo heard, so that there is a bar to compare with.
///
/// A drift is three strong onsets whose two intervals both fall short of the model's period (or both exceed it),
/// either equal (± `spacingTolerance`) or both at least `spacingTolerance` frames off it with the newer no nearer
/// (a ramp whose beats shorten, or lengthen, by more than the tolerance from one to the next); the newer
/// `driftMinimumChange` to `minimumChange` away from the period (and `driftMinimumFrames` whole frames); and the
/// last onset more than `driftOffGridFrames` off the grid on the side the new period puts it (early when faster):
/// the beats themselves moving away from the model's, as in an accelerando of 3 % a beat, which the model, held
/// by λ and by the bar of the old tempo, follows a beat or more late. A beat a frame early and the next rushed by
/// 4 frames (35 ms) are such a pair and named like one: at that beat nothing tells them from the first beats of an
/// accelerando (eval/real's humanised Hydrogen songs read beat F 0.962 with this detector, 0.960 with that of
/// 1881576, whose drifts were evenly spaced and 4 frames off the grid). The new period is the newer interval: in a
/// ramp it is the nearer to the next. An early onset is named once the model's own beat has passed (it has
/// announced that beat by then), with the frames since it.
///
/// On the real corpus (eval/real, its 36 items without the humanised songs) it changes the figures of the step
/// from 100 to 130 BPM and of the accelerando from 90 to 140, and of no other item: the step is followed after 3
/// beats instead of 6 (counted from the last old beat: the first two new ones are lost), the accelerando at once
/// instead of after 4. For `eval/tempo_steps` (12 steps from 75 to 180 BPM, up and down, and 8 ramps) see the
/// the table in docs/analysis.md.
/// Everything is allocated in `init`.
final class TempoStepDetector {
    static let strongActivation: Float = 0.3
    static let emptyActivation: Float = 0.3
    static let offGridFrames = 4.0
    static let gridWindowFrames = 2.0
    static let spacingTolerance = 2
    static let minimumChange = 0.1
    /// Below 3 % (and 3 whole frames) a drift is left to the model's transitions, where a change of 1 % costs a
    /// nat per beat; the accelerando of eval/real moves 3.9 % over its first beats.
    static let driftMinimumChange = 0.03
    static let driftMinimumFrames = 3
    /// A drifting beat is off the grid when more than 3 frames (26 ms) from a beat, a frame less than a stepped
    /// one: a ritardando from 130 to 100 BPM over 8 beats (eval/tempo_steps) is 3.9 frames late on its third beat,
    /// the one the model must not lose. A humanised steady beat (onsets ± 2 frames) stays within 2.
    static let driftOffGridFrames = 3.0
    /// An early drift onset waits at most this long for the model's beat to pass.
    static let driftWaitFrames = 12
    static let repeatFrames = 3
    static let repeatActivation: Float = 0.3
    static let historyBeats = 8
    /// Old-grid beats remembered: more than fit between three onsets of a tempo at least 10 % away.
    static let gridBeatCapacity = 8

    /// The model's shortest and longest beat period, frames: a new period outside them is none of its.
    let shortestPeriod: Int
    let longestPeriod: Int
    /// The activation of the newest frames, a ring long enough to look `historyBeats` of the longest period back.
    private let history: UnsafeMutablePointer<Float>
    private let historyCount: Int
    private var frame = 0
    private var previousActivation: Float = 0
    /// The last three strong onsets (frames, oldest first) and whether each fell off the grid.
    private var onset0 = Int.min / 2, onset1 = Int.min / 2, onset2 = Int.min / 2
    private var offGrid1 = false, offGrid2 = false
    /// The old grid's beats as they pass: the frame each one's window opened and its largest activation.
    private let gridBeatFrame: UnsafeMutablePointer<Int>
    private let gridBeatPeak: UnsafeMutablePointer<Float>
    private var gridBeatCount = 0
    private var gridBeatNext = 0
    private var inGridWindow = false
    private var windowOpened = 0
    private var windowPeak: Float = 0
    /// A drift found on an early onset, named once the model's beat has passed: its period (0: none) and onset.
    private var pendingDrift = 0
    private var pendingOnset = 0

    init(shortestPeriod: Int, longestPeriod: Int) {
        self.shortestPeriod = shortestPeriod
        self.longestPeriod = longestPeriod
        historyCount = Self.historyBeats * longestPeriod + 2 * Self.repeatFrames + 2
        history = .allocate(capacity: historyCount)
        history.initialize(repeating: 0, count: historyCount)
        gridBeatFrame = .allocate(capacity: Self.gridBeatCapacity)
        gridBeatFrame.initialize(repeating: 0, count: Self.gridBeatCapacity)
        gridBeatPeak = .allocate(capacity: Self.gridBeatCapacity)
        gridBeatPeak.initialize(repeating: 0, count: Self.gridBeatCapacity)
    }

    deinit {
        history.deallocate()
        gridBeatFrame.deallocate()
        gridBeatPeak.deallocate()
    }

    func reset() {
        history.update(repeating: 0, count: historyCount)
        frame = 0
        previousActivation = 0
        onset0 = Int.min / 2
        onset1 = Int.min / 2
        onset2 = Int.min / 2
        offGrid1 = false
        offGrid2 = false
        gridBeatCount = 0
        gridBeatNext = 0
        inGridWindow = false
        windowPeak = 0
        pendingDrift = 0
    }

    /// One frame's `activation`, with the model's belief before it: its best `period` (frames, 0 for none) and
    /// the `position` in the beat of the frame before. Returns a new period (frames) and how many frames ago a
    /// beat of it was: 0 when this frame completes the second beat of a stepped tempo (or a late drifting beat),
    /// more for an early drifting beat named once the model's own beat has passed.
    func observe(activation a: Float, period: Int, position: Double) -> (period: Int, framesAgo: Int)? {
        frame += 1
        history[frame % historyCount] = a
        let previous = previousActivation
        previousActivation = a
        guard period > 0 else {
            pendingDrift = 0
            return nil
        }
        let beat = Double(period)
        let here = (position + 1).truncatingRemainder(dividingBy: beat)
        let fromBeat = min(here, beat - here)
        trackGrid(activation: a, fromBeat: fromBeat)
        if pendingDrift > 0, here < 1 || frame - pendingOnset > Self.driftWaitFrames {
            defer { pendingDrift = 0 }
            return (pendingDrift, frame - pendingOnset)
        }
        guard a >= Self.strongActivation, previous < Self.strongActivation else { return nil }
        onset0 = onset1
        onset1 = onset2
        onset2 = frame
        offGrid1 = offGrid2
        offGrid2 = fromBeat > Self.offGridFrames
        guard onset0 > Self.historyBeats * period + Self.repeatFrames else { return nil }
        let older = onset1 - onset0, newer = onset2 - onset1
        let evenPeriod = Int((Double(onset2 - onset0) / 2).rounded())
        if abs(older - newer) <= Self.spacingTolerance, evenPeriod >= shortestPeriod, evenPeriod <= longestPeriod,
           abs(Double(evenPeriod) / beat - 1) > Self.minimumChange {
            // The last onset may fall on the old grid: when the new period is 3/2 of the old (a groove of 75 BPM
            // read at 150 stepping to 100), every second new beat does. An onset on the grid was heard a bar
            // earlier whatever the tempo (an old beat was there), so only an onset off it is checked for that.
            guard offGrid1, oldGridWentQuiet(), !repeatsWithTheBar(onset1, period: period),
                  offGrid2 ? !repeatsWithTheBar(onset2, period: period)
                      : abs(2 * evenPeriod - 3 * period) <= Self.spacingTolerance else { return nil }
            return (evenPeriod, 0)
        }
        // A drift: the beats moving away from the model's, evenly or faster and faster.
        let faster = newer < period
        let early = here > beat / 2
        let change = abs(Double(newer) / beat - 1)
        let even = abs(older - newer) <= Self.spacingTolerance
        let ramp = faster
            ? older <= period - Self.spacingTolerance && newer <= older + Self.spacingTolerance
            : older >= period + Self.spacingTolerance && newer >= older - Self.spacingTolerance
        guard fromBeat > Self.driftOffGridFrames, faster == early, faster ? older < period : older > period,
              even || ramp, newer >= shortestPeriod, newer <= longestPeriod, change >= Self.driftMinimumChange,
              change <= Self.minimumChange, abs(newer - period) >= Self.driftMinimumFrames else { return nil }
        guard early else { return (newer, 0) }
        pendingDrift = newer
        pendingOnset = onset2
        return nil
    }

    /// Notes each beat of the old grid as its window (± `gridWindowFrames`) closes.
    private func trackGrid(activation a: Float, fromBeat: Double) {
        if fromBeat <= Self.gridWindowFrames {
            if !inGridWindow {
                inGridWindow = true
                windowOpened = frame
                windowPeak = 0
            }
            windowPeak = max(windowPeak, a)
        } else if inGridWindow {
            inGridWindow = false
            gridBeatFrame[gridBeatNext] = windowOpened
            gridBeatPeak[gridBeatNext] = windowPeak
            gridBeatNext = (gridBeatNext + 1) % Self.gridBeatCapacity
            gridBeatCount = min(gridBeatCount + 1, Self.gridBeatCapacity)
        }
    }

    /// Whether the old grid had a beat after the first onset (not the one it fell on) and before the last, and
    /// every such beat was empty.
    private func oldGridWentQuiet() -> Bool {
        var seen = 0
        for i in 0..<gridBeatCount {
            let opened = gridBeatFrame[i]
            guard opened > onset0 + Int(Self.gridWindowFrames), opened < onset2 else { continue }
            if gridBeatPeak[i] >= Self.emptyActivation { return false }
            seen += 1
        }
        return seen > 0
    }

    /// Whether `onset` was heard half a bar, a bar of 3 or of 4, or two bars of 4 old beats earlier.
    private func repeatsWithTheBar(_ onset: Int, period: Int) -> Bool {
        heard(onset, beatsBack: 2, period: period) || heard(onset, beatsBack: 3, period: period)
            || heard(onset, beatsBack: 4, period: period) || heard(onset, beatsBack: 8, period: period)
    }

    /// Whether a strong activation came `beatsBack` old beats before `onset`.
    private func heard(_ onset: Int, beatsBack: Int, period: Int) -> Bool {
        let centre = onset - beatsBack * period
        for f in (centre - Self.repeatFrames)...(centre + Self.repeatFrames)
        where f > 0 && frame - f < historyCount && history[f % historyCount] >= Self.repeatActivation {
            return true
        }
        return false
    }
}
