import DSP
import XCTest

final class RMSWindowTests: XCTestCase {
    func testRMSCoversOnlyTheNewestWindow() {
        var window = RMSWindow(windowFrames: 1000)
        for _ in 0..<10 { window.add(sumOfSquares: 100 * 1.0, frames: 100) }  // RMS 1
        XCTAssertEqual(window.rms, 1, accuracy: 1e-12)
        for _ in 0..<10 { window.add(sumOfSquares: 100 * 0.25, frames: 100) }  // RMS 0.5
        XCTAssertEqual(window.rms, 0.5, accuracy: 1e-12)
    }

    func testEmptyWindowReadsZero() {
        XCTAssertEqual(RMSWindow(windowFrames: 10).rms, 0)
    }
}
