import Analysis
import Foundation
import TestSupport
import ToolSupport
import XCTest

/// The tracker is a streaming, real-time object: results do not depend on how the stream is cut, `reset`
/// starts a new stream, and `process` never allocates.
final class RhythmStreamingTests: XCTestCase {
    let rate = 48_000.0

    /// The onset-function activation (the default), the learned one, and networks averaged (the shipped file, or
    /// when it holds one network, that network twice in a format-2 file).
    func configs() throws -> [RhythmConfig] {
        var learned = RhythmConfig()
        learned.learnedActivation = try BeatNetworkWeights.bundled.get()
        learned.beatModel = .learned
        var averaged = learned
        let shipped = try Data(contentsOf: URL(fileURLWithPath: BeatNetworkWeights.bundledPath))
        if shipped[8] == 1 {
            averaged.learnedActivation = try BeatNetworkWeights(data: BeatNetworkTests.averageFile([shipped, shipped]))
        }
        return [RhythmConfig(), learned, averaged]
    }

    func testEventsAreIdenticalForChunksOf1And64And1000Samples() throws {
        let loop = DrumLoop(bpm: 128, sampleRate: rate, seconds: 6, firstBeat: 0.2).render()
        for config in try configs() {
            let runs = [1, 64, 1000].map { RhythmRun(loop, sampleRate: rate, config: config, chunk: $0) }
            XCTAssertGreaterThan(runs[0].beats.count, 5)
            XCTAssertGreaterThan(runs[0].onsets.count, 20)
            for run in runs.dropFirst() {
                XCTAssertEqual(run.onsets, runs[0].onsets)
                XCTAssertEqual(run.beats, runs[0].beats, "learned: \(config.learnedActivation != nil)")
            }
        }
    }

    func testResetStartsANewStream() {
        let loop = DrumLoop(bpm: 120, sampleRate: rate, seconds: 5, firstBeat: 0.2).render()
        let tracker = RhythmTracker(config: RhythmConfig(), sampleRate: rate)
        let first = RhythmRun(tracker, loop, chunk: 300)
        tracker.reset()
        XCTAssertNil(tracker.tempo)
        XCTAssertEqual(tracker.framesProcessed, 0)
        let second = RhythmRun(tracker, loop, chunk: 300)
        XCTAssertEqual(first.onsets, second.onsets)
        XCTAssertEqual(first.beats, second.beats)
    }

    func testProcessAndTakeAllocateNothing() throws {
        for config in try configs() { try assertAllocatesNothing(config) }
    }

    /// A convolution network (format 3) runs through the same tracker without allocating: one whose first channel
    /// sums the bands' rises, so that its activation follows the onsets and the tracker locks.
    func testAConvolutionNetworkAllocatesNothing() throws {
        let inputs = 82, channels = 4, kernel = 5, dilations = [1, 2, 4]
        let inputWeights = 2 * inputs, convolution = inputWeights + channels * inputs + channels
        let output = convolution + dilations.count * (channels * channels * kernel + 2 * channels + channels * channels)
        let file = BeatNetworkTests.convolutionFile(inputs: inputs, channels: channels, kernel: kernel,
                                                    dilations: dilations) { i -> Float in
            if i < inputs { return 0 }  // mean
            if i < inputWeights { return 1 }  // scale
            if i < convolution - channels { return (i - inputWeights) < inputs && (i - inputWeights) >= inputs / 2 ? 0.5 : 0 }
            if i < output { return 0.01 }
            return i == output ? 4 : (i == output + channels ? -2 : 0)
        }
        var config = RhythmConfig()
        config.learnedActivation = try BeatNetworkWeights(data: file)
        config.beatModel = .learned
        try assertAllocatesNothing(config)
    }

    func assertAllocatesNothing(_ config: RhythmConfig) throws {
        let loop = DrumLoop(bpm: 140, sampleRate: rate, seconds: 10, firstBeat: 0.2).render()
        // The first tracker to run in the process makes the Swift runtime build type metadata it had not needed
        // yet (in a debug build, SIMD16<Float>'s for the spectrum's magnitudes: three allocations), once for the
        // process. Another tracker runs first, so that the one counted owes nothing to the tests run before it,
        // and must allocate nothing from its first sample on.
        _ = RhythmRun(loop, sampleRate: rate, config: config, chunk: 256)
        let tracker = RhythmTracker(config: config, sampleRate: rate)
        var onsets = [OnsetEvent]()
        var beats = [BeatEvent]()
        onsets.reserveCapacity(64)
        beats.reserveCapacity(64)
        var total: Int64 = 0
        loop.withUnsafeBufferPointer { p in
            var i = 0
            while i + 256 <= p.count {
                jacktap_allocations_begin()
                tracker.process(p.baseAddress! + i, count: 256)
                tracker.takeOnsets(into: &onsets)
                tracker.takeBeats(into: &beats)
                _ = tracker.tempo
                _ = tracker.phase(atFrame: i)
                total += jacktap_allocations_end()
                onsets.removeAll(keepingCapacity: true)
                beats.removeAll(keepingCapacity: true)
                i += 256
            }
        }
        XCTAssertEqual(total, 0, "learned: \(config.learnedActivation != nil)")
        XCTAssertNotNil(tracker.tempo, "the run must have reached the locked state")
    }
}
