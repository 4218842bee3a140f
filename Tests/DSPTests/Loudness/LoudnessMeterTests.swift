import DSP
import TestSupport
import ToolSupport
import XCTest

final class LoudnessMeterTests: XCTestCase {
    func testMonoMinus20dBFS997HzSineReadsMinus23Point01() {
        let tone = ToneBuilder.render(frequency: 997, [(10, -20)])
        let r = measureAtEveryBlockSize([tone], roles: [.centre], label: "mono 997 Hz -20 dBFS")
        for (value, name) in [(r.momentary, "M"), (r.shortTerm, "S"), (r.integrated, "I")] {
            assertReading(value, -23.01, 0.01, "mono \(name)")
            assertReading(value, -23.0, 0.05, "mono \(name)")
        }
    }

    func testSubBlocksAreAFixed400msOver60AtEveryRate() {
        for (rate, frames) in [(44_100.0, 294), (48_000, 320), (88_200, 588), (96_000, 640), (192_000, 1280),
                               (32_000, 213)] {
            XCTAssertEqual(LoudnessMeter(sampleRate: rate, roles: [.left]).subBlockFrames, frames, "\(rate) Hz")
        }
    }

    func testOneKilohertzToneReadsTheSameAtEveryRate() {
        func integrated(_ rate: Double) -> Float {
            let tone = ToneBuilder.render(sampleRate: rate, [(10, -20)])
            let meter = LoudnessMeter(sampleRate: rate, roles: [.left, .right])
            feed(meter, [tone, tone], blockSize: 1024)
            XCTAssertEqual(meter.momentary, meter.integrated, accuracy: 0.001, "\(rate) Hz")
            return meter.integrated
        }
        let at48 = integrated(48_000)
        assertReading(at48, -20 + 0.007, 0.01, "1 kHz stereo at -20 dBFS, 48 kHz")
        for rate in [44_100.0, 96_000, 192_000] {
            let value = integrated(rate)
            print("[loudness] 1 kHz tone at \(rate) Hz: \(value) (48 kHz: \(at48), difference \(value - at48))")
            assertReading(value, Double(at48), 0.05, "1 kHz at \(rate) Hz vs 48 kHz")
        }
    }

    func testReadingsAreBitIdenticalWhateverTheBlockSizes() {
        // Noise in level steps, fed once in blocks of 1024 and once in random sizes from 1 to 3000 frames.
        var generator = SplitMix(seed: 7)
        let seconds = [(6.0, 0.05), (5, 0.3), (7, 0.01), (4, 0.2)]
        var left: [Float] = [], right: [Float] = []
        for (duration, amplitude) in seconds {
            for _ in 0..<Int(duration * 48_000) {
                left.append(Float(amplitude * generator.nextSigned()))
                right.append(Float(amplitude * generator.nextSigned()))
            }
        }
        let steady = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        feed(steady, [left, right], blockSize: 1024)

        let ragged = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        let pointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 2)
        defer { pointers.deallocate() }
        left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                var done = 0
                while done < l.count {
                    let n = min(Int(generator.next() % 3000) + 1, l.count - done)
                    pointers[0] = l.baseAddress! + done
                    pointers[1] = r.baseAddress! + done
                    ragged.process(UnsafePointer(pointers), count: n)
                    done += n
                }
            }
        }
        XCTAssertEqual(LoudnessReadings(ragged), LoudnessReadings(steady))
        XCTAssertGreaterThan(steady.range, 5, "the signal has a loudness range")
    }

    func testProcessingAllocatesNothingOverThousandBlocks() {
        let roles: [ChannelRole] = [.left, .right, .centre, .lfe, .leftSurround, .rightSurround]
        let frames = 256
        let meter = LoudnessMeter(sampleRate: 48_000, roles: roles)
        let input = UnsafeMutablePointer<Float>.allocate(capacity: roles.count * frames)
        defer { input.deallocate() }
        for i in 0..<(roles.count * frames) { input[i] = Float(sin(Double(i) * 0.01)) * 0.3 }
        let pointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: roles.count)
        defer { pointers.deallocate() }
        for c in 0..<roles.count { pointers[c] = UnsafePointer(input + c * frames) }

        var allocations: Int64 = 0
        var sink: Float = 0
        for block in 0..<1000 {
            jacktap_allocations_begin()
            meter.process(UnsafePointer(pointers), count: frames)
            // Reading, as a real-time publisher would, and resetting once, are also allocation-free.
            sink += meter.momentary + meter.shortTerm + meter.integrated + meter.range + meter.maxMomentary
                + meter.maxShortTerm
            if block == 700 { meter.reset() }
            allocations += jacktap_allocations_end()
        }
        XCTAssertEqual(allocations, 0)
        XCTAssertFalse(sink.isNaN)
        XCTAssertGreaterThan(meter.integrated, -30, "the gated statistics did run")
    }

    func testSilenceReadsTheFloorAndNeverNaN() {
        let silence = [Float](repeating: 0, count: 10 * 48_000)
        let r = measureAtEveryBlockSize([silence, silence], roles: [.left, .right], label: "silence")
        for value in [r.momentary, r.shortTerm, r.integrated, r.maxMomentary, r.maxShortTerm] {
            XCTAssertEqual(value, Decibels.floor)
        }
        XCTAssertEqual(r.range, 0)
        let fresh = LoudnessMeter(sampleRate: 48_000, roles: [.left])
        XCTAssertEqual(LoudnessReadings(fresh).integrated, Decibels.floor, "nothing measured yet")
        XCTAssertEqual(fresh.momentary, Decibels.floor)
        XCTAssertEqual(fresh.range, 0)
    }

    func testNaNAndInfinityInTheInputCountAsSilence() {
        let tone = ToneBuilder.render([(5, -23)])
        let clean = measureAtEveryBlockSize([tone, tone], roles: [.left, .right], label: "clean")
        var dirty = tone
        dirty[1000] = .nan
        dirty[2000] = -.infinity
        let r = measureAtEveryBlockSize([dirty, dirty], roles: [.left, .right], label: "NaN and Inf")
        for value in [r.momentary, r.shortTerm, r.integrated, r.maxMomentary, r.maxShortTerm, r.range] {
            XCTAssertFalse(value.isNaN)
            XCTAssertTrue(value.isFinite)
        }
        XCTAssertEqual(r.integrated, clean.integrated, accuracy: 0.001)
    }

    func testLFEIsExcludedAndSurroundsWeigh1Point41() {
        let tone = ToneBuilder.render([(5, -20)])
        let silence = [Float](repeating: 0, count: tone.count)
        let front = measureAtEveryBlockSize([tone, silence], roles: [.left, .lfe], label: "L only")
        let lfe = measureAtEveryBlockSize([silence, tone], roles: [.left, .lfe], label: "LFE only")
        let surround = measureAtEveryBlockSize([silence, tone], roles: [.left, .leftSurround], label: "Ls only")
        XCTAssertEqual(lfe.integrated, Decibels.floor)
        XCTAssertEqual(Double(surround.integrated - front.integrated), 10 * log10(1.41), accuracy: 0.001)
        XCTAssertEqual(ChannelRole.allCases.map(\.rawValue), ["L", "R", "C", "LFE", "Ls", "Rs"])
        XCTAssertEqual(ChannelRole.allCases.map(\.weight), [1, 1, 1, 0, 1.41, 1.41])
    }

    func testResetClearsIntegratedRangeAndMaximaButNotTheWindows() {
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        let loud = ToneBuilder.render([(10, -20), (1, -40), (9, -20)])
        feed(meter, [loud, loud], blockSize: 256)
        XCTAssertGreaterThan(meter.range, 0)
        let momentaryBefore = meter.momentary, shortTermBefore = meter.shortTerm
        meter.reset()
        XCTAssertEqual(meter.integrated, Decibels.floor)
        XCTAssertEqual(meter.range, 0)
        XCTAssertEqual(meter.maxMomentary, Decibels.floor)
        XCTAssertEqual(meter.maxShortTerm, Decibels.floor)
        XCTAssertEqual(meter.momentary, momentaryBefore, "the sliding windows carry on")
        XCTAssertEqual(meter.shortTerm, shortTermBefore)

        // Reset in the middle of a sub-block, then a quieter tone: the integration covers only what came after.
        let quiet = ToneBuilder.render([(10, -30)])
        feed(meter, [quiet, quiet], blockSize: 100)
        assertReading(meter.integrated, -30, 0.01, "integrated after reset")
        XCTAssertEqual(meter.range, 0, "a steady tone after the reset")
        assertReading(meter.maxShortTerm, -20, 0.01, "max S takes the evaluations after the reset, windows and all")
    }

    func testResetWhenTheWindowsAreSilentStartsTheMaximaAfresh() {
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.left, .right])
        let first = ToneBuilder.render([(5, -15), (4, nil)])
        feed(meter, [first, first], blockSize: 512)
        meter.reset()
        let second = ToneBuilder.render([(10, -30)])
        feed(meter, [second, second], blockSize: 512)
        assertReading(meter.maxMomentary, -30, 0.01, "max M after reset")
        assertReading(meter.maxShortTerm, -30, 0.01, "max S after reset")
        assertReading(meter.integrated, -30, 0.01, "I after reset")
    }

    func testSignalsAboveFullScaleStayExact() {
        // JACK floats are not clipped: a tone at +6 then +9 dBFS per channel (stereo) still reads to the letter.
        let tone = ToneBuilder.render([(10, 6), (10, 9)])
        let r = measureAtEveryBlockSize([tone, tone], roles: [.left, .right], label: "tone at +6/+9 dBFS")
        assertReading(r.momentary, 9.007, 0.002, "M at +9 dBFS")
        assertReading(r.maxShortTerm, 9.007, 0.002, "max S at +9 dBFS")
        let expected = 10 * log10((pow(10, 0.6) + pow(10, 0.9)) / 2) + 0.007
        assertReading(r.integrated, expected, 0.01, "I of +6/+9 dBFS")
        assertReading(r.range, 3, 0.05, "LRA of +6/+9 dBFS")
    }

    func testIntegratedAgreesWithAnExactGatedMeanOnNoise() {
        // The histogram's one approximation is the bin that straddles the relative gate. Against an exact
        // computation from the same blocks (every 15th sub-block's momentary energy, recomputed here from the
        // K-weighted signal), noise in level steps spanning the gate agrees within 0.01 LU.
        var noise = SplitMix(seed: 11)
        var samples: [Float] = []
        for amplitude in [0.3, 0.02, 0.1, 0.03, 0.2, 0.01, 0.06] {
            for _ in 0..<(5 * 48_000) { samples.append(Float(amplitude * noise.nextSigned())) }
        }
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.centre])
        feed(meter, [samples], blockSize: 333)

        var reference = KWeighting.Reference(KWeighting(sampleRate: 48_000))
        var subBlocks: [Double] = []
        var sum = 0.0
        for (i, x) in samples.enumerated() {
            let z = reference.process(Double(x))
            sum += z * z
            if (i + 1) % 320 == 0 {
                subBlocks.append(sum)
                sum = 0
            }
        }
        var blocks: [Double] = []
        for end in stride(from: 60, through: subBlocks.count, by: 15) {
            blocks.append(subBlocks[(end - 60)..<end].reduce(0, +) / (60 * 320))
        }
        let absolute = blocks.filter { LoudnessUnits.lufs(energy: $0) > -70 }
        let gate = absolute.reduce(0, +) / Double(absolute.count) * 0.1
        let kept = absolute.filter { $0 > gate }
        let exact = LoudnessUnits.lufs(energy: kept.reduce(0, +) / Double(kept.count))
        print("[loudness] gated noise: histogram \(meter.integrated), exact \(exact)")
        assertReading(meter.integrated, exact, 0.01, "integrated vs an exact gated mean")
    }

    func testTenMinutesOfToneStayExactWithoutAllocating() {
        // 6,000 gating blocks and 5,971 short-term values go into the fixed histograms: no allocation, and the
        // readings of a steady tone stay exact.
        let meter = LoudnessMeter(sampleRate: 48_000, roles: [.centre])
        let period = ToneBuilder.render([(1, -20)])  // 1 s = 1000 whole periods of 1 kHz
        let pointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 1)
        defer { pointers.deallocate() }
        var allocations: Int64 = 0
        period.withUnsafeBufferPointer { buffer in
            pointers[0] = buffer.baseAddress!
            for _ in 0..<600 {
                jacktap_allocations_begin()
                meter.process(UnsafePointer(pointers), count: buffer.count)
                allocations += jacktap_allocations_end()
            }
        }
        XCTAssertEqual(allocations, 0)
        assertReading(meter.integrated, -20 - 3.0103 + 0.007, 0.002, "10 minutes of a mono 1 kHz tone")
        XCTAssertEqual(meter.range, 0)
    }
}
