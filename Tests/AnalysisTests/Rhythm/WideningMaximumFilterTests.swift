@testable import Analysis
import XCTest

/// The SuperFlux maximum filter: each bin's output is the largest input within its own radius, exactly as a
/// direct scan over the window finds it, whatever the values (ties, runs, plateaus) and radii.
final class WideningMaximumFilterTests: XCTestCase {
    /// The definition, bin by bin.
    func directScan(_ input: [Float], radii: [Int]) -> [Float] {
        input.indices.map { i in
            input[max(0, i - radii[i])...min(input.count - 1, i + radii[i])].max()!
        }
    }

    /// A value in [0, 1) that looks random and is the same in every run (the fractional part of a large sine).
    func scrambled(_ i: Int, _ round: Int) -> Double {
        let x = sin(Double(i) * 12.9898 + Double(round) * 78.233) * 43_758.5453
        return x - x.rounded(.down)
    }

    /// The filter's output for `input`, after it has filtered a frame of huge values: a run left unbuilt, or
    /// built from the wrong bins, would show that frame's values (or, on a fresh filter, its zeros).
    func filtered(_ input: [Float], radii: [Int]) -> [Float] {
        let filter = WideningMaximumFilter(radii: radii)
        var output = [Float](repeating: .nan, count: input.count)
        for frame in [[Float](repeating: 1e30, count: input.count), input] {
            frame.withUnsafeBufferPointer { i in
                output.withUnsafeMutableBufferPointer { filter.apply(i.baseAddress!, into: $0.baseAddress!) }
            }
        }
        return output
    }

    func testEqualsTheDirectScanOnSuperFluxRadiiOverRandomSpectra() {
        // The radii SpectralFlux uses at 48 kHz with a 2048-sample window: bins 1…683, ±3 %, at least 1.
        let radii = (1...683).map { max(1, Int((Double($0) * 0.03).rounded())) }
        for round in 0..<50 {
            // Coarse values make ties and plateaus common; fine ones make every value distinct.
            let levels = round % 2 == 0 ? 4.0 : 1e6
            let input = radii.indices.map { i in Float((scrambled(i, round) * levels).rounded(.down)) }
            XCTAssertEqual(filtered(input, radii: radii), directScan(input, radii: radii), "round \(round)")
        }
    }

    func testEqualsTheDirectScanWhenRadiiRiseAndFallFromBinToBin() {
        // Each level is built only from the lowest bin any window (or longer run) reads it at: radii drawn at
        // random, narrow and wide, windows clipped at either end, must not find a run left unbuilt. Counts that
        // are not whole lanes of eight leave a tail at every level; values are negative as well as positive
        // (below a fresh filter's zeros).
        for round in 0..<60 {
            let count = 1 + round * 7
            let widest = round % 3 == 0 ? count : max(1, count / 4)
            let radii = (0..<count).map { i in Int(scrambled(i, round + 100) * Double(widest + 1)) }
            let input = radii.indices.map { i in Float((scrambled(i, round) * 8).rounded(.down)) - 4 }
            XCTAssertEqual(filtered(input, radii: radii), directScan(input, radii: radii), "round \(round)")
        }
        let peak = [1] + [Int](repeating: 0, count: 30) + [25] + [Int](repeating: 1, count: 30)
        let input = peak.indices.map { Float($0 % 11) }
        XCTAssertEqual(filtered(input, radii: peak), directScan(input, radii: peak))
        // Two neighbouring bins whose first runs follow on but whose last runs do not: one output stretch
        // must not take in both.
        let uneven = [0, 0, 4, 2, 0, 0, 0, 0, 0, 0]
        let lone = (0..<10).map { Float($0 == 6 ? 9 : 0) }
        XCTAssertEqual(filtered(lone, radii: uneven), directScan(lone, radii: uneven))
    }

    func testEqualsTheDirectScanOnMonotonicInputAndRadiiThatGrowEveryBin() {
        // The queue's worst cases: input falling (every bin stays a candidate), rising (each one clears it),
        // and a radius that grows by one at every bin (the window's start stands still).
        let radii = Array(0..<40)
        let falling = (0..<40).map { Float(40 - $0) }
        let rising = (0..<40).map { Float($0) }
        XCTAssertEqual(filtered(falling, radii: radii), directScan(falling, radii: radii))
        XCTAssertEqual(filtered(rising, radii: radii), directScan(rising, radii: radii))
        let zeroRadius = [Int](repeating: 0, count: 40)
        XCTAssertEqual(filtered(falling, radii: zeroRadius), falling)
    }
}
