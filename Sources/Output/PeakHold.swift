import DSP

/// The peak-hold mark of one meter: the highest peak stays put for `holdTime`, then falls at `fallRate`.
///
/// The figures are those of the peak-hold setting of common DAW and hardware meters (Ardour's and Reaper's
/// meters hold for about 1.5 s, and a 20 dB/s fall reads as a smooth glide at 30 redraws a second). Time is the
/// snapshot's audio time, not the wall clock, so a file analysed faster than real time holds for 1.5 s of
/// audio and tests need no clock.
struct PeakHold: Equatable, Sendable {
    /// Seconds a new maximum stays put before it starts to fall.
    static let holdTime = 1.5
    /// dB per second the mark falls once the hold time is over.
    static let fallRate: Float = 20

    /// The peak being held, dBFS; the floor when nothing has been seen since the last reset.
    private(set) var heldDB: Float = Decibels.floor
    /// When `heldDB` was seen, seconds of audio time.
    private var heldAt = -Double.infinity

    /// A mark that holds nothing.
    init() {}

    /// Feeds this tick's peak and returns the mark to draw at `time`.
    mutating func update(peakDB: Float, time: Double) -> Float {
        // Time going backwards means a new stream or file: what was held belongs to the old one.
        if time < heldAt { reset() }
        let current = value(at: time)
        if peakDB >= current {
            heldDB = peakDB
            heldAt = time
            return peakDB
        }
        return current
    }

    /// The mark at `time`, without feeding a peak.
    func value(at time: Double) -> Float {
        let falling = time - heldAt - Self.holdTime
        guard falling > 0 else { return heldDB }
        return max(heldDB - Float(falling) * Self.fallRate, Decibels.floor)
    }

    /// Forgets the held peak (the `r` key).
    mutating func reset() {
        self = PeakHold()
    }
}
