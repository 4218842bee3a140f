import DSP
import Foundation
import JackHost
import TestSupport
import ToolSupport
import XCTest

/// Every wait here is on frames arriving or the server answering, never on the wall clock: on a loaded machine
/// the dummy server's audio runs slower than the clock. The limits only bound a wait whose event never comes.
final class LiveTapTests: XCTestCase {
    static let eventTimeout = 60.0
    var server: PrivateJackServer!

    override func setUpWithError() throws {
        server = try PrivateJackServer(rate: 48_000, period: 64)
        server.select()
    }

    override func tearDown() {
        server.stop()
        unsetenv("JACK_DEFAULT_SERVER")
    }

    func testProcessCallbackAllocatesNothingOverThousandPeriodsOfSixtyFourPorts() throws {
        let client = try JackClient(name: "tap-alloc")
        let live = try LiveTap(client: client, inputs: (1...64).map { "in_\($0)" })
        let generator = try LiveGenerator(client: try JackClient(name: "tap-alloc-gen"),
                                          kind: .tone(frequency: 440, levelDBFS: -6), outputs: 1)
        try generator.activate()
        try live.activate()
        for i in 0..<64 { try live.connect(generator.outputNames[0], toInput: i) }
        // Let the first periods (thread start-up, first touches) pass, then count on JACK's process thread.
        try drain(live, frames: 14_400)
        _ = live.tap.takeFrames()
        jacktap_allocations_watch(live.processThread)
        var frames = 0
        let deadline = Date().addingTimeInterval(Self.eventTimeout)
        while frames < 1_000 * 64, Date() < deadline {
            _ = drainFrames(live)
            frames += live.tap.takeFrames()
        }
        let allocations = jacktap_allocations_unwatch()
        XCTAssertGreaterThanOrEqual(frames / 64, 1_000, "periods run")
        XCTAssertEqual(allocations, 0)
        XCTAssertEqual(live.tap.takePeak(channel: 63), 0.5012, accuracy: 0.001, "the ports carried the tone")
        generator.stop()
        live.stop()
    }

    func testProcessCallbackAllocatesNothingWritingAMidiClockMessageEveryPeriod() throws {
        let client = try JackClient(name: "tap-midi-alloc")
        let live = try LiveTap(client: client, inputs: ["in_1", "in_2"], midiOutputs: ["clock"])
        let queue = try XCTUnwrap(live.midiQueue("clock"))
        try live.activate()
        try drain(live, frames: 14_400)
        // One clock per 64-frame period, each queued for a frame four periods ahead of what the ring holds.
        var scheduled = live.tap.ring.writtenFrames + 256
        jacktap_allocations_watch(live.processThread)
        var pushed = 0
        let deadline = Date().addingTimeInterval(Self.eventTimeout)
        while pushed < 1_000, Date() < deadline {
            _ = drainFrames(live)
            while scheduled < live.tap.ring.writtenFrames + 256 {
                if queue.push(frame: scheduled, [0xF8]) { pushed += 1 }
                scheduled += 64
            }
        }
        // The callback takes what is due; wait until it has taken everything (frames arriving, not the clock).
        while queue.pending > 0, Date() < deadline { _ = drainFrames(live) }
        let allocations = jacktap_allocations_unwatch()
        XCTAssertGreaterThanOrEqual(pushed, 1_000, "messages queued")
        XCTAssertEqual(queue.pending, 0, "the callback wrote every message")
        XCTAssertEqual(allocations, 0)
        live.stop()
    }

    func testTheWatchedThreadCounterSeesAnotherThreadsAllocation() {
        // Guards the test above against a counter that cannot count on another thread.
        final class Box: @unchecked Sendable { var thread = pthread_self() }
        let box = Box()
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.thread = pthread_self()
            started.signal()
            go.wait()
            let array = [Int](repeating: Int.random(in: 0...9), count: 100)
            precondition(array.count == 100)
            done.signal()
        }
        thread.start()
        started.wait()
        jacktap_allocations_watch(box.thread)
        go.signal()
        done.wait()
        XCTAssertGreaterThan(jacktap_allocations_unwatch(), 0)
    }

    func testServerThatIsNotRunningIsReportedClearly() {
        setenv("JACK_DEFAULT_SERVER", "jacktap-no-such-server-\(getpid())", 1)
        XCTAssertThrowsError(try JackClient(name: "nobody")) { error in
            guard case JackError.serverNotRunning = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("jacktap demo"))
        }
    }

    func testTheTapReadsTheGeneratorsLevelAndTheRingCarriesItsFrames() throws {
        let live = try LiveTap(client: try JackClient(name: "tap-level"), inputs: ["in_1"])
        let generator = try LiveGenerator(client: try JackClient(name: "tap-level-gen"),
                                          kind: .tone(frequency: 1000, levelDBFS: -6.0206), outputs: 1)
        try generator.activate()
        try live.activate()
        try live.connect(generator.outputNames[0], toInput: 0)
        // Half a second of audio for the connection to carry the tone, then a second of it measured.
        try drain(live, frames: 24_000)
        _ = live.tap.takePeak(channel: 0)
        _ = live.tap.takeFrames()
        _ = live.tap.takeSumOfSquares(channel: 0)
        try drain(live, frames: 48_000)
        XCTAssertEqual(Decibels.amplitude(Double(live.tap.takePeak(channel: 0))), -6.02, accuracy: 0.01)
        let meanSquare = live.tap.takeSumOfSquares(channel: 0) / Double(live.tap.takeFrames())
        XCTAssertEqual(Decibels.power(meanSquare), -9.03, accuracy: 0.05)
        XCTAssertEqual(live.tap.overruns, 0)
    }

    func testEachPeriodIsStampedWithItsRingCountAndItsCycleOnTheServersClock() throws {
        let live = try LiveTap(client: try JackClient(name: "tap-stamp"), inputs: ["in_1"])
        XCTAssertNil(live.newestPeriod, "nothing stamped before the first period")
        try live.activate()
        try drain(live, frames: 4_800)
        let first = try XCTUnwrap(live.newestPeriod)
        try drain(live, frames: 48_000)
        let second = try XCTUnwrap(live.newestPeriod)
        let now = live.hostMicros
        XCTAssertEqual(first.frames % 64, 0, "a stamp is taken at the end of a period of 64 frames")
        XCTAssertLessThanOrEqual(second.frames, live.tap.ring.writtenFrames)
        XCTAssertGreaterThanOrEqual(second.frames - first.frames, 48_000)
        XCTAssertLessThanOrEqual(second.micros, now, "a cycle that began before the clock was read")
        // The dummy server runs its periods on the clock: a second of frames spans about a second of its clock
        // (more on a loaded machine, which slows the server; half of it allows for a burst of late cycles).
        let seconds = Double(second.micros - first.micros) / 1e6
        XCTAssertGreaterThan(seconds, 0.5 * Double(second.frames - first.frames) / 48_000)
    }

    func testAServerThatStopsIsNoticed() throws {
        let live = try LiveTap(client: try JackClient(name: "tap-shutdown"), inputs: ["in_1"])
        try live.activate()
        XCTAssertFalse(live.serverStopped)
        server.stop()
        let deadline = Date().addingTimeInterval(Self.eventTimeout)
        while !live.serverStopped, Date() < deadline { _ = live.waitForFrames(timeout: 0.1) }
        XCTAssertTrue(live.serverStopped)
        live.stop()
    }

    func testPortMatchingFindsGlobsAndNearestNames() {
        let ports = ["system:capture_1", "system:capture_2", "mixer:out_L", "mixer:out_R"]
        XCTAssertEqual(PortMatching.matching("system:capture_*", in: ports), ["system:capture_1", "system:capture_2"])
        XCTAssertEqual(PortMatching.matching("mixer:out_?", in: ports), ["mixer:out_L", "mixer:out_R"])
        XCTAssertEqual(PortMatching.nearest(to: "system:captur_1", in: ports).first, "system:capture_1")
    }

    /// Consumes `frames` frames of audio from the ring as they arrive, as the analysis thread would.
    func drain(_ live: LiveTap, frames: Int) throws {
        var consumed = 0
        let deadline = Date().addingTimeInterval(Self.eventTimeout)
        while consumed < frames {
            guard Date() < deadline else {
                throw Tool.Failed(description: "\(consumed) of \(frames) frames arrived in \(Self.eventTimeout) s")
            }
            consumed += drainFrames(live)
        }
    }

    func drainFrames(_ live: LiveTap) -> Int {
        _ = live.waitForFrames(timeout: 0.1)
        let n = live.tap.ring.readableFrames()
        live.tap.ring.consume(n)
        return n
    }
}
