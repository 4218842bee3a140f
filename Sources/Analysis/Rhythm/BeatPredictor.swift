import Foundation

/// Beat phase from a comb over the recent onset function at the tempo estimator's period, and the schedule
/// of predicted beats that the tracker announces ahead of time.
///
/// Every tempo update, each phase φ (in onset-function frames, 0 ≤ φ < period) is scored by the onset
/// function at now − φ − k·period, k = 0, 1, … over the last 4 s, weighted 0.8^k so the newest beats count
/// most and a slight tempo error does not smear the comb. The best φ gives the newest beat; the next beat
/// is that plus whole periods. Once beats are scheduled the schedule only moves a quarter of the way to each
/// new estimate (~3 updates per beat), so one misplaced accent moves the next beat by a few milliseconds.
struct BeatPredictor {
    static let combSeconds = 4.0
    static let combDecay: Float = 0.8
    /// Fraction of the predicted-minus-scheduled error corrected per update.
    static let correction = 0.25

    let framing: RhythmFraming
    /// Samples from the end of the window of an onset-function peak back to the onset it marks.
    let onsetDelay: Double
    private var odf: [Float]
    private var index = 0
    private var frames = 0
    /// Next predicted beat, stream frame (fractional); valid when `locked`.
    private(set) var nextBeat: Double = 0
    /// Beat period in samples; valid when `locked`.
    private(set) var periodSamples: Double = 0
    private(set) var locked = false
    private(set) var count = 0

    init(framing: RhythmFraming, onsetDelay: Double) {
        self.framing = framing
        self.onsetDelay = onsetDelay
        odf = Array(repeating: 0, count: Int(Self.combSeconds * framing.frameRate) + 4)
    }

    mutating func reset() {
        for i in odf.indices { odf[i] = 0 }
        index = 0
        frames = 0
        locked = false
        count = 0
    }

    mutating func push(_ value: Float) {
        odf[index] = value
        index = (index + 1) % odf.count
        frames += 1
    }

    /// The onset function `age` frames before the newest (0 = newest), 0 before the stream began.
    private func value(_ age: Int) -> Float {
        guard age >= 0, age < min(frames, odf.count) else { return 0 }
        return odf[(index - 1 - age + odf.count) % odf.count]
    }

    /// Re-estimates the phase at `period` (onset-function frames); `now` is the stream frame just processed.
    mutating func update(period: Double, now: Int) {
        let beats = max(1, Int(Double(min(frames, odf.count) - 2) / period))
        var bestScore: Float = -1
        var bestAge = 0
        for phase in 0..<Int(period.rounded(.up)) {
            var score: Float = 0
            var weight: Float = 1
            for k in 0..<beats {
                let age = phase + Int((Double(k) * period).rounded())
                // A 1-2-1 kernel: ±1 frame (±2.9 ms) of tolerance for jitter and period error.
                score += weight * (value(age - 1) + 2 * value(age) + value(age + 1))
                weight *= Self.combDecay
            }
            if score > bestScore { bestScore = score; bestAge = phase }
        }
        guard bestScore > 0 else { return }
        // The newest frame ends at `now`; a frame `age` older ends `age` hops earlier.
        let hop = Double(framing.hop)
        let newestBeat = Double(now) - Double(bestAge) * hop - onsetDelay
        let newPeriod = period * hop
        if !locked {
            locked = true
            count = 0
            periodSamples = newPeriod
            nextBeat = newestBeat + newPeriod * (Double(now) - newestBeat).quotientRoundedUp(by: newPeriod)
            return
        }
        periodSamples = newPeriod
        let target = newestBeat + newPeriod * ((nextBeat - newestBeat) / newPeriod).rounded()
        nextBeat += Self.correction * (target - nextBeat)
    }

    /// The beat to announce at stream frame `now`, if waiting for the next hop would leave less than `lead`
    /// samples before it: `reportedFrame <= frame - lead` whenever the schedule allows it.
    mutating func due(now: Int, lead: Double) -> BeatEvent? {
        guard locked, Double(now + framing.hop) > nextBeat - lead else { return nil }
        let frame = max(now, Int(nextBeat.rounded()))
        count += 1
        let event = BeatEvent(count: count, bpm: bpm, frame: frame, reportedFrame: now)
        nextBeat = max(nextBeat, Double(now)) + periodSamples
        return event
    }

    /// The tempo of the beat period, BPM.
    var bpm: Float { Float(60 * framing.sampleRate / periodSamples) }

    mutating func unlock() {
        locked = false
        count = 0
    }

    /// Position within the beat at stream frame `frame`, 0 on the beat, nil when not locked.
    func phase(atFrame frame: Int) -> Float? {
        guard locked, periodSamples > 0 else { return nil }
        let x = (Double(frame) - nextBeat) / periodSamples
        return Float(x - x.rounded(.down))
    }
}

extension Double {
    /// ⌈self / divisor⌉ as a Double, at least 1.
    fileprivate func quotientRoundedUp(by divisor: Double) -> Double { max(1, (self / divisor).rounded(.up)) }
}
