/// Something that happened at one instant, published the moment it is known rather than at the next tick.
public struct AnalysisEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// A note or hit started; strength: the onset function's excess over its threshold when reported, 0…1.
        case onset(strength: Float)
        /// A beat: its number since the tracker locked (1, 2, 3, …) and the tempo, BPM.
        case beat(count: Int, bpm: Float)
    }

    /// The port's short name, as in the OSC path.
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
