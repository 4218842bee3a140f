import Analysis
import DSP

/// The MIDI notes of one opening of the client (`--midi-notes`): after each analysis poll, what the note
/// source's pitch tracker and onsets call for (`NoteFollower`), queued for the process callback a period
/// ahead of the analysis, where the callback is when the analysis keeps up.
///
/// Used only by the analysis thread.
public final class MidiNotesOutput: TempoConsumer {
    public static let portName = "notes"

    let queue: MidiEventQueue
    let sourceIndex: Int
    let sourceName: String
    private var follower: NoteFollower
    private var events: [NoteFollower.Event] = []
    /// The ring frame of the engine's stream frame 0.
    private var origin: Int

    public init(queue: MidiEventQueue, sourceIndex: Int, sourceName: String, origin: Int, sampleRate: Double) {
        self.queue = queue
        self.sourceIndex = sourceIndex
        self.sourceName = sourceName
        self.origin = origin
        follower = NoteFollower(sampleRate: sampleRate)
        events.reserveCapacity(16)
    }

    /// Queues what the newest poll (`outputs`) calls for.
    public func update(_ poll: SyncPoll) {
        let engine = poll.engine, outputs = poll.outputs, periodFrames = poll.periodFrames
        let onset = NoteFollower.onsetFrame(in: outputs, port: sourceName, sampleRate: engine.sampleRate)
        let held = engine.heldNote(port: sourceIndex)
        follower.update(note: held.midi, levelDB: held.levelDB, onset: onset,
                        frame: engine.analysedFrames + periodFrames, into: &events)
        flush()
    }

    /// `old` gives way to a new engine at `sampleRate` whose stream frame 0 is ring frame `origin`: the
    /// sounding note ends (at the frame of its note on at the earliest).
    public func restart(after old: AnalysisEngine, origin newOrigin: Int, sampleRate: Double) {
        follower.release(frame: old.analysedFrames, into: &events)
        flush()
        origin = newOrigin
        follower = NoteFollower(sampleRate: sampleRate)
    }

    /// The run ends: the sounding note ends, and the callback gets up to `wait` seconds to send it.
    public func finish(engine: AnalysisEngine, wait: Double) {
        follower.release(frame: engine.analysedFrames, into: &events)
        flush()
        queue.waitUntilTaken(seconds: wait)
    }

    private func flush() {
        for event in events { queue.push(frame: origin + event.frame, event.bytes) }
        events.removeAll(keepingCapacity: true)
    }
}
