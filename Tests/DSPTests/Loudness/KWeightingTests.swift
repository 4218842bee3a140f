import DSP
import XCTest

final class KWeightingTests: XCTestCase {
    func testDesignReproducesThePublishedBS1770CoefficientsAt48kHz() {
        // ITU-R BS.1770-4 Annex 1, Tables 1 and 2, published to 14 decimals (the design is within 9e-16).
        let k = KWeighting(sampleRate: 48_000)
        let published = (
            shelf: [1.53512485958697, -2.69169618940638, 1.19839281085285, -1.69065929318241, 0.73248077421585],
            highPass: [1.0, -2.0, 1.0, -1.99004745483398, 0.99007225036621])
        let shelf = [k.shelf.b0, k.shelf.b1, k.shelf.b2, k.shelf.a1, k.shelf.a2]
        let highPass = [k.highPass.b0, k.highPass.b1, k.highPass.b2, k.highPass.a1, k.highPass.a2]
        for (ours, theirs) in zip(shelf, published.shelf) { XCTAssertEqual(ours, theirs, accuracy: 1e-14) }
        for (ours, theirs) in zip(highPass, published.highPass) { XCTAssertEqual(ours, theirs, accuracy: 1e-14) }
        XCTAssertEqual(k.highPass.b0, 1, "the published numerator is exactly [1, -2, 1]")
    }

    func testResponseIsTheSameAtEveryRate() {
        // BS.1770: other rates must give the response the 48 kHz filter gives. Below 4 kHz, where the bilinear
        // warping of each design differs least, every rate agrees with 48 kHz within 0.01 dB.
        let reference = KWeighting(sampleRate: 48_000)
        for rate in [32_000.0, 44_100, 88_200, 96_000, 176_400, 192_000] {
            let k = KWeighting(sampleRate: rate)
            for frequency in [20.0, 38, 100, 500, 997, 1_000, 1_682, 2_000, 4_000] {
                let ours = 20 * log10(k.magnitude(at: frequency))
                let theirs = 20 * log10(reference.magnitude(at: frequency))
                XCTAssertEqual(ours, theirs, accuracy: 0.01, "\(frequency) Hz at \(rate) Hz")
            }
        }
        // +0.691 dB at 997 Hz is what BS.1770's -0.691 offsets.
        XCTAssertEqual(20 * log10(reference.magnitude(at: 997)), 0.691, accuracy: 0.001)
    }

    func testFastFilterMatchesTheTextbookDifferenceEquations() {
        let k = KWeighting(sampleRate: 44_100)
        var generator = SystemRandomNumberGenerator()
        let input = (0..<10_000).map { _ in Float.random(in: -1...1, using: &generator) }
        var reference = KWeighting.Reference(k)
        var expected = 0.0
        for x in input {
            let z = reference.process(Double(x))
            expected += z * z
        }
        var state = KWeighting.State()
        var sum = 0.0
        input.withUnsafeBufferPointer {
            k.filterAndSumSquares($0.baseAddress!, count: $0.count, state: &state, sum: &sum)
        }
        XCTAssertEqual(sum, expected, accuracy: expected * 1e-12)
    }

    func testSplittingARunGivesABitIdenticalSum() {
        let k = KWeighting(sampleRate: 48_000)
        let input = (0..<4_801).map { Float(sin(Double($0) * 0.37)) }
        var whole = KWeighting.State(), wholeSum = 0.0
        var split = KWeighting.State(), splitSum = 0.0
        input.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            k.filterAndSumSquares(p, count: buffer.count, state: &whole, sum: &wholeSum)
            var done = 0
            for n in [1, 63, 64, 1000, 7, 2048] {
                k.filterAndSumSquares(p + done, count: n, state: &split, sum: &splitSum)
                done += n
            }
            k.filterAndSumSquares(p + done, count: buffer.count - done, state: &split, sum: &splitSum)
        }
        XCTAssertEqual(splitSum, wholeSum)
        XCTAssertEqual(split, whole)
    }

    func testNaNInfinityAndSubnormalInputCountAsSilence() {
        let k = KWeighting(sampleRate: 48_000)
        let bad: [Float] = [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNormalMagnitude / 4]
        var state = KWeighting.State(), sum = 0.0
        bad.withUnsafeBufferPointer {
            k.filterAndSumSquares($0.baseAddress!, count: $0.count, state: &state, sum: &sum)
        }
        XCTAssertEqual(sum, 0)
        XCTAssertTrue(state.isZero)
    }

    func testStateDecaysToExactZeroInSilenceWithoutGoingSubnormal() {
        // The meter flushes at every sub-block boundary; after a full-scale burst the state must reach exact 0
        // without any state variable or output square ever being subnormal.
        for rate in [44_100.0, 48_000, 192_000] {
            let k = KWeighting(sampleRate: rate)
            let subBlock = Int((rate / 150).rounded())
            var state = KWeighting.State()
            var sum = 0.0
            let burst = (0..<subBlock).map { Float(sin(Double($0) * 0.1)) }
            burst.withUnsafeBufferPointer {
                k.filterAndSumSquares($0.baseAddress!, count: subBlock, state: &state, sum: &sum)
            }
            state.flush()
            let silence = [Float](repeating: 0, count: 1)
            var subBlocks = 0
            while !state.isZero, subBlocks < 10_000 {
                for _ in 0..<subBlock {
                    var square = 0.0
                    silence.withUnsafeBufferPointer {
                        k.filterAndSumSquares($0.baseAddress!, count: 1, state: &state, sum: &square)
                    }
                    XCTAssertFalse(square.isSubnormal, "square of the output went subnormal at \(rate) Hz")
                    XCTAssertFalse(state.hasSubnormal, "state went subnormal at \(rate) Hz")
                }
                state.flush()
                subBlocks += 1
            }
            XCTAssertTrue(state.isZero, "still decaying after \(subBlocks) sub-blocks at \(rate) Hz")
        }
    }
}

extension KWeighting.State {
    /// Whether any state variable is subnormal, seen through the public `flush`: flushing below the smallest
    /// normal Double changes exactly the subnormal ones.
    var hasSubnormal: Bool {
        var copy = self
        copy.flush(below: Double.leastNormalMagnitude)
        return copy != self
    }
}
