/// Something that happened at one instant, published the moment it is known rather than at the next tick.
public struct AnalysisEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A note or hit started; strength: the onset function's excess over its threshold when reported, 0…1.
        case onset(strength: Float)
        /// A beat: its number since the tracker locked (1, 2, 3, …), the tempo (BPM) and its place in the bar.
        case beat(count: Int, bpm: Float, bar: BarPosition = BarPosition())
        /// A programme's alarm started (`on`) or ended; the event's `port` is then the programme's name.
        case alarm(AlarmKind, on: Bool)
    }

    /// Where a beat falls in its bar.
    public struct BarPosition: Sendable, Equatable {
        /// Bars begun since the tracker locked: 1, 2, … (advances on every beat 1).
        public var bar: Int
        /// 1…`beatsPerBar`; 1 is the downbeat.
        public var beat: Int
        /// The inferred meter: 3 or 4.
        public var beatsPerBar: Int

        /// A position; the default is the first beat of the first 4/4 bar.
        public init(bar: Int = 1, beat: Int = 1, beatsPerBar: Int = 4) {
            self.bar = bar
            self.beat = beat
            self.beatsPerBar = beatsPerBar
        }
    }

    /// The port's short name, as in the OSC path (for an alarm, the programme's name).
    public var port: String
    public var kind: Kind
    /// Seconds of audio at the instant the event describes (an onset's start; a beat's predicted instant).
    public var time: Double
    /// Seconds of audio analysed when jacktap knew it: after `time` for an onset (detection delay), before it
    /// for a beat (announced ahead of time).
    public var reported: Double

    /// An event with every value given.
    public init(port: String, kind: Kind, time: Double, reported: Double) {
        self.port = port
        self.kind = kind
        self.time = time
        self.reported = reported
    }
}
