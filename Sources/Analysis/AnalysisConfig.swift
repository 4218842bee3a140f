/// What the analysis computes and how often it reports; the command line fills it in.
public struct AnalysisConfig: Sendable, Equatable {
    /// FFT window in samples (`--fft`).
    public var fftSize = 4096
    /// Number of log-spaced bands (`--bands`).
    public var bandCount = 48
    /// Lowest band edge, Hz.
    public var bandLowest = 60.0
    /// Highest band edge, Hz (clipped to half the sample rate).
    public var bandHighest = 18_000.0
    /// Band level that maps to 0 (0 dB maps to 1), per the OSC contract.
    public var bandFloorDB: Float = -80
    /// RMS level that maps `level` to 0 (`--floor`).
    public var levelFloorDB: Float = -60
    /// RMS window, seconds (300 ms per the OSC contract).
    public var rmsWindow = 0.3
    /// Snapshots per second of audio (`--rate`).
    public var rate = 30.0
    /// Pitch: range, voicing gates, note display and A4 (`--pitch-*`, `--note-hysteresis`, `--a4`).
    public var pitch = PitchConfig()
    /// Onsets, tempo and beats (`--onset-*`, `--bpm-*`, `--beat-lead`).
    public var rhythm = RhythmConfig()
    /// Which trackers run on which port (`--music`).
    public var music = MusicSelection()
    /// Whether the pitch tracker runs on ports no `--music` rule names; off, no `/pitch` or `/note` is sent.
    public var pitchEnabled: Bool {
        get { music.everyPort.pitch }
        set { music.everyPort.pitch = newValue }
    }
    /// Whether the rhythm tracker runs on ports no `--music` rule names; off, no onsets, beats, tempo or phase.
    public var rhythmEnabled: Bool {
        get { music.everyPort.rhythm }
        set { music.everyPort.rhythm = newValue }
    }
    /// Threads the analysis spreads its ports over (`--threads`); the figures do not depend on it.
    public var threads = 1

    /// The defaults of the OSC contract (docs/osc-reference.md).
    public init() {}
}
