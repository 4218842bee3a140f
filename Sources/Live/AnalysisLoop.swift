import Analysis
import Dispatch
import Foundation
import JackHost
import OSCOut
import Output
import Spawn
import Sync
import Synchronization

/// The analysis thread of one opening of the JACK client: waits on the callback's semaphore, drains the tap,
/// publishes. A normal-priority thread; nothing here runs on JACK's real-time thread.
///
/// When the server changes its sample rate under jacktap (PipeWire's clock.force-rate), the sample-rate
/// callback only stores the rate and wakes this thread, which drops the frames still in the ring (it cannot
/// tell which rate they were taken at) and builds a new engine at the new rate before it publishes anything
/// more, so no figure computed at a stale rate reaches a receiver. Everything that integrates (loudness,
/// maxima, tempo) starts again then, and `restarted` says so.
///
/// `@unchecked Sendable`: the engine and sinks are touched only by the thread `start` creates; other threads
/// only call `stop`, `requestReset` and read the atomics.
final class AnalysisLoop: @unchecked Sendable {
    let live: any LiveAudio
    let sinks: SnapshotSinks
    /// Builds the engine for a sample rate (Hz) and a frame limit (`--duration`).
    let makeEngine: (Double) -> AnalysisEngine
    /// Called on this thread when a new engine starts: the reason ("samplerate") and the new rate.
    let restarted: (String, Int) -> Void
    private(set) var engine: AnalysisEngine
    /// Seconds of audio this loop may still analyse (`--duration` less what earlier openings analysed).
    let limitSeconds: Double?
    private var analysedBefore = 0.0
    private let analysedBits = Atomic<UInt64>(0)
    private let limitReached = Atomic<Bool>(false)
    private let ended = Atomic<Bool>(false)
    private let resetRequested = Atomic<Bool>(false)
    /// Loudness commands for the engine, carried out on this loop's thread (the engine changes with the rate).
    private let loudnessRequests = Mutex<[(LoudnessCommand, String?)]>([])
    /// The programmes paused now (this thread only): a new engine at a new rate pauses them again.
    private var pausedProgrammes = Set<String>()
    private let worker = WorkerThread(name: "jacktap-analysis")
    /// The tempo-sync outputs (MIDI beat clock, MIDI notes, OS2L, Ableton Link), driven from this thread
    /// after each poll.
    private let consumers: [TempoConsumer]
    private let beatSourceIndex: Int?

    init(live: any LiveAudio, sinks: SnapshotSinks, limitSeconds: Double?, beatSource: Int? = nil, noteSource: Int? = nil,
         os2l: OS2LSender? = nil, link: LinkPeer? = nil,
         makeEngine: @escaping (Double) -> AnalysisEngine, restarted: @escaping (String, Int) -> Void) {
        beatSourceIndex = beatSource.flatMap { live.inputNames.indices.contains($0) ? $0 : nil }
        let beatSourceName = beatSourceIndex.map { live.inputNames[$0] }
        self.live = live
        self.sinks = sinks
        self.makeEngine = makeEngine
        self.restarted = restarted
        self.limitSeconds = limitSeconds
        engine = makeEngine(Double(live.sampleRate))
        var consumers = [TempoConsumer]()
        if let queue = live.midiQueue(MidiClockOutput.portName) {
            consumers.append(MidiClockOutput(queue: queue, sourceIndex: beatSource ?? 0,
                                             origin: live.tap.ring.consumedFrames))
        }
        let noteIndex = min(noteSource ?? 0, max(live.inputNames.count - 1, 0))
        if let queue = live.midiQueue(MidiNotesOutput.portName) {
            consumers.append(MidiNotesOutput(queue: queue, sourceIndex: noteIndex, sourceName: live.inputNames[noteIndex],
                                             origin: live.tap.ring.consumedFrames, sampleRate: engine.sampleRate))
        }
        if let os2l { consumers.append(OS2LBeats(sender: os2l, sourceName: beatSourceName)) }
        if let link {
            link.beatSource = beatSourceName
            consumers.append(link)
        }
        self.consumers = consumers
        applyLimit()
    }

    /// Seconds of audio analysed, across rate changes.
    var analysedSeconds: Double { Double(bitPattern: analysedBits.load(ordering: .acquiring)) }

    /// True once the thread has published its last snapshot: after a stop, or by itself when the server went away.
    var hasEnded: Bool { ended.load(ordering: .acquiring) }

    /// True once `--duration`'s audio has been analysed.
    var reachedLimit: Bool { limitReached.load(ordering: .acquiring) }

    /// Asks for the loudness, maxima, holds and clip counts to start again (any thread).
    func requestReset() { resetRequested.store(true, ordering: .releasing) }

    /// Asks a programme (every one for nil) to pause, resume or reset its loudness (any thread).
    func requestLoudness(_ command: LoudnessCommand, programme: String?) {
        loudnessRequests.withLock { $0.append((command, programme)) }
    }

    func start() {
        worker.start { [self] in run() }
    }

    private func applyLimit() {
        guard let limitSeconds else { return }
        engine.frameLimit = Int(((limitSeconds - analysedBefore) * engine.sampleRate).rounded())
    }

    private func run() {
        while !worker.isStopping, !live.serverStopped {
            guard live.waitForFrames(timeout: 0.25) else { continue }
            let rate = live.sampleRate
            if rate > 0, Double(rate) != engine.sampleRate {
                changeRate(to: rate)
                continue
            }
            if resetRequested.exchange(false, ordering: .acquiring) { engine.requestReset() }
            let commands = loudnessRequests.withLock { requests in
                defer { requests.removeAll() }
                return requests
            }
            for (command, programme) in commands {
                engine.request(command, programme: programme)
                let chosen = programme.map { [$0] } ?? engine.programmeNames
                if command == .pause { pausedProgrammes.formUnion(chosen) }
                if command == .resume { pausedProgrammes.subtract(chosen) }
            }
            let clock = streamClockNow()
            for consumer in consumers { consumer.willPoll() }
            let outputs = engine.pollOutputs()
            sinks.publish(outputs, clock: clock)
            // The tracker's confirmed pulse (its beat grid): speech can hold a lock, never a pulse that repeats
            // in bars.
            let pulse = beatSourceIndex.map { engine.beatGrid(port: $0) != nil } ?? false
            let poll = SyncPoll(engine: engine, outputs: outputs, periodFrames: live.periodFrames, pulse: pulse,
                                streamNow: clock.stream)
            for consumer in consumers { consumer.update(poll) }
            analysedBits.store((analysedBefore + engine.analysedTime).bitPattern, ordering: .releasing)
            if engine.reachedLimit { limitReached.store(true, ordering: .releasing) }
        }
        // A last snapshot with whatever arrived since the last tick: the final figures of this opening.
        sinks.publish(engine.finishOutputs(), clock: streamClockNow())
        // The clock's Stop (after the clocks already queued, up to its lead ahead) and the last note off, while
        // the callback still runs to send them.
        if !live.serverStopped {
            let wait = MidiClockOutput.leadSeconds + 4 * Double(live.periodFrames) / Double(max(live.sampleRate, 1))
            for consumer in consumers { consumer.finish(engine: engine, wait: wait) }
        }
        ended.store(true, ordering: .releasing)
    }

    /// The stream instant that is now on the wall clock (and on Link's, read right after): the newest period's
    /// stream time, plus how long ago on JACK's clock its cycle began. Timed from the callback's stamp, not from
    /// this thread's wake-up, which a loaded machine delays by up to a period or more and by a different amount
    /// each time. Without a stamp yet, or with an age no period in the ring can have (a server whose cycle times
    /// are not on the clock it reads as now), the newest frame is taken to have arrived now.
    func streamClockNow() -> StreamClock {
        let wall = Date().timeIntervalSince1970
        let fallback = StreamClock(stream: engine.arrivedTime, wall: wall)
        guard let newest = live.newestPeriod else { return fallback }
        let age = Double(Int64(bitPattern: live.hostMicros &- newest.micros)) / 1e6
        let ringSeconds = Double(live.tap.ring.capacity) / engine.sampleRate
        guard age > -0.001, age < ringSeconds else { return fallback }
        return StreamClock(stream: engine.streamTime(ringFrames: newest.frames) + age, wall: wall)
    }

    /// A new engine at `rate`; the frames waiting in the ring are dropped unread.
    private func changeRate(to rate: Int) {
        analysedBefore += engine.analysedTime
        let tap = live.tap
        // The frames dropped now, read once: the new engine's frame 0 is the ring frame after them (the
        // callback may commit another period meanwhile; it belongs to the new engine).
        let dropped = tap.ring.readableFrames()
        let newOrigin = tap.ring.consumedFrames + dropped
        // The old tempo and note go with the old engine: a running clock stops, a sounding note ends, at
        // frames of the old timeline.
        for consumer in consumers { consumer.restart(after: engine, origin: newOrigin, sampleRate: Double(rate)) }
        tap.ring.consume(dropped)
        _ = tap.takeFrames()
        for channel in 0..<tap.channels {
            _ = tap.takePeak(channel: channel)
            _ = tap.takeSumOfSquares(channel: channel)
        }
        // The old engine's alarms end with it: nothing stays on that the new one does not raise again.
        sinks.publish(engine.endAlarms(), clock: StreamClock(stream: engine.arrivedTime, wall: Date().timeIntervalSince1970))
        engine = makeEngine(Double(rate))
        for name in pausedProgrammes { engine.request(.pause, programme: name) }
        applyLimit()
        restarted("samplerate", rate)
    }

    /// Asks the thread to finish and waits until it has.
    func stop() {
        worker.stop(wake: live.wakeWaiters)
    }
}
