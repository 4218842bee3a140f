import Analysis
import XCTest

final class AnalysisEngineTests: XCTestCase {
    func testPeakAndRMSOfAHalfScaleSine() {
        let result = analyse([sine(440, amplitude: 0.5, sampleRate: 48_000)], sampleRate: 48_000)
        for snapshot in result.snapshots.dropFirst(12) {
            XCTAssertEqual(snapshot.ports[0].peakDB, -6.02, accuracy: 0.01)
            XCTAssertEqual(snapshot.ports[0].rmsDB, -9.03, accuracy: 0.02)
            XCTAssertEqual(snapshot.ports[0].level, (60 - 9.03) / 60, accuracy: 0.001)
        }
        XCTAssertEqual(result.summary.peakDB[0], -6.02, accuracy: 0.01)
        XCTAssertEqual(result.summary.rmsDB[0], -9.03, accuracy: 0.01)
    }

    func testTicksFollowAudioTimeAtTheRequestedRate() {
        let result = analyse([sine(440, seconds: 2, sampleRate: 48_000)], sampleRate: 48_000, period: 64)
        XCTAssertEqual(result.snapshots.count, 60, accuracy: 1)
        XCTAssertEqual(result.snapshots.last!.time, 2, accuracy: 1.0 / 30)
    }

    func testAPeakBetweenTwoTicksIsNeverLost() {
        var samples = [Float](repeating: 0.01, count: 48_000)
        samples[12_345] = -0.75
        let result = analyse([samples], sampleRate: 48_000)
        let peaks = result.snapshots.map(\.ports[0].peakDB)
        XCTAssertEqual(peaks.filter { abs($0 - (-2.4988)) < 0.001 }.count, 1)
    }

    func testSameFiguresAtEveryPeriodSize() {
        let samples = sine(997, amplitude: 0.3, seconds: 1, sampleRate: 48_000)
        let results = [64, 256, 1024].map { analyse([samples], sampleRate: 48_000, period: $0) }
        for r in results {
            XCTAssertEqual(r.summary.peakDB[0], results[0].summary.peakDB[0])
            XCTAssertEqual(r.summary.rmsDB[0], results[0].summary.rmsDB[0], accuracy: 1e-4)
            XCTAssertEqual(r.snapshots.last!.ports[0].note, results[0].snapshots.last!.ports[0].note)
        }
    }
}
