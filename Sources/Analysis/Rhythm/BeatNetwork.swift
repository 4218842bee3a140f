import Foundation

/// The learned beat activation: a stack of gated recurrent units (Cho et al. 2014, PyTorch's `nn.GRU`
/// equations) over `BeatFeatures`, run causally one frame at a time, and a logistic output: how much the
/// newest frame looks like a beat, 0…1.
///
/// The weights are copied into buffers allocated in `init`; `step` writes only into them, in a fixed order of
/// operations, so the same input gives the same activation to the bit on every run, at any `--threads`.
final class BeatNetwork {
    let weights: BeatNetworkWeights
    private let inputCount: Int
    private let layerCount: Int
    /// Per layer: inputs, hidden size, and offsets into `parameters` of weight_ih, weight_hh, bias_ih, bias_hh.
    private let shape: UnsafeMutablePointer<Int>
    private let parameters: UnsafeMutablePointer<Float>
    private let mean: UnsafeMutablePointer<Float>
    private let scale: UnsafeMutablePointer<Float>
    private let outputWeight: UnsafeMutablePointer<Float>
    private let outputBias: Float
    /// Per layer its hidden state (at `stateOffset`), and scratch for the gates.
    private let state: UnsafeMutablePointer<Float>
    private let stateOffset: UnsafeMutablePointer<Int>
    private let input: UnsafeMutablePointer<Float>
    private let gatesInput: UnsafeMutablePointer<Float>
    private let gatesHidden: UnsafeMutablePointer<Float>
    private let stateCount: Int

    init(weights: BeatNetworkWeights) {
        self.weights = weights
        inputCount = weights.inputCount
        layerCount = weights.layers.count
        shape = .allocate(capacity: 6 * layerCount)
        stateOffset = .allocate(capacity: layerCount)
        var flat = [Float]()
        var states = 0
        for (l, layer) in weights.layers.enumerated() {
            shape[6 * l] = layer.inputs
            shape[6 * l + 1] = layer.hidden
            for (k, part) in [layer.weightIH, layer.weightHH, layer.biasIH, layer.biasHH].enumerated() {
                shape[6 * l + 2 + k] = flat.count
                flat += part
            }
            stateOffset[l] = states
            states += layer.hidden
        }
        parameters = .allocate(capacity: flat.count)
        parameters.initialize(from: flat, count: flat.count)
        mean = .allocate(capacity: inputCount)
        mean.initialize(from: weights.inputMean, count: inputCount)
        scale = .allocate(capacity: inputCount)
        scale.initialize(from: weights.inputScale, count: inputCount)
        outputWeight = .allocate(capacity: weights.outputWeight.count)
        outputWeight.initialize(from: weights.outputWeight, count: weights.outputWeight.count)
        outputBias = weights.outputBias
        stateCount = states
        state = .allocate(capacity: states)
        input = .allocate(capacity: inputCount)
        let largestGates = 3 * (weights.hiddenSizes.max() ?? 1)
        gatesInput = .allocate(capacity: largestGates)
        gatesHidden = .allocate(capacity: largestGates)
        reset()
    }

    deinit {
        shape.deallocate()
        stateOffset.deallocate()
        parameters.deallocate()
        mean.deallocate()
        scale.deallocate()
        outputWeight.deallocate()
        state.deallocate()
        input.deallocate()
        gatesInput.deallocate()
        gatesHidden.deallocate()
    }

    /// Forgets the music heard: every hidden state back to zero.
    func reset() {
        state.initialize(repeating: 0, count: stateCount)
    }

    /// The activation of one frame of features (`weights.inputCount` values).
    func step(_ features: UnsafePointer<Float>) -> Float {
        for i in 0..<inputCount { input[i] = (features[i] - mean[i]) * scale[i] }
        var x = UnsafePointer(input)
        for l in 0..<layerCount {
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
        let last = shape[6 * (layerCount - 1) + 1]
        var sum = outputBias
        for j in 0..<last { sum += outputWeight[j] * x[j] }
        return Self.sigmoid(sum)
    }

    /// out[r] = bias[r] + Σ_c matrix[r·columns + c] · vector[c], eight lanes at a time.
    private static func affine(_ matrix: UnsafePointer<Float>, _ vector: UnsafePointer<Float>, _ columns: Int,
                               bias: UnsafePointer<Float>, rows: Int, into out: UnsafeMutablePointer<Float>) {
        for r in 0..<rows {
            out[r] = bias[r] + VectorLoops.dot(matrix + r * columns, vector, count: columns)
        }
    }

    private static func sigmoid(_ x: Float) -> Float { 1 / (1 + expf(-x)) }
}
