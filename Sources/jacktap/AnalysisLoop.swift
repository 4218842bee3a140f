import Analysis
import Dispatch
import Foundation
import JackHost
import Output
import Synchronization

/// The analysis thread of a live session: waits on the callback's semaphore, drains the tap, publishes.
/// A normal-priority thread; nothing here runs on JACK's real-time thread.
///
/// `@unchecked Sendable`: the engine and sinks are touched only by the thread `start` creates; the main thread
/// only calls `stop`, which goes through the atomic and the semaphores.
final class AnalysisLoop: @unchecked Sendable {
    let live: LiveTap
    let engine: AnalysisEngine
    let sinks: SnapshotSinks
    let stopRequested = Atomic<Bool>(false)
    let finished = DispatchSemaphore(value: 0)

    init(live: LiveTap, engine: AnalysisEngine, sinks: SnapshotSinks) {
        self.live = live
        self.engine = engine
        self.sinks = sinks
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "jacktap-analysis"
        thread.start()
    }

    func run() {
        while !stopRequested.load(ordering: .acquiring), !live.serverStopped, !engine.reachedFrameLimit {
            guard live.waitForFrames(timeout: 0.25) else { continue }
            // The newest frame arrived about now: that pairs a stream instant with a wall-clock instant.
            let clock = StreamClock(stream: engine.arrivedTime, wall: Date().timeIntervalSince1970)
            sinks.publish(engine.pollOutputs(), clock: clock)
        }
        // A last snapshot with whatever arrived since the last tick: the final figures of the run.
        sinks.publish(engine.finishOutputs(), clock: StreamClock(stream: engine.arrivedTime, wall: Date().timeIntervalSince1970))
        audioDone.store(engine.reachedFrameLimit, ordering: .releasing)
        finished.signal()
    }

    /// Set once the engine's frame limit (`--duration`, in audio) has been analysed and published: the loop
    /// has ended and the run can stop.
    let audioDone = Atomic<Bool>(false)
    var reachedDuration: Bool { audioDone.load(ordering: .acquiring) }

    /// Asks the thread to finish and waits until it has.
    func stop() {
        stopRequested.store(true, ordering: .releasing)
        live.wakeWaiters()
        finished.wait()
    }
}
