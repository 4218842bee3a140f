@testable import Analysis
import Foundation
import ToolSupport
import XCTest

/// The learned beat activation: the shipped weights load and fit the features, a damaged file is refused with a
/// reason, and the GRU computes PyTorch's equations, the same to the bit on every run.
final class BeatNetworkTests: XCTestCase {
    /// A weights file as eval/beat_weights.py writes it, for a network of `hidden` units over `inputs` inputs.
    static func weightsFile(inputs: Int, hidden: [Int], text: String = "test", features: UInt32 = 1,
                            values: (Int) -> Float) -> Data {
        var body = Data("JTBEATNN".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        u32(1)
        u32(features)
        u32(UInt32(inputs))
        u32(UInt32(hidden.count))
        hidden.forEach { u32(UInt32($0)) }
        u32(UInt32(text.utf8.count))
        body.append(contentsOf: Array(text.utf8))
        var count = 2 * inputs
        var previous = inputs
        for h in hidden {
            count += 3 * h * previous + 3 * h * h + 6 * h
            previous = h
        }
        count += previous + 1
        for i in 0..<count { withUnsafeBytes(of: values(i).bitPattern.littleEndian) { body.append(contentsOf: $0) } }
        let checksum = BeatNetworkWeights.fnv1a64(body)
        withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
        return body
    }

    /// A causal temporal convolution network's file (format 3), as eval/beat_weights.py's `write_tcn` writes it:
    /// `values(i)` gives the i-th float after the text (mean, scale, input layer, each layer's convolution, its bias,
    /// its mix and that bias, the output layer).
    static func convolutionFile(inputs: Int, channels: Int, kernel: Int, dilations: [Int], text: String = "test",
                                features: UInt32 = 1, values: (Int) -> Float) -> Data {
        var body = Data("JTBEATNN".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        [3, features, UInt32(inputs), UInt32(channels), UInt32(kernel), UInt32(dilations.count)].forEach(u32)
        dilations.forEach { u32(UInt32($0)) }
        u32(UInt32(text.utf8.count))
        body.append(contentsOf: Array(text.utf8))
        let count = 2 * inputs + channels * inputs + channels
            + dilations.count * (channels * channels * kernel + channels + channels * channels + channels) + channels + 1
        for i in 0..<count { withUnsafeBytes(of: values(i).bitPattern.littleEndian) { body.append(contentsOf: $0) } }
        let checksum = BeatNetworkWeights.fnv1a64(body)
        withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
        return body
    }

    /// A file of networks whose activations are averaged (format 2), as eval/average-beat-networks writes it.
    static func averageFile(_ members: [Data], count: Int? = nil, text: String = "average") -> Data {
        var body = Data("JTBEATNN".utf8)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { body.append(contentsOf: $0) } }
        u32(2)
        u32(UInt32(count ?? members.count))
        u32(UInt32(text.utf8.count))
        body.append(contentsOf: Array(text.utf8))
        for member in members {
            u32(UInt32(member.count))
            body.append(member)
        }
        let checksum = BeatNetworkWeights.fnv1a64(body)
        withUnsafeBytes(of: checksum.littleEndian) { body.append(contentsOf: $0) }
        return body
    }

    func testTheShippedWeightsLoadFitTheFeaturesAndStateTheirData() throws {
        let weights = try BeatNetworkWeights.bundled.get()
        let framing = RhythmFraming(sampleRate: 44_100)
        let flux = SpectralFlux(framing: framing)
        let features = BeatFeatures(version: weights.featureVersion, lowBin: flux.lowBin, binCount: flux.binCount,
                                    binHz: flux.binHz, framing: framing, decimation: BeatActivation.decimation)
        defer { features.deallocate() }
        XCTAssertEqual(weights.inputCount, features.inputCount)
        XCTAssertTrue(weights.provenance.contains("Licences of the training data"), weights.provenance)
        XCTAssertTrue(weights.provenance.contains("held-out"), weights.provenance)
    }

    func testTheFeaturesHaveTheSameBandsAtEverySampleRate() throws {
        for rate in [44_100.0, 48_000, 88_200, 96_000, 192_000] {
            let framing = RhythmFraming(sampleRate: rate)
            let flux = SpectralFlux(framing: framing)
            let features = BeatFeatures(version: 2, lowBin: flux.lowBin, binCount: flux.binCount, binHz: flux.binHz,
                                        framing: framing, decimation: BeatActivation.decimation)
            XCTAssertEqual(features.bandCount, 41, "at \(rate) Hz")
            // Version 2's semitone bands: the same count, each holding at least one bin, and the rise
            // compared over half the long window (5 frames of 8.7 ms against 93 ms).
            let long = try XCTUnwrap(features.long)
            XCTAssertEqual(long.bandCount, LongWindowBands.lowerEdges.count, "at \(rate) Hz")
            XCTAssertEqual(long.binsPerBand.filter { $0 == 0 }.count, 0, "at \(rate) Hz: \(long.binsPerBand)")
            XCTAssertEqual(long.lag, 5, "at \(rate) Hz")
            features.deallocate()
        }
    }

    /// Version 3 reads each band's value less the exponential mean of the band's values before it (weight 1/115 a
    /// frame), and version 1's rises: a steady spectrum fades to 0 as (1 − 1/115)^n and a step reads as the step
    /// less what the mean had reached.
    func testVersionThreeTakesEachBandAgainstItsRunningMean() throws {
        let framing = RhythmFraming(sampleRate: 48_000)
        let flux = SpectralFlux(framing: framing)
        func make(_ version: UInt32) -> BeatFeatures {
            BeatFeatures(version: version, lowBin: flux.lowBin, binCount: flux.binCount, binHz: flux.binHz,
                         framing: framing, decimation: BeatActivation.decimation)
        }
        var plain = make(1)
        var relative = make(3)
        defer {
            plain.deallocate()
            relative.deallocate()
        }
        XCTAssertEqual(relative.inputCount, plain.inputCount)
        XCTAssertNil(relative.long)
        let magnitudes = UnsafeMutablePointer<Float>.allocate(capacity: flux.binCount)
        defer { magnitudes.deallocate() }
        let rate = 1.0 / 115
        let (steady, stepped, stepFrame) = (2.0, 3.0, 200)
        var mean = 0.0  // the running mean before the frame, written out from its definition
        for frame in 0..<300 {
            let level = frame < stepFrame ? steady : stepped
            magnitudes.initialize(repeating: Float(level), count: flux.binCount)
            for _ in 0..<BeatActivation.decimation {
                _ = plain.push(magnitudes, decimation: BeatActivation.decimation)
                _ = relative.push(magnitudes, decimation: BeatActivation.decimation)
            }
            let expected = level - mean
            mean += rate * (level - mean)
            if frame < stepFrame {
                XCTAssertEqual(expected, steady * pow(1 - rate, Double(frame)), accuracy: 1e-9)
            }
            for b in 0..<plain.bandCount {
                XCTAssertEqual(Double(plain.vector[b]), level, accuracy: 1e-6, "version 1, frame \(frame), band \(b)")
                XCTAssertEqual(Double(relative.vector[b]), expected, accuracy: 1e-4, "frame \(frame), band \(b)")
                XCTAssertEqual(relative.vector[plain.bandCount + b], plain.vector[plain.bandCount + b],
                               "the rise, frame \(frame), band \(b)")
            }
        }
        // The step's frame: 3 less a mean that had reached 2 (1 − (1 − 1/115)^200) = 1.65.
        XCTAssertGreaterThan(stepped - steady * (1 - pow(1 - rate, Double(stepFrame))), 1.3)
    }

    func testADamagedOrForeignFileIsRefusedWithAReason() throws {
        let good = Self.weightsFile(inputs: 2, hidden: [3]) { Float($0 % 7) * 0.1 }
        XCTAssertNoThrow(try BeatNetworkWeights(data: good))
        var flipped = good
        flipped[40] ^= 0x01
        XCTAssertThrowsError(try BeatNetworkWeights(data: flipped)) { error in
            XCTAssertTrue("\(error)".contains("checksum"), "\(error)")
        }
        XCTAssertThrowsError(try BeatNetworkWeights(data: good.prefix(good.count - 12))) { error in
            XCTAssertTrue("\(error)".contains("checksum"), "\(error)")
        }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Data("RIFF....WAVEfmt ".utf8))) { error in
            XCTAssertTrue("\(error)".contains("JTBEATNN"), "\(error)")
        }
        let otherFeatures = Self.weightsFile(inputs: 2, hidden: [3], features: 9) { _ in 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: otherFeatures)) { error in
            XCTAssertTrue("\(error)".contains("features version 9"), "\(error)")
        }
        let notFinite = Self.weightsFile(inputs: 2, hidden: [3]) { $0 == 5 ? .nan : 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: notFinite)) { error in
            XCTAssertTrue("\(error)".contains("finite"), "\(error)")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID()).jtnn").path
        XCTAssertThrowsError(try BeatNetworkWeights(contentsOf: path)) { error in
            XCTAssertTrue("\(error)".contains(path) && "\(error)".contains("missing"), "\(error)")
        }
    }

    /// Two networks of different shapes in one file: each frame's activation is the mean of what each gives alone,
    /// to the bit, and each keeps its own hidden state.
    func testAnAverageOfNetworksGivesTheMeanOfTheirActivations() throws {
        let one = Self.weightsFile(inputs: 3, hidden: [2]) { Float(($0 * 37) % 11) * 0.13 - 0.6 }
        let two = Self.weightsFile(inputs: 3, hidden: [4, 2]) { Float(($0 * 53) % 13) * 0.09 - 0.5 }
        let average = try BeatNetworkWeights(data: Self.averageFile([one, two], text: "the mean of two"))
        XCTAssertEqual(average.members.count, 2)
        XCTAssertEqual(average.inputCount, 3)
        XCTAssertEqual(average.provenance, "the mean of two")
        let a = BeatNetwork(weights: try BeatNetworkWeights(data: one))
        let b = BeatNetwork(weights: try BeatNetworkWeights(data: two))
        let both = BeatNetwork(weights: average)
        var changes = 0, previous: Float = -1
        for frame in 0..<200 {
            let features: [Float] = [sinf(Float(frame) * 0.3), cosf(Float(frame) * 0.17), Float(frame % 7) * 0.2]
            let expected = (a.step(features) + b.step(features)) / 2
            let got = both.step(features)
            XCTAssertEqual(got.bitPattern, expected.bitPattern, "frame \(frame)")
            if got != previous { changes += 1 }
            previous = got
        }
        XCTAssertGreaterThan(changes, 100, "the activation moves with its input")
    }

    func testAnAverageWithADamagedForeignOrMismatchedNetworkIsRefused() throws {
        let good = Self.weightsFile(inputs: 2, hidden: [3]) { Float($0 % 7) * 0.1 }
        XCTAssertNoThrow(try BeatNetworkWeights(data: Self.averageFile([good, good])))
        var damaged = good
        damaged[40] ^= 0x01
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([good, damaged]))) { error in
            XCTAssertTrue("\(error)".contains("network 2 of the file") && "\(error)".contains("checksum"), "\(error)")
        }
        let otherFeatures = Self.weightsFile(inputs: 2, hidden: [3], features: 2) { _ in 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([good, otherFeatures]))) { error in
            XCTAssertTrue("\(error)".contains("network 2 of the file") && "\(error)".contains("features version 2"), "\(error)")
        }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([Self.averageFile([good, good]), good]))) { error in
            XCTAssertTrue("\(error)".contains("network 1 of the file") && "\(error)".contains("networks of its own"), "\(error)")
        }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([]))) { error in
            XCTAssertTrue("\(error)".contains("0 networks"), "\(error)")
        }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([good], count: 2))) { error in
            XCTAssertTrue("\(error)".contains("ends early"), "\(error)")
        }
        let wider = Self.weightsFile(inputs: 3, hidden: [3]) { _ in 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Self.averageFile([good, wider]))) { error in
            XCTAssertTrue("\(error)".contains("network 2 of the file") && "\(error)".contains("3 inputs"), "\(error)")
        }
        var newer = Self.averageFile([good, good]).dropLast(8)
        newer[newer.startIndex + 8] = 4
        let checksum = BeatNetworkWeights.fnv1a64(newer)
        withUnsafeBytes(of: checksum.littleEndian) { newer.append(contentsOf: $0) }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Data(newer))) { error in
            XCTAssertTrue("\(error)".contains("weights format 4"), "\(error)")
        }
    }

    /// One input, one unit: the activation follows PyTorch's GRU equations written out by hand here
    /// (r = σ(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = tanh(W_in x + b_in + r (W_hn h + b_hn)),
    /// h' = (1 − z) n + z h) and the logistic output.
    func testAOneUnitGRUComputesPyTorchsEquations() throws {
        // mean, scale, W_ih (r z n), W_hh (r z n), b_ih, b_hh, output weight, output bias.
        let v: [Float] = [0.5, 2, 0.3, -0.7, 1.1, 0.4, 0.9, -0.6, 0.05, -0.1, 0.2, 0.15, 0.25, -0.3, 1.7, -0.4]
        let weights = try BeatNetworkWeights(data: Self.weightsFile(inputs: 1, hidden: [1]) { v[$0] })
        let network = BeatNetwork(weights: weights)
        func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
        var h = 0.0
        for input: Float in [0.0, 1.0, 0.25, -2.0, 3.0] {
            let x = Double((input - v[0]) * v[1])
            let r = sigmoid(Double(v[2]) * x + Double(v[8]) + Double(v[5]) * h + Double(v[11]))
            let z = sigmoid(Double(v[3]) * x + Double(v[9]) + Double(v[6]) * h + Double(v[12]))
            let n = tanh(Double(v[4]) * x + Double(v[10]) + r * (Double(v[7]) * h + Double(v[13])))
            h = (1 - z) * n + z * h
            let expected = sigmoid(Double(v[14]) * h + Double(v[15]))
            var feature = input
            let got = network.step(&feature)
            XCTAssertEqual(Double(got), expected, accuracy: 1e-6, "input \(input)")
        }
    }

    /// One input, one channel, kernel 2, dilations 1 and 2: the activation follows PyTorch's causal convolution
    /// network written out by hand here (h = w x + b; per layer h += m · ELU(c₀ h[t − d] + c₁ h[t] + c) + mb, with
    /// zeros before the first frame; the logistic output).
    func testAOneChannelConvolutionNetworkComputesPyTorchsEquations() throws {
        // mean, scale, input weight and bias; layer 1 taps (c₀, c₁), bias, mix, mix bias; layer 2 the same;
        // output weight and bias.
        let v: [Float] = [0.5, 2, 0.8, -0.1, 0.6, -0.9, 0.2, 1.3, 0.05, -0.7, 0.4, -0.3, 0.9, 0.1, 1.5, -0.2]
        let weights = try BeatNetworkWeights(data: Self.convolutionFile(inputs: 1, channels: 1, kernel: 2,
                                                                      dilations: [1, 2]) { v[$0] })
        let network = BeatNetwork(weights: weights)
        func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
        func elu(_ x: Double) -> Double { x > 0 ? x : expm1(x) }
        var first = [Double](), second = [Double]()  // each layer's inputs so far
        for input: Float in [0.0, 1.0, 0.25, -2.0, 3.0, 1.5, -0.5] {
            let x = Double((input - v[0]) * v[1])
            var h = Double(v[2]) * x + Double(v[3])
            first.append(h)
            let back1 = first.count > 1 ? first[first.count - 2] : 0
            h += Double(v[7]) * elu(Double(v[4]) * back1 + Double(v[5]) * h + Double(v[6])) + Double(v[8])
            second.append(h)
            let back2 = second.count > 2 ? second[second.count - 3] : 0
            h += Double(v[12]) * elu(Double(v[9]) * back2 + Double(v[10]) * h + Double(v[11])) + Double(v[13])
            let expected = sigmoid(Double(v[14]) * h + Double(v[15]))
            var feature = input
            XCTAssertEqual(Double(network.step(&feature)), expected, accuracy: 1e-6, "input \(input)")
        }
        network.reset()
        var feature: Float = 0
        let restarted = sigmoid(Double(v[14]) * ({ () -> Double in
            var h = Double(v[2]) * Double((0 - v[0]) * v[1]) + Double(v[3])
            h += Double(v[7]) * elu(Double(v[5]) * h + Double(v[6])) + Double(v[8])
            h += Double(v[12]) * elu(Double(v[10]) * h + Double(v[11])) + Double(v[13])
            return h
        }()) + Double(v[15]))
        XCTAssertEqual(Double(network.step(&feature)), restarted, accuracy: 1e-6, "after reset, the past is zeros again")
    }

    /// A convolution network's file with a wrong length, a weight that is not a number or an impossible shape is
    /// refused with the reason.
    func testADamagedConvolutionNetworkFileIsRefusedWithAReason() throws {
        let good = Self.convolutionFile(inputs: 2, channels: 3, kernel: 3, dilations: [1, 2]) { Float($0 % 5) * 0.1 }
        XCTAssertNoThrow(try BeatNetworkWeights(data: good))
        let notFinite = Self.convolutionFile(inputs: 2, channels: 3, kernel: 3, dilations: [1, 2]) { $0 == 20 ? .infinity : 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: notFinite)) { error in
            XCTAssertTrue("\(error)".contains("finite"), "\(error)")
        }
        let zeroDilation = Self.convolutionFile(inputs: 2, channels: 3, kernel: 3, dilations: [1, 0]) { _ in 0.1 }
        XCTAssertThrowsError(try BeatNetworkWeights(data: zeroDilation)) { error in
            XCTAssertTrue("\(error)".contains("dilation 0"), "\(error)")
        }
        var short = good.dropLast(8).dropLast(4)
        let checksum = BeatNetworkWeights.fnv1a64(short)
        withUnsafeBytes(of: checksum.littleEndian) { short.append(contentsOf: $0) }
        XCTAssertThrowsError(try BeatNetworkWeights(data: Data(short))) { error in
            XCTAssertTrue("\(error)".contains("ends early"), "\(error)")
        }
    }

    /// The shipped network and a convolution network of GRU-like size (weights from a fixed sequence).
    func testTheSameFeaturesGiveTheSameActivationToTheBit() throws {
        let convolution = try BeatNetworkWeights(data: Self.convolutionFile(
            inputs: 82, channels: 20, kernel: 5, dilations: [1, 2, 4, 8, 16, 32, 64]) { Float(sin(Double($0))) * 0.2 })
        for weights in [try BeatNetworkWeights.bundled.get(), convolution] {
            let a = BeatNetwork(weights: weights), b = BeatNetwork(weights: weights)
            var features = [Float](repeating: 0, count: weights.inputCount)
            var seed: UInt64 = 7
            for frame in 0..<800 {
                for i in features.indices {
                    seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    features[i] = Float(seed >> 40) / Float(1 << 24) * 6
                }
                let x = a.step(features), y = b.step(features)
                XCTAssertEqual(x.bitPattern, y.bitPattern, "frame \(frame)")
                if frame == 600 { b.reset(); a.reset() }
            }
        }
    }

    /// What `jacktap beat-features` records: without a network the newest features (version 2: 41 bands and 92
    /// semitone bands, each with its rise), with the shipped network the version it was trained on and its
    /// activation; recording changes none of the beats.
    func testTheFeatureRecordHoldsTheVersionTheNetworkReadsAndChangesNoBeat() throws {
        let rate = 48_000.0
        let loop = DrumLoop(bpm: 120, sampleRate: rate, seconds: 6, firstBeat: 0.2).render()
        var learned = RhythmConfig()
        learned.learnedActivation = try BeatNetworkWeights.bundled.get()
        learned.beatModel = .learned
        for (config, width) in [(RhythmConfig(), 2 + 2 * 41 + 2 * LongWindowBands.lowerEdges.count),
                                (learned, 2 + (learned.learnedActivation?.inputCount ?? 0))] {
            let recorded = RhythmTracker(config: config, sampleRate: rate)
            recorded.recordFeatures()
            let run = RhythmRun(recorded, loop, chunk: 256)
            XCTAssertEqual(recorded.featureRecordWidth, width)
            let rows = recorded.takeFeatureRecord()
            XCTAssertEqual(rows.count % width, 0)
            let frames = rows.count / width
            XCTAssertEqual(Double(frames), 6 * 115, accuracy: 3, "a row per 8.7 ms frame")
            // Instants rise by a frame; the activation is the network's (0…1), or -1 without one.
            XCTAssertEqual(Double(rows[width] - rows[0]), 3 * 139 / rate, accuracy: 1e-5)
            let activations = (0..<frames).map { rows[$0 * width + 1] }
            if config.learnedActivation == nil {
                XCTAssertTrue(activations.allSatisfy { $0 == -1 })
                // The semitone bands' rises (the last 92 values) speak at the drums' attacks.
                let rises = (0..<frames).map { f in (width - 92..<width).map { rows[f * width + $0] }.reduce(0, +) }
                XCTAssertGreaterThan(rises.max() ?? 0, 10)
            } else {
                XCTAssertTrue(activations.allSatisfy { $0 >= 0 && $0 <= 1 })
                XCTAssertGreaterThan(activations.max() ?? 0, 0.5, "the beats are heard")
            }
            XCTAssertEqual(run.beats, RhythmRun(loop, sampleRate: rate, config: config).beats)
        }
    }
}
