import Analysis
import DSP
import Dispatch
import Foundation
import JackHost
import Output
import Synchronization
import Testing
@testable import Live

/// An opening of the JACK client without a server: a tap filled from the test's own thread, period by period, as
/// the process callback would, with the rate, the period and the server's presence set by the test.
final class FakeLiveAudio: LiveAudio, @unchecked Sendable {
    let tap: Tap
    let inputNames = ["in_1"]
    let periodFrames = 256
    private let rate: Atomic<Int>
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private var phase = 0.0
    private let samples: UnsafeMutablePointer<Float>

    init(sampleRate: Int) {
        rate = Atomic(sampleRate)
        tap = Tap.allocate(channels: 1, ringFrames: 4 * 48_000)
        samples = .allocate(capacity: 256)
    }

    deinit {
        samples.deallocate()
        tap.deallocate()
    }

    var sampleRate: Int { rate.load(ordering: .acquiring) }
    var serverStopped: Bool { stopped.load(ordering: .acquiring) }
    func waitForFrames(timeout: Double) -> Bool { wake.wait(timeout: .now() + timeout) == .success }
    func wakeWaiters() { wake.signal() }
    func midiQueue(_ name: String) -> MidiEventQueue? { nil }
    /// The stamp and the clock the test sets (a callback that stamps nothing by default).
    var newestPeriod: (frames: Int, micros: UInt64)?
    var hostMicros: UInt64 = 0

    /// The server changed its rate: the callback stores it and wakes the analysis.
    func changeRate(to value: Int) {
        rate.store(value, ordering: .releasing)
        wake.signal()
    }

    /// The server went away.
    func stopServer() {
        stopped.store(true, ordering: .releasing)
        wake.signal()
    }

    /// `seconds` of a sine of `frequency` Hz peaking at `peak` (linear), in periods, each posted as the callback does.
    func play(seconds: Double, frequency: Double, peak: Float) {
        let periods = Int((seconds * Double(sampleRate) / Double(periodFrames)).rounded())
        for _ in 0..<periods {
            for i in 0..<periodFrames {
                samples[i] = peak * Float(sin(phase))
                phase += 2 * .pi * frequency / Double(sampleRate)
            }
            let copy = tap.beginPeriod(frames: periodFrames)
            tap.process(channel: 0, samples: samples, count: periodFrames, copy: copy)
            tap.endPeriod(frames: periodFrames, copied: copy)
            wake.signal()
        }
    }
}

/// The live analysis loop driven through ``LiveAudio`` by a fake graph: the ticks it publishes, a rate change
/// (new engine, `restarted`, no figure from the old rate after it) and the server going away.
struct AnalysisLoopTests {
    final class Collected: @unchecked Sendable {
        let lines = Mutex<[String]>([])
        let restarts = Mutex<[(String, Int)]>([])
        var ticks: [[String: Any]] {
            lines.withLock { $0 }.compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }.filter { $0["in_1"] != nil }
        }
    }

    func loop(_ audio: FakeLiveAudio, _ collected: Collected, limit: Double? = nil) -> AnalysisLoop {
        let sinks = SnapshotSinks(router: nil, json: true, view: nil) { text in
            collected.lines.withLock { $0 += text.split(separator: "\n").map(String.init) }
        }
        return AnalysisLoop(
            live: audio, sinks: sinks, limitSeconds: limit,
            makeEngine: { rate in
                AnalysisEngine(tap: audio.tap, sampleRate: rate, portNames: audio.inputNames, config: AnalysisConfig(),
                               meters: MeterConfig())
            },
            restarted: { reason, rate in collected.restarts.withLock { $0.append((reason, rate)) } })
    }

    /// A loop started on a fake opening at 48 kHz.
    func started(limit: Double? = nil) -> (audio: FakeLiveAudio, collected: Collected, analysis: AnalysisLoop) {
        let audio = FakeLiveAudio(sampleRate: 48_000)
        let collected = Collected()
        let analysis = loop(audio, collected, limit: limit)
        analysis.start()
        return (audio, collected, analysis)
    }

    /// Waits (on the loop's own output, polling) at most `seconds` for `condition`.
    func waitFor(_ seconds: Double = 30, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    @Test func ticksCarryTheFiguresOfWhatThePeriodsHeld() throws {
        let (audio, collected, analysis) = started()
        defer { analysis.stop() }
        audio.play(seconds: 1, frequency: 440, peak: 0.5)
        #expect(waitFor { collected.ticks.count >= 29 }, "a second of audio, 30 ticks")
        let port = try #require(collected.ticks.last?["in_1"] as? [String: Any])
        // 0.5 peak: -6.02 dBFS, its RMS 3.01 dB lower.
        #expect(abs((port["peak"] as? Double ?? 0) + 6.021) < 0.01)
        #expect(abs((port["rms"] as? Double ?? 0) + 9.031) < 0.01)
        #expect(collected.restarts.withLock { $0.isEmpty })
    }

    @Test func aRateChangeStartsANewEngineAndSaysSo() throws {
        let (audio, collected, analysis) = started()
        defer { analysis.stop() }
        audio.play(seconds: 1, frequency: 440, peak: 0.5)
        #expect(waitFor { collected.ticks.count >= 29 })
        let before = collected.ticks.count
        audio.changeRate(to: 44_100)
        #expect(waitFor { collected.restarts.withLock { $0.count } == 1 })
        #expect(collected.restarts.withLock { $0.first?.0 } == "samplerate")
        #expect(collected.restarts.withLock { $0.first?.1 } == 44_100)
        // The new engine's timeline starts at 0: its ticks' times are those of the audio after the change.
        audio.play(seconds: 1, frequency: 1000, peak: 0.25)
        #expect(waitFor { collected.ticks.count >= before + 29 })
        let after = Array(collected.ticks.dropFirst(before + 1))
        let times = after.compactMap { $0["t"] as? Double }
        #expect((times.first ?? 99) < 0.1, "\(times.prefix(3))")
        let port = try #require(after.last?["in_1"] as? [String: Any])
        #expect(abs((port["peak"] as? Double ?? 0) + 12.041) < 0.01, "the tone played after the change, at its rate")
    }

    @Test func theServerGoingAwayEndsTheAnalysis() throws {
        let (audio, collected, analysis) = started()
        defer { analysis.stop() }
        audio.play(seconds: 0.5, frequency: 440, peak: 0.5)
        #expect(waitFor { collected.ticks.count >= 14 })
        #expect(!analysis.hasEnded)
        audio.stopServer()
        // The thread ends by itself (the main loop then sees the server gone and waits for it), after the
        // opening's last snapshot; periods that come later are not analysed.
        #expect(waitFor { analysis.hasEnded })
        let last = collected.ticks.count
        audio.play(seconds: 1, frequency: 440, peak: 0.5)
        analysis.stop()
        #expect(collected.ticks.count == last)
        #expect(!analysis.reachedLimit)
    }

    @Test func aLateWakeUpTimesTheStreamByThePeriodsCycleNotByTheWakeUp() throws {
        let audio = FakeLiveAudio(sampleRate: 48_000)
        let analysis = loop(audio, Collected())
        audio.play(seconds: 1, frequency: 440, peak: 0.5)
        let written = audio.tap.ring.writtenFrames
        let end = Double(written) / 48_000
        // Without a stamp, the newest frame is taken to have arrived at the wake-up.
        var clock = analysis.streamClockNow()
        #expect(abs(clock.stream - end) < 1e-9)
        // The cycle that brought the last period began 150 ms before the thread woke (on the server's clock):
        // the audio ended 150 ms before the wall-clock instant read at the wake-up.
        audio.newestPeriod = (frames: written, micros: 5_000_000_000)
        audio.hostMicros = 5_000_150_000
        let before = Date().timeIntervalSince1970
        clock = analysis.streamClockNow()
        let after = Date().timeIntervalSince1970
        let ended = clock.wall + end - clock.stream
        #expect(ended >= before - 0.150 - 1e-6 && ended <= after - 0.150 + 1e-6, "\(ended - before)")
        // The stamp's ring count, not the frames that wait in the ring, says where the stamped period ends.
        audio.newestPeriod = (frames: 24_000, micros: 5_000_150_000)
        #expect(abs(analysis.streamClockNow().stream - 0.5) < 1e-9)
        // A cycle time in the future, or older than the ring holds, is on another clock: the wake-up times it.
        audio.newestPeriod = (frames: written, micros: 5_000_200_000)
        #expect(abs(analysis.streamClockNow().stream - end) < 1e-9)
        audio.hostMicros = 5_000_000_000 + 60_000_000
        audio.newestPeriod = (frames: written, micros: 5_000_000_000)
        #expect(abs(analysis.streamClockNow().stream - end) < 1e-9)
    }

    @Test func theDurationLimitIsReachedAfterItsAudio() {
        let (audio, collected, analysis) = started(limit: 0.5)
        defer { analysis.stop() }
        audio.play(seconds: 1, frequency: 440, peak: 0.5)
        #expect(waitFor { analysis.reachedLimit })
        #expect(abs(analysis.analysedSeconds - 0.5) < 0.01)
        #expect(collected.ticks.count == 15, "0.5 s at 30 ticks a second")
    }
}
