import DSP
import XCTest

final class ClipCounterTests: XCTestCase {
    func count(_ signal: [Float], blocks: [Int], thresholdDB: Float = 0) -> Int {
        let counter = ClipCounter(thresholdDB: thresholdDB)
        MeterSignal.feed(signal, blocks: blocks) { counter.process($0, count: $1) }
        return counter.events
    }

    func testConsecutiveClippedSamplesAreOneEvent() {
        var signal = [Float](repeating: 0.1, count: 100)
        for i in 10..<15 { signal[i] = 1 }
        for i in 40..<41 { signal[i] = -1.5 }
        for i in 60..<80 { signal[i] = i % 2 == 0 ? 1 : -1 }
        XCTAssertEqual(count(signal, blocks: [100]), 3)
    }

    func testARunSpanningBlocksCountsOnce() {
        var signal = [Float](repeating: 0, count: 300)
        for i in 60..<200 { signal[i] = -1 }  // spans the 64-sample boundaries at 64, 128 and 192
        for blocks in MeterSignal.blockPatterns + [[64, 4], [1]] {
            XCTAssertEqual(count(signal, blocks: blocks), 1, "\(blocks)")
        }
    }

    func testTheCountDoesNotDependOnTheBlockSize() {
        let signal = MeterSignal.noise(count: 20_000, amplitude: 1.2, seed: 3)
        let expected = count(signal, blocks: [20_000])
        XCTAssertGreaterThan(expected, 100)
        for blocks in MeterSignal.blockPatterns {
            XCTAssertEqual(count(signal, blocks: blocks), expected, "\(blocks)")
        }
    }

    func testThresholdIsTenToTheDBOverTwenty() {
        let counter = ClipCounter(thresholdDB: -6)
        XCTAssertEqual(counter.threshold, 0.501_187, accuracy: 1e-6)
        let signal: [Float] = [0.5, 0, 0.502, 0, -0.51, 0, 0.5011]
        XCTAssertEqual(count(signal, blocks: [7], thresholdDB: -6), 2)
        XCTAssertEqual(count([1, 0, 0.99999, 0, -1], blocks: [1]), 2, "0 dBFS: |x| ≥ 1")
    }

    func testNaNIsNotAClipAndInfinityIs() {
        XCTAssertEqual(count([.nan, 0, .nan, .infinity, 0, -.infinity], blocks: [3]), 2)
    }

    func testResetClearsTheCount() {
        let counter = ClipCounter()
        let clipped: [Float] = [0, 1, 1]
        MeterSignal.feed(clipped, blocks: [3]) { counter.process($0, count: $1) }
        XCTAssertEqual(counter.events, 1)
        counter.reset()
        XCTAssertEqual(counter.events, 0)
        // The run in progress goes on: not counted again.
        MeterSignal.feed([1, 0, 1], blocks: [3]) { counter.process($0, count: $1) }
        XCTAssertEqual(counter.events, 1)
    }
}
