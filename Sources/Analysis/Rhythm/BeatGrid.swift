/// Where the beats ahead fall, as a beat tracker predicts them: a beat at `nextBeat` (stream frame,
/// fractional) and one every `period` samples either side of it.
public struct BeatGrid: Sendable, Equatable {
    public var nextBeat: Double
    public var period: Double

    public init(nextBeat: Double, period: Double) {
        self.nextBeat = nextBeat
        self.period = period
    }

    /// The beat of the grid nearest to `frame`.
    public func beat(nearest frame: Double) -> Double {
        nextBeat + ((frame - nextBeat) / period).rounded() * period
    }

    /// The first beat of the grid at or after `frame`.
    public func beat(atOrAfter frame: Double) -> Double {
        nextBeat + ((frame - nextBeat) / period).rounded(.up) * period
    }
}
