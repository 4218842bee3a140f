import Analysis
import XCTest

final class BandLayoutTests: XCTestCase {
    func testLoudestBandContainsTheToneAndReadsItsPeakLevel() {
        let result = analyse([sine(440, amplitude: 0.5, sampleRate: 48_000)], sampleRate: 48_000)
        let reading = result.snapshots.last!.ports[0]
        let layout = BandLayout(count: 48, lowest: 60, highest: 18_000, fftSize: 4096, sampleRate: 48_000)
        let loudest = reading.bands.indices.max { reading.bands[$0] < reading.bands[$1] }!
        XCTAssertTrue(layout.edges[loudest] <= 440 && 440 < layout.edges[loudest + 1])
        // -6.02 dBFS on the -80…0 dB scale is 0.925; part of the main lobe spills into the next band.
        XCTAssertEqual(reading.bands[loudest], (80 - 6.02) / 80, accuracy: 0.02)
    }

    func testEdgesAreLogSpacedFrom60HzTo18kHz() {
        let layout = BandLayout(count: 48, lowest: 60, highest: 18_000, fftSize: 4096, sampleRate: 48_000)
        XCTAssertEqual(layout.count, 48)
        XCTAssertEqual(layout.edges.first!, 60, accuracy: 1e-9)
        XCTAssertEqual(layout.edges.last!, 18_000, accuracy: 1e-6)
        XCTAssertEqual(layout.edges[24], (60.0 * 18_000).squareRoot(), accuracy: 1e-6)
    }

    func testExplicitEdgesSumTheBinsBetweenThemAndClipAtNyquist() {
        // 48 kHz / 4096: bins of 11.72 Hz. 100–250 Hz holds bins 9…21; an edge of 30 kHz is clipped to 24 kHz.
        let layout = BandLayout(edges: [100, 250, 30_000], fftSize: 4_096, sampleRate: 48_000)
        XCTAssertEqual(layout.count, 2)
        XCTAssertEqual(layout.edges.last, 24_000)
        var power = [Float](repeating: 0, count: 2_049)
        power[10] = 1
        var levels = [Float](repeating: -1, count: 2)
        layout.levels(of: power, floorDB: -80, into: &levels)
        XCTAssertEqual(levels, [1, 0])
    }
}
