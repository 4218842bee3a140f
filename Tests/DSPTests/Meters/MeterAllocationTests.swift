import DSP
import TestSupport
import XCTest

/// `process` must not allocate: each meter runs 1,000 blocks under the counter.
final class MeterAllocationTests: XCTestCase {
    let rate = 48_000.0
    let block = 256

    /// Allocations made by 1,000 calls of `body` on blocks of a loud, clipping, changing signal.
    func allocations(_ body: (UnsafePointer<Float>, UnsafePointer<Float>, Int) -> Void) -> Int64 {
        let left = MeterSignal.noise(count: block * 10, amplitude: 1.2, seed: 5)
        let right = MeterSignal.noise(count: block * 10, amplitude: 1.2, seed: 6)
        var total: Int64 = 0
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                body(l.baseAddress!, r.baseAddress!, block)  // warm up outside the count
                for i in 0..<1000 {
                    let offset = (i % 10) * block
                    jacktap_allocations_begin()
                    body(l.baseAddress! + offset, r.baseAddress! + offset, block)
                    total += jacktap_allocations_end()
                }
            }
        }
        return total
    }

    func testTruePeakMeterProcessAllocatesNothing() {
        for sampleRate in [48_000.0, 96_000, 192_000] {
            let meter = TruePeakMeter(sampleRate: sampleRate)
            XCTAssertEqual(allocations { l, _, n in meter.process(l, count: n); _ = meter.read() }, 0)
        }
    }

    func testVUMeterProcessAllocatesNothing() {
        let meter = VUMeter(sampleRate: rate)
        XCTAssertEqual(allocations { l, _, n in meter.process(l, count: n); _ = meter.read() }, 0)
    }

    func testPPMMeterProcessAllocatesNothing() {
        for kind in [PPMMeter.Kind.typeI, .typeII] {
            let meter = PPMMeter(kind: kind, sampleRate: rate)
            XCTAssertEqual(allocations { l, _, n in meter.process(l, count: n); _ = meter.read() }, 0)
        }
    }

    func testKMeterProcessAllocatesNothing() {
        let meter = KMeter(sampleRate: rate)
        XCTAssertEqual(allocations { l, _, n in meter.process(l, count: n); _ = meter.read() }, 0)
    }

    func testCorrelationMeterProcessAllocatesNothing() {
        let meter = CorrelationMeter(sampleRate: rate)
        XCTAssertEqual(allocations { l, r, n in meter.process(left: l, right: r, count: n); _ = meter.read() }, 0)
    }

    func testClipCounterProcessAllocatesNothing() {
        let counter = ClipCounter()
        XCTAssertEqual(allocations { l, _, n in counter.process(l, count: n) }, 0)
        XCTAssertGreaterThan(counter.events, 0)
    }

    func testPeakHoldUpdateAllocatesNothing() {
        var hold = PeakHold()
        XCTAssertEqual(allocations { l, _, _ in _ = hold.update(levelDB: l[0] * 10, elapsedSeconds: 0.005) }, 0)
    }
}
