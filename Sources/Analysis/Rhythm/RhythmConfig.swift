/// Settings of a `RhythmTracker`: onset picking and the tempo range of the beat tracker.
public struct RhythmConfig: Sendable, Equatable {
    /// Slowest tempo the beat tracker may report, BPM (`--bpm-min`). 55…215 is madmom's default range; the
    /// learned activation's settings were chosen over 40…240 (`learnedMinimumBPM`), which covers the tempi of the
    /// eval corpus (48–240 BPM): on its training part the learned tracker read beat F 0.862 over 40…240 against
    /// 0.851 over 55…215, which cannot name the 48, 220 and 240 BPM pieces.
    public var minimumBPM: Double
    /// Fastest tempo the beat tracker may report, BPM (`--bpm-max`).
    public var maximumBPM: Double
    /// The tempo range the tracker prefers when the onsets allow two metrical levels equally well
    /// (`TempoPhaseModel`): 88…176 is one octave wide and covers 90…174 BPM, so half of 174 (87) and double
    /// of 90 (180) both lie outside it. Clamped into `minimumBPM…maximumBPM`.
    public var preferredMinimumBPM: Double
    public var preferredMaximumBPM: Double
    /// Nats per second a tempo outside the preferred range costs (from 0.021 octave beyond its edge on), plus
    /// `outsideSlope` per squared octave beyond the edge. Scanned on the eval corpora and 60–200 BPM drum loops:
    /// 4.6 (0.04 per 8.7 ms frame) is the least that keeps the synthetic 90 BPM hip-hop and mix loops at 90
    /// rather than 180; 8 and more halve 190 and 200 BPM loops.
    static let outsidePenalty = 4.6
    static let outsideSlope = 5.7
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
    /// The learned beat activation's weights (`BeatNetwork`, `--beat-activation learned`); nil (the default):
    /// the beat model reads the onset function below 1 kHz (`BeatActivation`). On the held-out part of eval/real
    /// the network reads more (beat F 0.707 against 0.613 over 479 items, the tempo right on 290 against 253 of
    /// 416: docs/analysis.md), but it reads the synthetic 90 BPM loops of eval/run at 180 BPM and the held-out
    /// Hydrogen songs and Sonic Pi loops worse, where the onset function meets every bar of eval/run: the onset
    /// function stays the default until one activation does both.
    public var learnedActivation: BeatNetworkWeights?
    /// How the beat model reads its activation (`BeatModelSettings.learned` or `.onsetFunction`).
    public var beatModel: BeatModelSettings

    /// The tempo range the learned activation's settings were chosen over (`--beat-activation learned` without
    /// `--bpm-min`/`--bpm-max`).
    public static let learnedMinimumBPM = 40.0
    public static let learnedMaximumBPM = 240.0

    /// The defaults documented on each property.
    public init() {
        minimumBPM = 55
        maximumBPM = 215
        preferredMinimumBPM = 88
        preferredMaximumBPM = 176
        onsetThreshold = 0.005
        onsetMinimumGap = 0.050
        beatLead = 0.020
        learnedActivation = nil
        beatModel = .onsetFunction
    }
}
