import DSP
import TestSupport
import XCTest

final class TapTests: XCTestCase {
    func testProcessingAllocatesNothingOverThousandPeriodsOfSixtyFourChannels() {
        let channels = 64, period = 256, periods = 1000
        let tap = Tap.allocate(channels: channels, ringFrames: 4 * period)
        defer { tap.deallocate() }
        let input = UnsafeMutablePointer<Float>.allocate(capacity: channels * period)
        defer { input.deallocate() }
        for i in 0..<(channels * period) { input[i] = Float(sin(Double(i) * 0.01)) * 0.5 }
        var drained = [Float](repeating: 0, count: period)

        var allocations: Int64 = 0
        for _ in 0..<periods {
            jacktap_allocations_begin()
            let copy = tap.beginPeriod(frames: period)
            for c in 0..<channels {
                tap.process(channel: c, samples: input + c * period, count: period, copy: copy)
            }
            tap.endPeriod(frames: period, copied: copy)
            allocations += jacktap_allocations_end()
            // The reader side runs outside the counted region, as the analysis thread does.
            drained.withUnsafeMutableBufferPointer { tap.ring.peek(channel: 0, count: period, into: $0.baseAddress!) }
            tap.ring.consume(tap.ring.readableFrames())
        }
        XCTAssertEqual(allocations, 0)
        XCTAssertEqual(tap.overruns, 0)
    }

    func testTheAllocationCounterCatchesAnAllocation() {
        // Guards the test above against a counter that never counts.
        jacktap_allocations_begin()
        var array = [Int]()
        array.append(Int.random(in: 0..<10))
        let counted = jacktap_allocations_end()
        XCTAssertGreaterThan(counted, 0)
        XCTAssertEqual(array.count, 1)
    }

    func testPeakIsTheMaximumSinceTheLastReadAndIsNeverLost() {
        let tap = Tap.allocate(channels: 2, ringFrames: 64)
        defer { tap.deallocate() }
        var loud: [Float] = Array(repeating: 0.1, count: 16)
        loud[5] = -0.9
        let quiet: [Float] = Array(repeating: 0.2, count: 16)
        for block in [loud, quiet, quiet] {
            let copy = tap.beginPeriod(frames: 16)
            block.withUnsafeBufferPointer { tap.process(channel: 0, samples: $0.baseAddress!, count: 16, copy: copy) }
            quiet.withUnsafeBufferPointer { tap.process(channel: 1, samples: $0.baseAddress!, count: 16, copy: copy) }
            tap.endPeriod(frames: 16, copied: copy)
        }
        XCTAssertEqual(tap.takePeak(channel: 0), 0.9)
        XCTAssertEqual(tap.takePeak(channel: 0), 0, "a read clears the maximum")
        XCTAssertEqual(tap.takePeak(channel: 1), 0.2)
        XCTAssertEqual(tap.takeFrames(), 48)
        XCTAssertEqual(tap.takeSumOfSquares(channel: 1), 48 * 0.04, accuracy: 1e-5)
    }

    func testAFullRingCountsAnOverrunAndKeepsMeasuring() {
        let tap = Tap.allocate(channels: 1, ringFrames: 32)
        defer { tap.deallocate() }
        let block = [Float](repeating: 0.5, count: 16)
        for _ in 0..<3 {
            let copy = tap.beginPeriod(frames: 16)
            block.withUnsafeBufferPointer { tap.process(channel: 0, samples: $0.baseAddress!, count: 16, copy: copy) }
            tap.endPeriod(frames: 16, copied: copy)
        }
        XCTAssertEqual(tap.overruns, 1)
        XCTAssertEqual(tap.ring.readableFrames(), 32)
        XCTAssertEqual(tap.takeFrames(), 48, "the dropped period is still metered")
    }

    func testRingDeliversFramesInOrderAcrossTheWrap() {
        let tap = Tap.allocate(channels: 2, ringFrames: 16)
        defer { tap.deallocate() }
        var next: Float = 1
        var expected: Float = 1
        var out = [Float](repeating: 0, count: 16)
        for period in [5, 7, 3, 9, 6, 11, 2] {
            let block = (0..<period).map { Float($0) + next }
            let negated = block.map { -$0 }
            next += Float(period)
            let copy = tap.beginPeriod(frames: period)
            XCTAssertTrue(copy)
            block.withUnsafeBufferPointer { tap.process(channel: 0, samples: $0.baseAddress!, count: period, copy: copy) }
            negated.withUnsafeBufferPointer { tap.process(channel: 1, samples: $0.baseAddress!, count: period, copy: copy) }
            tap.endPeriod(frames: period, copied: copy)
            let n = tap.ring.readableFrames()
            out.withUnsafeMutableBufferPointer { tap.ring.peek(channel: 0, count: n, into: $0.baseAddress!) }
            XCTAssertEqual(Array(out[0..<n]), (0..<n).map { Float($0) + expected })
            out.withUnsafeMutableBufferPointer { tap.ring.peek(channel: 1, count: n, into: $0.baseAddress!) }
            XCTAssertEqual(Array(out[0..<n]), (0..<n).map { -(Float($0) + expected) })
            tap.ring.consume(n)
            expected += Float(n)
        }
    }
}
