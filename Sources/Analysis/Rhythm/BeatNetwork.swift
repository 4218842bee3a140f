import Foundation

/// The learned beat activation: a stack of gated recurrent units (Cho et al. 2014, PyTorch's `nn.GRU`
/// equations) over `BeatFeatures`, run causally one frame at a time, and a logistic output: how much the
/// newest frame looks like a beat, 0…1; or a causal temporal convolution network in place of the GRUs
/// (`BeatConvolutionNetwork`, a format-3 weights file). With several networks in the weights file, the mean of
/// their outputs.
///
/// The weights are copied into buffers allocated in `init`; `step` writes only into them, in a fixed order of
/// operations, so the same input gives the same activation to the bit on every run, at any `--threads`.
final class BeatNetwork {
    let weights: BeatNetworkWeights
    private let inputCount: Int
    private let memberCount: Int
    /// Per member: its first layer (an index into the layers), its layer count, and offsets into `normalisation`
    /// of its input mean and scale, and into `outputWeights` of its output weights.
    private let memberShape: UnsafeMutablePointer<Int>
    private let outputBiases: UnsafeMutablePointer<Float>
    /// Per layer: inputs, hidden size, and offsets into `parameters` of weight_ih, weight_hh, bias_ih, bias_hh.
    /// The weight matrices are held in blocks of eight rows (`blockRows`), the biases padded to match.
    private let shape: UnsafeMutablePointer<Int>
    private let parameters: UnsafeMutablePointer<Float>
    private let normalisation: UnsafeMutablePointer<Float>
    private let outputWeights: UnsafeMutablePointer<Float>
    /// Per layer its hidden state (at `stateOffset`), and scratch for the gates.
    private let state: UnsafeMutablePointer<Float>
    private let stateOffset: UnsafeMutablePointer<Int>
    private let input: UnsafeMutablePointer<Float>
    private let gatesInput: UnsafeMutablePointer<Float>
    private let gatesHidden: UnsafeMutablePointer<Float>
    private let stateCount: Int
    /// Per member, its convolution network if it is one (its GRU layers are then none).
    private let convolutions: [BeatConvolutionNetwork?]

    init(weights: BeatNetworkWeights) {
        self.weights = weights
        inputCount = weights.inputCount
        memberCount = weights.members.count
        let layers = weights.members.flatMap(\.layers)
        memberShape = .allocate(capacity: 4 * memberCount)
        outputBiases = .allocate(capacity: memberCount)
        shape = .allocate(capacity: 6 * layers.count)
        stateOffset = .allocate(capacity: layers.count)
        var flat = [Float](), scaling = [Float](), outputs = [Float]()
        var states = 0, l = 0
        for (m, member) in weights.members.enumerated() {
            memberShape[4 * m] = l
            memberShape[4 * m + 1] = member.layers.count
            memberShape[4 * m + 2] = scaling.count
            memberShape[4 * m + 3] = outputs.count
            scaling += member.inputMean + member.inputScale
            outputs += member.outputWeight
            outputBiases[m] = member.outputBias
            for layer in member.layers {
                shape[6 * l] = layer.inputs
                shape[6 * l + 1] = layer.hidden
                let rows = 3 * layer.hidden
                for (k, part) in [Self.blockRows(layer.weightIH, rows: rows, columns: layer.inputs),
                                  Self.blockRows(layer.weightHH, rows: rows, columns: layer.hidden),
                                  Self.padded(layer.biasIH), Self.padded(layer.biasHH)].enumerated() {
                    shape[6 * l + 2 + k] = flat.count
                    flat += part
                }
                stateOffset[l] = states
                states += layer.hidden
                l += 1
            }
        }
        parameters = .allocate(capacity: flat.count)
        parameters.initialize(from: flat, count: flat.count)
        normalisation = .allocate(capacity: scaling.count)
        normalisation.initialize(from: scaling, count: scaling.count)
        outputWeights = .allocate(capacity: outputs.count)
        outputWeights.initialize(from: outputs, count: outputs.count)
        stateCount = states
        state = .allocate(capacity: states)
        input = .allocate(capacity: inputCount)
        let largestGates = VectorLoops.wholeLanes(3 * (layers.map(\.hidden).max() ?? 1))
        gatesInput = .allocate(capacity: largestGates)
        gatesHidden = .allocate(capacity: largestGates)
        convolutions = weights.members.map { member in
            member.convolution.map {
                BeatConvolutionNetwork($0, inputCount: weights.inputCount, outputWeight: member.outputWeight,
                                       outputBias: member.outputBias)
            }
        }
        reset()
    }

    deinit {
        memberShape.deallocate()
        outputBiases.deallocate()
        shape.deallocate()
        stateOffset.deallocate()
        parameters.deallocate()
        normalisation.deallocate()
        outputWeights.deallocate()
        state.deallocate()
        input.deallocate()
        gatesInput.deallocate()
        gatesHidden.deallocate()
    }

    /// Forgets the music heard: every hidden state, and every convolution network's past inputs, back to zero.
    func reset() {
        state.initialize(repeating: 0, count: stateCount)
        for convolution in convolutions { convolution?.reset() }
    }

    /// The activation of one frame of features (`weights.inputCount` values): the mean of the members' outputs,
    /// summed in the file's order.
    func step(_ features: UnsafePointer<Float>) -> Float {
        var total: Float = 0
        for m in 0..<memberCount {
            total += member(m, features)
        }
        return total / Float(memberCount)
    }

    /// Member `m`'s output for the frame, its hidden states moved on.
    private func member(_ m: Int, _ features: UnsafePointer<Float>) -> Float {
        let mean = normalisation + memberShape[4 * m + 2], scale = mean + inputCount
        for i in 0..<inputCount { input[i] = (features[i] - mean[i]) * scale[i] }
        if let convolution = convolutions[m] { return Self.sigmoid(convolution.step(input)) }
        var x = UnsafePointer(input)
        let first = memberShape[4 * m], end = first + memberShape[4 * m + 1]
        for l in first..<end {
            let inputs = shape[6 * l], hidden = shape[6 * l + 1]
            let h = state + stateOffset[l]
            Self.affine(parameters + shape[6 * l + 2], x, inputs, bias: parameters + shape[6 * l + 4],
                        rows: 3 * hidden, into: gatesInput)
            Self.affine(parameters + shape[6 * l + 3], h, hidden, bias: parameters + shape[6 * l + 5],
                        rows: 3 * hidden, into: gatesHidden)
            for j in 0..<hidden {
                let r = Self.sigmoid(gatesInput[j] + gatesHidden[j])
                let z = Self.sigmoid(gatesInput[hidden + j] + gatesHidden[hidden + j])
                let n = tanhf(gatesInput[2 * hidden + j] + r * gatesHidden[2 * hidden + j])
                h[j] = (1 - z) * n + z * h[j]
            }
            x = UnsafePointer(h)
        }
        let last = shape[6 * (end - 1) + 1]
        let weight = outputWeights + memberShape[4 * m + 3]
        var sum = outputBiases[m]
        for j in 0..<last { sum += weight[j] * x[j] }
        return Self.sigmoid(sum)
    }

    /// out[r] = bias[r] + Σ_c matrix[r, c] · vector[c], for eight rows at a time (`blockRows`' layout): each
    /// column adds its eight weights times one input to eight running sums, in the order of the columns. With a
    /// dot product per row, its eight lanes summed across at the row's end, the network took 35.8 M callgrind
    /// instructions of `Benchmarks/beat-cost`'s learned run; 22.3 M so.
    private static func affine(_ matrix: UnsafePointer<Float>, _ vector: UnsafePointer<Float>, _ columns: Int,
                               bias: UnsafePointer<Float>, rows: Int, into out: UnsafeMutablePointer<Float>) {
        typealias Lanes = VectorLoops.Lanes
        let lanes = Lanes.scalarCount
        var block = 0
        while block < rows {
            var sums = UnsafeRawPointer(bias + block).loadUnaligned(as: Lanes.self)
            let weights = matrix + block * columns
            for c in 0..<columns {
                let column = UnsafeRawPointer(weights + lanes * c).loadUnaligned(as: Lanes.self)
                sums += column * Lanes(repeating: vector[c])
            }
            UnsafeMutableRawPointer(out + block).storeBytes(of: sums, as: Lanes.self)
            block += lanes
        }
    }

    /// `values` with zeros after them up to a whole number of blocks of eight.
    private static func padded(_ values: [Float]) -> [Float] {
        values + [Float](repeating: 0, count: VectorLoops.wholeLanes(values.count) - values.count)
    }

    /// A row-major `rows` × `columns` matrix laid out for `affine`: for each block of eight rows, column by
    /// column, the eight rows' weights of that column (rows past `rows` zero).
    private static func blockRows(_ matrix: [Float], rows: Int, columns: Int) -> [Float] {
        let lanes = VectorLoops.Lanes.scalarCount
        var blocked = [Float](repeating: 0, count: VectorLoops.wholeLanes(rows) * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                blocked[(r / lanes * columns + c) * lanes + r % lanes] = matrix[r * columns + c]
            }
        }
        return blocked
    }

    private static func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }
}
