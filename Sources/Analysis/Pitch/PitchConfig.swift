/// Settings of a `PitchTracker`: the range searched, the voicing gates, the note display.
public struct PitchConfig: Sendable, Equatable {
    /// Lowest fundamental searched, Hz (`--pitch-min`). The analysis window spans two periods of it, so this
    /// also sets the latency: 40 Hz gives a 50 ms window.
    public var minimumFrequency: Double
    /// Highest fundamental searched, Hz (`--pitch-max`).
    public var maximumFrequency: Double
    /// An estimate is voiced only when its confidence is at least this (`--pitch-confidence`).
    public var confidenceGate: Float
    /// …and the window's RMS is at least this many dBFS (`--pitch-level`).
    public var levelGateDB: Float
    /// The displayed note changes only once the estimate is this many cents past the half-semitone boundary
    /// (`--note-hysteresis`).
    public var hysteresisCents: Float
    /// Tuning reference: the frequency of A4, Hz (`--a4`).
    public var a4: Double

    /// Defaults:
    /// - minimum 40 Hz: E1 (41.2 Hz), the lowest string of a 4-string bass, with a margin for flat tuning;
    ///   two periods are 2,400 samples at 48 kHz (aubio's yin searches lags up to half its buffer: 2,048 samples
    ///   stop at ~43 Hz).
    /// - maximum 4,200 Hz: above C8 (4,186 Hz), the top of the piano.
    /// - confidence gate 0.6: pink noise never reached 0.46 in 45 s at 44.1/48/96 kHz (99.9th percentile
    ///   0.42), while the attacks and vibrato of real instruments often sit at 0.6–0.8; against 0.8 the gate
    ///   raised raw pitch accuracy on fluidsynth melodies from 0.856 to 0.877 with no pink-noise frame voiced.
    /// - level gate -60 dBFS: quieter than any note of a normally levelled instrument, louder than a 16-bit
    ///   noise floor.
    /// - hysteresis 20 cents: vibrato of ±20–50 cents around a boundary does not flicker the note, a played
    ///   neighbouring semitone (100 cents away) still switches it at once.
    /// - A4 = 440 Hz (ISO 16).
    public init() {
        minimumFrequency = 40
        maximumFrequency = 4_200
        confidenceGate = 0.6
        levelGateDB = -60
        hysteresisCents = 20
        a4 = 440
    }
}
