import DSP

/// What one port measured at one tick: the values of the v1 OSC contract.
public struct PortReading: Sendable, Equatable {
    /// The port's short name, as in the OSC path (`in_1`).
    public var name: String
    /// Sample peak since the previous tick, dBFS (floored at -200).
    public var peakDB: Float
    /// RMS over the last 300 ms, dBFS (floored at -200).
    public var rmsDB: Float
    /// RMS mapped from the level floor to 0 dBFS onto 0…1.
    public var level: Float
    /// Band levels, 0…1.
    public var bands: [Float]
    /// Dominant frequency and its confidence; nil when there is nothing to measure (silence).
    public var pitch: DominantFrequency?
    /// The nearest note, when the tone is confident and loud enough to name (otherwise nil: no note).
    public var note: MusicalNote?

    /// A reading with every value given.
    public init(name: String, peakDB: Float, rmsDB: Float, level: Float, bands: [Float], pitch: DominantFrequency?,
                note: MusicalNote?) {
        self.name = name
        self.peakDB = peakDB
        self.rmsDB = rmsDB
        self.level = level
        self.bands = bands
        self.pitch = pitch
        self.note = note
    }
}

/// Every port's reading at one tick.
public struct Snapshot: Sendable, Equatable {
    /// Seconds of audio since the start of the stream or file, at the end of the analysed frames.
    public var time: Double
    /// One reading per port, in port order.
    public var ports: [PortReading]
    /// Periods the ring dropped since the start (the meters still saw them).
    public var overruns: Int

    /// A snapshot at `time` of `ports`.
    public init(time: Double, ports: [PortReading], overruns: Int) {
        self.time = time
        self.ports = ports
        self.overruns = overruns
    }
}

/// Figures over a whole run (the final line of `jacktap analyze`).
public struct RunSummary: Sendable, Equatable {
    /// Per port: the highest sample peak of the run, dBFS.
    public var peakDB: [Float]
    /// Per port: RMS over the whole run, dBFS.
    public var rmsDB: [Float]
    /// Port names, as in the snapshots.
    public var names: [String]
    /// Frames analysed.
    public var frames: Int
    /// Sample rate of the source, Hz.
    public var sampleRate: Double
    /// Periods the ring dropped.
    public var overruns: Int

    /// A summary with every figure given.
    public init(peakDB: [Float], rmsDB: [Float], names: [String], frames: Int, sampleRate: Double, overruns: Int) {
        self.peakDB = peakDB
        self.rmsDB = rmsDB
        self.names = names
        self.frames = frames
        self.sampleRate = sampleRate
        self.overruns = overruns
    }
}
