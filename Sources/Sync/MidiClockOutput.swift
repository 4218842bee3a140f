import Analysis
import DSP

/// The MIDI beat clock of one opening of the client: after each analysis poll, the clock the source port's
/// beat tracker calls for up to `lead` ahead of the analysis, queued for the process callback in the tap
/// ring's timeline (`MidiClockScheduler` decides what and when; the callback writes each message at its frame).
///
/// Used only by the analysis thread.
public final class MidiClockOutput: TempoConsumer {
    public static let portName = "clock"
    /// How far ahead of the analysis the clock is queued: 100 ms, or four periods when they are longer. The
    /// analysis runs a period or so behind the callback when it is on time, and tens of milliseconds behind
    /// on a loaded machine; what it queues must reach the callback before the frame it belongs at. Committing
    /// five clocks (at 120 BPM) ahead costs nothing: the tracker's corrections go to the clocks after them.
    public static let leadSeconds = 0.1

    let queue: MidiEventQueue
    let sourceIndex: Int
    private var scheduler = MidiClockScheduler()
    private var events: [MidiClockScheduler.Event] = []
    /// The ring frame of the engine's stream frame 0.
    private var origin: Int

    public init(queue: MidiEventQueue, sourceIndex: Int, origin: Int) {
        self.queue = queue
        self.sourceIndex = sourceIndex
        self.origin = origin
        events.reserveCapacity(256)
    }

    /// Queues what the tracker's beats call for now.
    public func update(_ poll: SyncPoll) {
        let engine = poll.engine, periodFrames = poll.periodFrames
        let now = Double(engine.analysedFrames)
        let lead = max(Self.leadSeconds * engine.sampleRate, 4 * Double(periodFrames))
        scheduler.update(grid: engine.beatGrid(port: sourceIndex), now: now, horizon: now + lead, into: &events)
        flush()
    }

    /// `old` gives way to a new engine (a new sample rate) whose stream frame 0 is ring frame `origin`: the
    /// old tempo is gone, so a running clock stops.
    public func restart(after old: AnalysisEngine, origin newOrigin: Int, sampleRate: Double) {
        stop(engine: old)
        origin = newOrigin
        scheduler = MidiClockScheduler()
    }

    /// Stops a running clock (the run ends), and gives the callback up to `wait` seconds to send what is queued.
    public func finish(engine: AnalysisEngine, wait: Double) {
        stop(engine: engine)
        queue.waitUntilTaken(seconds: wait)
    }

    private func stop(engine: AnalysisEngine) {
        let now = Double(engine.analysedFrames)
        scheduler.update(grid: nil, now: now, horizon: now, into: &events)
        flush()
    }

    private func flush() {
        for event in events { queue.push(frame: origin + event.frame, [event.message.rawValue]) }
        events.removeAll(keepingCapacity: true)
    }
}
