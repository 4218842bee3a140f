import Foundation

/// Turns the tempo/phase model's belief into announced beats: the next beat instant predicted from the most
/// probable state, a lock once that prediction has held still for a beat, beats announced `lead` ahead of
/// their instant, and the tempo from the beats themselves.
///
/// The model's positions are 8.7 ms frames, so its prediction moves in steps of a frame and a steady tempo
/// between two whole-frame periods makes it slip a frame every few beats. Once locked, the schedule only
/// moves `correction` of the way to each new prediction (about 9 updates per 120 BPM beat) and advances by
/// the measured period after each beat; a prediction further than `jumpFrames` from the schedule (a new
/// phase) is taken at once.
///
/// The model's period is a whole number of 8.7 ms frames (3 % steps at 200 BPM), so the tempo is read from the
/// last `tempoBeats` announced beats (the slope of their instants), which the model's phase keeps on the music
/// between those steps; the model's own period stands in until there are enough, or when they disagree by
/// more than `tempoAgreement` (a tempo change).
struct BeatScheduler {
    static let tempoBeats = 11
    /// A lock needs the prediction steady for half a beat, at least this much music (before it, the first
    /// few onsets, often eighth notes, fit a tempo the next ones contradict) and `minimumOnsets` onsets: one
    /// note held, or a single hit, has no tempo.
    static let minimumMusicSeconds = 0.7
    static let minimumOnsets = 3
    static let tempoAgreement = 0.06
    /// A beat is not announced closer than this share of a period after the previous one: the prediction of
    /// a beat already announced stays in the future until the model's position passes it.
    static let minimumSpacing = 0.6
    /// Predictions that move by less than this many model frames from one frame to the next (modulo a
    /// period) count as steady.
    static let steadyFrames = 3.0
    static let correction = 0.25
    static let meanSmoothing = 0.01
    static let jumpFrames = 6.0

    /// Samples per model frame.
    let frameSamples: Double
    private(set) var locked = false
    private(set) var count = 0
    /// Next predicted beat, stream frame; valid once a prediction was made.
    private(set) var nextBeat: Double = 0
    /// Period of the model's best state, samples.
    private var modelPeriod: Double = 0
    /// The model's probability-weighted mean period, samples (between whole frames).
    private var modelMeanPeriod: Double = 0
    private var steady = 0
    private var hasPrediction = false
    private var lastAnnounced: Double?
    private var announced: [Double]
    private var announcedCount = 0

    init(frameSamples: Double) {
        self.frameSamples = frameSamples
        announced = Array(repeating: 0, count: Self.tempoBeats)
    }

    mutating func reset() {
        unlock()
        hasPrediction = false
        steady = 0
        modelPeriod = 0
        modelMeanPeriod = 0
    }

    mutating func unlock() {
        locked = false
        count = 0
        lastAnnounced = nil
        announcedCount = 0
        steady = 0
    }

    /// A new belief: the model's best period, and how many frames after `instant` (the stream frame its newest
    /// frame describes) it puts the next beat (`TempoPhaseModel.framesToNextBeat`). `mayLock` is false while the
    /// music has not gone on long enough for any reading to mean much.
    mutating func update(period: Int, framesToNextBeat: Double, meanPeriod: Double, instant: Double, mayLock: Bool) {
        // Smoothed over about 0.9 s: early on the belief shares its mass between two neighbouring periods in
        // proportions that swing from frame to frame (119.1 / 121.0 BPM read at alternate beats of a 120 BPM
        // loop); a jump of more than `tempoAgreement` is taken at once.
        let newMean = meanPeriod * frameSamples
        if modelMeanPeriod > 0 && abs(newMean / modelMeanPeriod - 1) <= Self.tempoAgreement {
            modelMeanPeriod += Self.meanSmoothing * (newMean - modelMeanPeriod)
        } else {
            modelMeanPeriod = newMean
        }
        let predicted = instant + framesToNextBeat * frameSamples
        let newPeriod = Double(period) * frameSamples
        if hasPrediction {
            var moved = (predicted - nextBeat).truncatingRemainder(dividingBy: newPeriod)
            if moved < 0 { moved += newPeriod }
            moved = min(moved, newPeriod - moved)
            let periodChange = abs(newPeriod - modelPeriod)
            if moved <= Self.steadyFrames * frameSamples && periodChange <= 2.5 * frameSamples {
                steady += 1
            } else {
                steady = 0
            }
        }
        if locked && hasPrediction {
            var aligned = predicted
            while aligned - nextBeat > newPeriod / 2 { aligned -= newPeriod }
            while nextBeat - aligned > newPeriod / 2 { aligned += newPeriod }
            if abs(aligned - nextBeat) > Self.jumpFrames * frameSamples {
                nextBeat = aligned
            } else {
                nextBeat += Self.correction * (aligned - nextBeat)
            }
        } else {
            nextBeat = predicted
        }
        hasPrediction = true
        // A new tempo: the intervals of the old one no longer say anything about it.
        if modelPeriod > 0 && abs(newPeriod / modelPeriod - 1) > Self.tempoAgreement { announcedCount = 0 }
        modelPeriod = newPeriod
        // The schedule names the next beat not yet announced: a beat already announced, or one the model
        // moved into the past, gives way to the one after it.
        let earliest = max(lastAnnounced.map { $0 + Self.minimumSpacing * newPeriod } ?? -Double.infinity, instant)
        while nextBeat < earliest { nextBeat += newPeriod }
        if !locked && mayLock && 2 * steady >= period {
            locked = true
            count = 0
        }
    }

    /// The beat to announce at stream frame `now` (`hop` samples before the next call), if waiting would
    /// leave less than `lead` samples before it.
    mutating func due(now: Int, hop: Int, lead: Double) -> (frame: Int, count: Int)? {
        guard locked, Double(now + hop) > nextBeat - lead else { return nil }
        if let lastAnnounced, nextBeat - lastAnnounced < Self.minimumSpacing * modelPeriod { return nil }
        let frame = max(now, Int(nextBeat.rounded()))
        count += 1
        lastAnnounced = Double(frame)
        announced[announcedCount % Self.tempoBeats] = Double(frame)
        announcedCount += 1
        nextBeat = max(nextBeat, Double(now)) + periodSamples
        return (frame, count)
    }

    /// The beat period, samples: the least-squares slope of the recent beats' instants over an odd number (at
    /// least 5, at most 11) of beats, or the model's mean period. The slope rather than the mean interval (the
    /// first and last beat alone): every beat's jitter counts, so its variance is 12/(n(n²−1)) of one beat's
    /// against 2/(n−1)² (0.009 against 0.020 for 11 beats). An odd number, because kick and snare alternate and
    /// a kick's onset below 1 kHz peaks some 13 ms after a snare's: instants alternate late and early, which a
    /// symmetric odd window weighs equally and so leaves out of the slope. Eleven beats: on the training part
    /// of eval/real every beat of the second half of an item whose tempo is right carries it within ±1 BPM on
    /// 138 of 226 items (the mean of the last six intervals: 89; fifteen beats: 157), and the BPM settles within
    /// 6 or 7 beats of a ramp's end (fifteen: 9 or 10; eval/tempo_steps, docs/analysis.md).
    var periodSamples: Double {
        var points = min(announcedCount, Self.tempoBeats)
        points -= 1 - points % 2
        guard points >= 5 else { return modelMeanPeriod }
        let newest = announced[(announcedCount - 1) % Self.tempoBeats]
        let centre = Double(points - 1) / 2
        var covariance = 0.0
        var spread = 0.0
        for back in 0..<points {
            // Instants relative to the newest, so the sums keep their precision hours into a stream.
            let instant = announced[(announcedCount - 1 - back) % Self.tempoBeats] - newest
            let index = Double(points - 1 - back) - centre
            covariance += index * instant
            spread += index * index
        }
        let slope = covariance / spread
        return abs(slope / modelMeanPeriod - 1) <= Self.tempoAgreement ? slope : modelMeanPeriod
    }

    /// Position within the beat at stream frame `frame`, 0 on the beat, nil when not locked.
    func phase(atFrame frame: Int) -> Float? {
        guard locked, modelPeriod > 0 else { return nil }
        let x = (Double(frame) - nextBeat) / modelPeriod
        return Float(x - x.rounded(.down))
    }
}
