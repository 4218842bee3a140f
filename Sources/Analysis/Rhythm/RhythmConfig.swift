/// Settings of a `RhythmTracker`: onset picking and the tempo range of the beat tracker.
public struct RhythmConfig: Sendable, Equatable {
    /// Slowest tempo the beat tracker may report, BPM (`--bpm-min`).
    ///
    /// The default range 88…178 is one octave wide (178 / 88 ≈ 2.02) and covers 90…174 BPM material with a
    /// margin of ~2 %: half of 174 (87) and double of 90 (180) both lie outside it, so within the range a
    /// metrical level has no octave twin to be confused with, which is what rules out halving and doubling.
    public var minimumBPM: Double
    /// Fastest tempo the beat tracker may report, BPM (`--bpm-max`). Keep the range at most an octave wide to
    /// keep halving/doubling impossible.
    public var maximumBPM: Double
    /// Offset of the adaptive onset threshold above twice the mean of the onset function over the last
    /// 100 ms, in units of the onset function (log-magnitude rise summed over the bins from 200 Hz to 16 kHz,
    /// divided by the number of bins from 30 Hz to 16 kHz: `SpectralFlux.pickingFlux`) (`--onset-threshold`).
    ///
    /// 0.005 gave the best mean F-measure on the tuning corpus (GM piano, guitar, bass, strings, winds, voice,
    /// drum loops) against 0.01 and 0.02; raise it to ignore soft notes, lower it to catch soft attacks.
    public var onsetThreshold: Float
    /// Minimum time between two onsets, seconds (`--onset-gap`). 50 ms, the ±50 ms MIREX tolerance: a second
    /// onset closer than that is most often the same note's second transient (a flute's breath then its tone,
    /// a bass's pluck then its body) or a flam. On the eval corpus 50 ms lifted the mean onset F from 0.952 to
    /// 0.958 against 30 ms; it still allows 32nd notes up to 150 BPM.
    public var onsetMinimumGap: Double
    /// Seconds before its predicted instant at which a beat is announced (`reportedFrame = frame - lead`,
    /// rounded down to a hop). 20 ms covers a JACK period plus a UDP hop to a lighting desk, so a receiver
    /// that acts on arrival lands on the beat.
    public var beatLead: Double

    /// The defaults documented on each property.
    public init() {
        minimumBPM = 88
        maximumBPM = 178
        onsetThreshold = 0.005
        onsetMinimumGap = 0.050
        beatLead = 0.020
    }
}
