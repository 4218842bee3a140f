/// MIDI beat clock laid on a beat tracker's predictions: 24 clocks (0xF8) per beat, the first of each beat on
/// the beat's predicted instant, Start (0xFA) when the tracker locks and Stop (0xFC), once, when it loses the
/// beat. Receivers (QLC+'s MIDI input, drum machines, effect units) count clocks: 24 make a beat, and the
/// first clock after Start is the first beat.
///
/// The clock runs ahead of the analysis by `horizon` frames, so each message is queued before the process
/// callback reaches its frame. Each clock is placed by sharing what is left of the beat among the clocks left
/// in it: the interval is (next beat − last clock) / clocks left, so the beat's 24th interval ends on the
/// predicted beat whatever the tracker said while the beat went by, and a correction spreads over the beat
/// instead of landing on one clock. An interval never strays more than `maximumStretch` from the tempo's
/// (period / 24): a phase jump of the tracker is followed over a few beats, without a burst or a gap.
public struct MidiClockScheduler: Sendable {
    public static let clocksPerBeat = 24
    /// An interval stays within ±25 % of period / 24: a beat's worth of clocks can take up a quarter beat of
    /// phase error, more than the tracker's corrections once locked (BeatScheduler moves a quarter of a few
    /// milliseconds per update), less than a receiver would read as a new tempo.
    public static let maximumStretch = 0.25

    public enum Message: UInt8, Sendable {
        case clock = 0xF8
        case start = 0xFA
        case stop = 0xFC
    }

    /// One message at a stream frame.
    public struct Event: Sendable, Equatable {
        public var frame: Int
        public var message: Message

        public init(frame: Int, message: Message) {
            self.frame = frame
            self.message = message
        }
    }

    /// Whether Start has gone out and Stop not since.
    public private(set) var running = false
    /// Frame of the last clock scheduled (fractional: intervals do not round).
    private var lastClock = 0.0
    /// The last clock's place in its beat: 0 is the beat's first.
    private var clockInBeat = 0
    /// The frame of the last Stop: a new Start goes after it (Stop is queued after the clocks already ahead,
    /// and a lock regained within that lead must not start before it).
    private var lastStop = Int.min

    public init() {}

    /// Schedules what falls before `horizon` (stream frame): nothing while `grid` is nil and the clock has
    /// not started; Start and the first clock on the first predicted beat at or after `now`; Stop once `grid`
    /// is nil again, after the last clock already scheduled.
    public mutating func update(grid: BeatGrid?, now: Double, horizon: Double, into events: inout [Event]) {
        guard let grid, grid.period > 0 else {
            if running {
                running = false
                lastStop = Int(max(now, lastClock + 1).rounded(.up))
                events.append(Event(frame: lastStop, message: .stop))
            }
            return
        }
        if !running {
            let beat = grid.beat(atOrAfter: max(now, Double(lastStop) + 1))
            guard beat < horizon else { return }
            running = true
            lastClock = beat
            clockInBeat = 0
            let frame = Int(beat.rounded())
            events.append(Event(frame: frame, message: .start))
            events.append(Event(frame: frame, message: .clock))
        }
        let nominal = grid.period / Double(Self.clocksPerBeat)
        while true {
            let left = Double(Self.clocksPerBeat - clockInBeat)
            // The beat this run of clocks ends on: the grid's beat nearest to where it would end at the tempo.
            let target = grid.beat(nearest: lastClock + left * nominal)
            let interval = min(max((target - lastClock) / left, nominal * (1 - Self.maximumStretch)),
                               nominal * (1 + Self.maximumStretch))
            let next = lastClock + interval
            guard next < horizon else { break }
            lastClock = next
            clockInBeat = (clockInBeat + 1) % Self.clocksPerBeat
            events.append(Event(frame: Int(next.rounded()), message: .clock))
        }
    }
}
