import DSP
import Foundation
import Synchronization
import XCTest

final class PeriodStampTests: XCTestCase {
    func testNothingIsReadBeforeTheFirstPeriod() {
        let stamp = PeriodStamp.allocate()
        defer { stamp.deallocate() }
        XCTAssertNil(stamp.read())
        stamp.record(frames: 256, micros: 1_000)
        XCTAssertEqual(stamp.read()?.frames, 256)
        XCTAssertEqual(stamp.read()?.micros, 1_000)
    }

    /// A reader racing a writer that stamps as fast as it can never sees the frames of one period with the
    /// microseconds of another, and never goes back.
    func testAReaderRacingTheWriterAlwaysGetsOnePeriodsPair() {
        let stamp = PeriodStamp.allocate()
        defer { stamp.deallocate() }
        let periods = 2_000_000
        let done = Atomic<Bool>(false)
        let writer = Thread {
            for n in 1...periods { stamp.record(frames: n * 64, micros: UInt64(n) * 1_333) }
            done.store(true, ordering: .releasing)
        }
        writer.start()
        var mismatched = 0, backwards = 0, last = 0
        var finished = false
        repeat {
            finished = done.load(ordering: .acquiring)
            guard let (frames, micros) = stamp.read() else { continue }
            if UInt64(frames / 64) * 1_333 != micros { mismatched += 1 }
            if frames < last { backwards += 1 }
            last = frames
        } while !finished
        XCTAssertEqual(mismatched, 0)
        XCTAssertEqual(backwards, 0)
        XCTAssertEqual(stamp.read()?.frames, periods * 64)
    }
}
