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
    /// Band groups for consoles, 0…1: bass/low-mid/mid/high (upper edges 100/250/3000/10000 Hz) and seven
    /// log-spaced bands 63 Hz–16 kHz.
    public var bands4: [Float]
    public var bands7: [Float]
    /// The newest pitch estimate; nil when there is nothing to measure (silence). Unvoiced estimates carry
    /// their best candidate with `voiced == false`: JSON shows them, OSC sends no `/pitch` for them.
    public var pitch: PitchReading?
    /// The displayed note (with hysteresis), when the pitch is voiced (otherwise nil: no note).
    public var note: MusicalNote?
    /// Tempo in BPM, once the beat tracker has locked (nil before).
    public var tempo: Float?
    /// Position within the current beat at this tick, 0..<1 (0 on the beat), once locked.
    public var phase: Float?
    /// The broadcast meters (those `--meters` chose).
    public var meters: MeterReading

    /// A reading with every value given.
    public init(name: String, peakDB: Float, rmsDB: Float, level: Float, bands: [Float], pitch: PitchReading?,
                note: MusicalNote?, meters: MeterReading = MeterReading(), tempo: Float? = nil, phase: Float? = nil,
                bands4: [Float] = [], bands7: [Float] = []) {
        self.meters = meters
        self.bands4 = bands4
        self.bands7 = bands7
        self.tempo = tempo
        self.phase = phase
        self.name = name
        self.peakDB = peakDB
        self.rmsDB = rmsDB
        self.level = level
        self.bands = bands
        self.pitch = pitch
        self.note = note
    }
}

/// A pitch estimate as reported: the instant it describes is the centre of its analysis window.
public struct PitchReading: Sendable, Equatable {
    /// Fundamental frequency, Hz (the best candidate when unvoiced).
    public var frequency: Double
    /// Confidence 0…1.
    public var confidence: Float
    /// Whether the voicing gates (confidence and level) passed.
    public var voiced: Bool
    /// Seconds of audio at the centre of the analysis window.
    public var time: Double

    /// A reading with every value given.
    public init(frequency: Double, confidence: Float, voiced: Bool, time: Double) {
        self.frequency = frequency
        self.confidence = confidence
        self.voiced = voiced
        self.time = time
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
    /// Loudness per programme.
    public var programmes: [ProgrammeReading]
    /// Correlation per pair.
    public var pairs: [PairReading]

    /// A snapshot at `time` of `ports`.
    public init(time: Double, ports: [PortReading], overruns: Int, programmes: [ProgrammeReading] = [],
                pairs: [PairReading] = []) {
        self.time = time
        self.ports = ports
        self.overruns = overruns
        self.programmes = programmes
        self.pairs = pairs
    }
}

/// One port's broadcast meters at a tick; nil where `--meters` left a meter out.
public struct MeterReading: Sendable, Equatable {
    /// True peak since the previous tick, dBTP (BS.1770-4 Annex 2).
    public var truePeakDB: Float?
    /// VU (IEC 60268-17), in VU: 0 at the reference level.
    public var vu: Float?
    /// PPM (IEC 60268-10, type I or II), dB relative to the reference level.
    public var ppm: Float?
    /// K-system meter, dB on the K scale (0 at -K dBFS sine peak).
    public var k: Float?
    /// Held sample peak, dBFS (hold time, then fall rate).
    public var holdDB: Float?
    /// Clip events so far.
    public var clips: Int?

    /// No meter.
    public init() {}
}

/// A loudness programme at a tick (BS.1770-4, EBU R128 / Tech 3341 / 3342), LUFS and LU, floored at -200.
public struct ProgrammeReading: Sendable, Equatable {
    public var name: String
    public var momentary: Float
    public var shortTerm: Float
    public var integrated: Float
    public var range: Float
    public var maxMomentary: Float
    public var maxShortTerm: Float
    /// Whether integrated, range and maxima are paused (``LoudnessCommand``).
    public var paused = false
    /// The highest true peak of the programme's ports since the start or the last reset, dBTP, not counting
    /// paused ticks; nil without the true-peak meter.
    public var maxTruePeakDB: Float?
    /// Resets of the programme since its engine started: a new value starts a new measurement (its log writes a
    /// report of the one before).
    public var resets = 0

    /// A reading with every figure given.
    public init(name: String, momentary: Float, shortTerm: Float, integrated: Float, range: Float,
                maxMomentary: Float, maxShortTerm: Float) {
        self.name = name
        self.momentary = momentary
        self.shortTerm = shortTerm
        self.integrated = integrated
        self.range = range
        self.maxMomentary = maxMomentary
        self.maxShortTerm = maxShortTerm
    }
}

/// A pair's stereo correlation at a tick, -1…+1.
public struct PairReading: Sendable, Equatable {
    public var name: String
    public var correlation: Float

    /// A reading of `name`.
    public init(name: String, correlation: Float) {
        self.name = name
        self.correlation = correlation
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
    /// Per port: the highest true peak of the run, dBTP (nil without the true-peak meter).
    public var truePeakDB: [Float?]
    /// Per port: clip events of the run.
    public var clips: [Int?]
    /// The programmes' final loudness.
    public var programmes: [ProgrammeReading]

    /// A summary with every figure given.
    public init(peakDB: [Float], rmsDB: [Float], names: [String], frames: Int, sampleRate: Double, overruns: Int,
                truePeakDB: [Float?] = [], clips: [Int?] = [], programmes: [ProgrammeReading] = []) {
        self.truePeakDB = truePeakDB
        self.clips = clips
        self.programmes = programmes
        self.peakDB = peakDB
        self.rmsDB = rmsDB
        self.names = names
        self.frames = frames
        self.sampleRate = sampleRate
        self.overruns = overruns
    }
}
