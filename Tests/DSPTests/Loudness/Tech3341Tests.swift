import DSP
import XCTest

/// EBU Tech 3341 (2016) test cases 1–6 and 9–14 ("EBU Mode" minimum requirements), synthesised as its table
/// of test signals describes them: 48 kHz, 1 kHz sine, stereo in phase, level per channel (sine peak, dBFS).
/// Each is fed in blocks of 64, 256 and 1024 frames, which must give bit-identical readings.
final class Tech3341Tests: XCTestCase {
    let stereo: [ChannelRole] = [.left, .right]

    private func stereoTone(_ runs: [(Double, Double?)]) -> [[Float]] {
        let tone = ToneBuilder.render(runs)
        return [tone, tone]
    }

    func testCase1ToneAtMinus23ReadsMinus23MomentaryShortTermAndIntegrated() {
        let r = measureAtEveryBlockSize(stereoTone([(20, -23)]), roles: stereo, label: "3341-1")
        assertReading(r.momentary, -23, 0.1, "3341-1 M")
        assertReading(r.shortTerm, -23, 0.1, "3341-1 S")
        assertReading(r.integrated, -23, 0.1, "3341-1 I")
    }

    func testCase2ToneAtMinus33ReadsMinus33() {
        let r = measureAtEveryBlockSize(stereoTone([(20, -33)]), roles: stereo, label: "3341-2")
        assertReading(r.momentary, -33, 0.1, "3341-2 M")
        assertReading(r.shortTerm, -33, 0.1, "3341-2 S")
        assertReading(r.integrated, -33, 0.1, "3341-2 I")
    }

    func testCase3RelativeGateDropsTheQuietEnds() {
        let r = measureAtEveryBlockSize(stereoTone([(10, -36), (60, -23), (10, -36)]), roles: stereo,
                                        label: "3341-3")
        assertReading(r.integrated, -23, 0.1, "3341-3 I")
    }

    func testCase4AbsoluteAndRelativeGatesDropTheQuietEnds() {
        let r = measureAtEveryBlockSize(
            stereoTone([(10, -72), (10, -36), (60, -23), (10, -36), (10, -72)]), roles: stereo, label: "3341-4")
        assertReading(r.integrated, -23, 0.1, "3341-4 I")
    }

    func testCase5IntegratedIsTheEnergyMeanOfTheGatedBlocks() {
        let r = measureAtEveryBlockSize(stereoTone([(20, -26), (20.1, -20), (20, -26)]), roles: stereo,
                                        label: "3341-5")
        assertReading(r.integrated, -23, 0.1, "3341-5 I")
    }

    func testCase6FiveChannelsAreWeightedAsBS1770Says() {
        func channel(_ level: Double) -> [Float] { ToneBuilder.render([(20, level)]) }
        let r = measureAtEveryBlockSize(
            [channel(-28), channel(-28), channel(-24), channel(-30), channel(-30)],
            roles: [.left, .right, .centre, .leftSurround, .rightSurround], label: "3341-6")
        assertReading(r.integrated, -23, 0.1, "3341-6 I")
    }

    func testCase9ShortTermIsConstantOnceItsWindowHasFilled() {
        let signal = stereoTone(Array(repeating: [(1.34, -20.0), (1.66, -30.0)], count: 5).flatMap { $0 })
        for blockSize in standardBlockSizes {
            let meter = LoudnessMeter(sampleRate: 48_000, roles: stereo)
            var lowest = Float.infinity, highest = -Float.infinity
            feed(meter, signal, blockSize: blockSize, observe: { done in
                // The reading is that of the last sub-block boundary: full windows from 3 s on.
                guard done >= 3 * 48_000 else { return }
                lowest = min(lowest, meter.shortTerm)
                highest = max(highest, meter.shortTerm)
            })
            print("[loudness] 3341-9 (blocks of \(blockSize)): S from \(lowest) to \(highest) after 3 s")
            assertReading(lowest, -23, 0.1, "3341-9 lowest S, blocks of \(blockSize)")
            assertReading(highest, -23, 0.1, "3341-9 highest S, blocks of \(blockSize)")
        }
    }

    func testCase10MaxShortTermOfEachOfTwentySignalsIsMinus23() {
        var readings: [Float] = []
        for i in 0..<20 {
            let signal = stereoTone([(Double(i) * 0.15, nil), (3, -23), (1, nil)])
            let r = measureAtEveryBlockSize(signal, roles: stereo, label: "3341-10 #\(i + 1)")
            assertReading(r.maxShortTerm, -23, 0.1, "3341-10 signal \(i + 1) max S")
            readings.append(r.maxShortTerm)
        }
        print("[loudness] 3341-10 max S: \(readings.map { String(format: "%.3f", $0) }.joined(separator: " "))")
    }

    func testCase10AlsoPassesWithOneMeterResetBetweenSignals() {
        let meter = LoudnessMeter(sampleRate: 48_000, roles: stereo)
        for i in 0..<20 {
            meter.reset()
            feed(meter, stereoTone([(Double(i) * 0.15, nil), (3, -23), (1, nil)]), blockSize: 256)
            assertReading(meter.maxShortTerm, -23, 0.1, "3341-10 signal \(i + 1) max S after reset")
        }
    }

    func testCase11SuccessiveMaxShortTermFollowsEachLouderSegment() {
        var runs: [(Double, Double?)] = []
        var ends: [Int] = []
        for i in 0..<20 {
            runs += [(Double(i) * 0.15, nil), (3, -38 + Double(i)), (3 - Double(i) * 0.15, nil)]
            ends.append(runs.reduce(0) { $0 + Int(($1.0 * 48_000).rounded()) })
        }
        let signal = stereoTone(runs)
        var first: [Float] = []
        for blockSize in standardBlockSizes {
            let meter = LoudnessMeter(sampleRate: 48_000, roles: stereo)
            var maxima: [Float] = []
            feed(meter, signal, blockSize: blockSize, checkpoints: ends, atCheckpoint: { _ in
                maxima.append(meter.maxShortTerm)
            })
            XCTAssertEqual(maxima.count, 20)
            for (i, value) in maxima.enumerated() {
                assertReading(value, -38 + Double(i), 0.1, "3341-11 segment \(i + 1), blocks of \(blockSize)")
            }
            if first.isEmpty { first = maxima } else { XCTAssertEqual(maxima, first, "blocks of \(blockSize)") }
        }
        print("[loudness] 3341-11 max S: \(first.map { String(format: "%.3f", $0) }.joined(separator: " "))")
    }

    func testCase12MomentaryIsConstantOnceItsWindowHasFilled() {
        let signal = stereoTone(Array(repeating: [(0.18, -20.0), (0.22, -30.0)], count: 25).flatMap { $0 })
        for blockSize in standardBlockSizes {
            let meter = LoudnessMeter(sampleRate: 48_000, roles: stereo)
            var lowest = Float.infinity, highest = -Float.infinity
            feed(meter, signal, blockSize: blockSize, observe: { done in
                guard done >= Int(0.4 * 48_000) else { return }
                lowest = min(lowest, meter.momentary)
                highest = max(highest, meter.momentary)
            })
            print("[loudness] 3341-12 (blocks of \(blockSize)): M from \(lowest) to \(highest) after 0.4 s")
            assertReading(lowest, -23, 0.1, "3341-12 lowest M, blocks of \(blockSize)")
            assertReading(highest, -23, 0.1, "3341-12 highest M, blocks of \(blockSize)")
        }
    }

    func testCase13MaxMomentaryOfEachOfTwentySignalsIsMinus23() {
        var readings: [Float] = []
        for i in 0..<20 {
            let signal = stereoTone([(Double(i) * 0.02, nil), (0.4, -23), (1, nil)])
            let r = measureAtEveryBlockSize(signal, roles: stereo, label: "3341-13 #\(i + 1)")
            assertReading(r.maxMomentary, -23, 0.1, "3341-13 signal \(i + 1) max M")
            readings.append(r.maxMomentary)
        }
        print("[loudness] 3341-13 max M: \(readings.map { String(format: "%.3f", $0) }.joined(separator: " "))")
    }

    func testCase14SuccessiveMaxMomentaryFollowsEachLouderSegment() {
        var runs: [(Double, Double?)] = []
        var ends: [Int] = []
        for i in 0..<20 {
            runs += [(Double(i) * 0.02, nil), (0.4, -38 + Double(i)), (0.4 - Double(i) * 0.02, nil)]
            ends.append(runs.reduce(0) { $0 + Int(($1.0 * 48_000).rounded()) })
        }
        let signal = stereoTone(runs)
        var first: [Float] = []
        for blockSize in standardBlockSizes {
            let meter = LoudnessMeter(sampleRate: 48_000, roles: stereo)
            var maxima: [Float] = []
            feed(meter, signal, blockSize: blockSize, checkpoints: ends, atCheckpoint: { _ in
                maxima.append(meter.maxMomentary)
            })
            XCTAssertEqual(maxima.count, 20)
            for (i, value) in maxima.enumerated() {
                assertReading(value, -38 + Double(i), 0.1, "3341-14 segment \(i + 1), blocks of \(blockSize)")
            }
            if first.isEmpty { first = maxima } else { XCTAssertEqual(maxima, first, "blocks of \(blockSize)") }
        }
        print("[loudness] 3341-14 max M: \(first.map { String(format: "%.3f", $0) }.joined(separator: " "))")
    }
}
