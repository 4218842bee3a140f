/// A note or hit beginning, found by `RhythmTracker`.
public struct OnsetEvent: Sendable, Equatable {
    /// How strong the attack was: the onset function's excess over the adaptive threshold when the onset was
    /// reported (at its peak, or mid-rise for a sustained rise), mapped to 0…1 by `1 - exp(-excess)`; ~0.2 is
    /// a soft note, ~0.8 and above a hard hit.
    public var strength: Float
    /// The estimated start of the onset, stream frame.
    public var frame: Int
    /// The stream frame at which the onset was detected: what a live receiver experiences (>= `frame`).
    public var reportedFrame: Int

    /// An onset event.
    public init(strength: Float, frame: Int, reportedFrame: Int) {
        self.strength = strength
        self.frame = frame
        self.reportedFrame = reportedFrame
    }
}

/// A predicted beat, announced before it happens.
public struct BeatEvent: Sendable, Equatable {
    /// 1, 2, 3, … since the tracker locked (or since `reset`); starts again at 1 after a loss of lock.
    public var count: Int
    /// The tempo at the time of the announcement, BPM.
    public var bpm: Float
    /// Bars begun since the tracker locked (1, 2, …): the counter advances on every beat 1.
    public var bar: Int
    /// The beat's number within its bar, 1…`beatsPerBar` (1 is the downbeat).
    public var beatInBar: Int
    /// The meter as inferred when the beat was announced: 3 or 4.
    public var beatsPerBar: Int
    /// The predicted beat instant, stream frame.
    public var frame: Int
    /// The stream frame at which the beat was announced (`<= frame`: predicted, causal).
    public var reportedFrame: Int

    /// A beat event.
    public init(count: Int, bpm: Float, bar: Int = 1, beatInBar: Int = 1, beatsPerBar: Int = 4, frame: Int,
                reportedFrame: Int) {
        self.count = count
        self.bpm = bpm
        self.bar = bar
        self.beatInBar = beatInBar
        self.beatsPerBar = beatsPerBar
        self.frame = frame
        self.reportedFrame = reportedFrame
    }
}
