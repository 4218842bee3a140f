import Analysis
import TestSupport
import XCTest

/// `process` must not allocate: the analysis thread runs it forever.
final class PitchAllocationTests: XCTestCase {
    func testProcessAllocatesNothingAfterInit() {
        for rate in [44_100.0, 48_000, 96_000] {
            let tracker = PitchTracker(config: PitchConfig(), sampleRate: rate)
            // Notes that change, noise (unvoiced) and silence: every branch of the estimate.
            let samples = PitchSignal.tone(rate: rate, seconds: 0.5) { 100 * pow(2, ($0 * 20).rounded() / 12) }
                + PitchSignal.pink(count: Int(rate / 4), amplitude: 0.3, seed: 9)
                + [Float](repeating: 0, count: Int(rate / 4))
            let block = 256
            samples.withUnsafeBufferPointer { p in
                // The first tracker to estimate in the process makes the Swift runtime build type metadata it had
                // not needed yet (in a debug build, SIMD16<Float>'s for the power spectrum), once for the process:
                // another tracker runs first, so that the one counted owes nothing to the tests run before it.
                let other = PitchTracker(config: PitchConfig(), sampleRate: rate)
                var start = 0
                while start + block <= p.count {
                    other.process(p.baseAddress! + start, count: block)
                    start += block
                }
                tracker.process(p.baseAddress!, count: block)  // warm up outside the count
                var total: Int64 = 0
                var offset = block
                while offset + block <= p.count {
                    jacktap_allocations_begin()
                    tracker.process(p.baseAddress! + offset, count: block)
                    _ = tracker.latest
                    _ = tracker.note
                    total += jacktap_allocations_end()
                    offset += block
                }
                XCTAssertEqual(total, 0, "\(rate)")
            }
            XCTAssertNil(tracker.note)
        }
    }
}
