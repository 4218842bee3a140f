import OSC

/// Pairs an instant of the audio stream with the wall clock, so that a value measured at stream time `t` can
/// be timetagged with the wall-clock time it describes (a live run; a file has no wall clock).
public struct StreamClock: Sendable, Equatable {
    /// The stream instant, seconds of audio, that was now at `wall` (live: timed from the JACK cycle that brought
    /// the newest period, not from the analysis thread's wake-up).
    public var stream: Double
    /// Unix seconds at the instant `stream` describes.
    public var wall: Double

    /// A clock where stream time `stream` is Unix time `wall`.
    public init(stream: Double, wall: Double) {
        self.stream = stream
        self.wall = wall
    }

    /// The OSC timetag of stream time `time`.
    public func timetag(at time: Double) -> OSCTimetag { OSCTimetag(unixSeconds: wall + time - stream) }
}
