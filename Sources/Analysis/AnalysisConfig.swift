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
    /// Tuning of A4 in Hz (`--a4`).
    public var a4 = 440.0
    /// Range searched for the dominant frequency, Hz.
    public var pitchLowest = 30.0
    public var pitchHighest = 8_000.0
    /// A note is named only when the dominant frequency's confidence reaches this…
    public var noteMinimumConfidence: Float = 0.5
    /// …and the RMS level is at least this, dBFS.
    public var noteMinimumLevelDB: Float = -70

    /// The defaults of the OSC contract (design.md).
    public init() {}
}
