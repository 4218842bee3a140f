import Foundation

/// One causal temporal convolution network of the learned beat activation (Bai, Kolter and Koltun 2018; for beats,
/// Davies and Böck 2019), run one frame at a time: a 1×1 layer takes the normalised features to `channels`, then
/// each residual layer adds to them a 1×1 mix of the ELU of a convolution of `kernel` taps dilated 1, 2, 4, … frames
/// into the past (PyTorch's `Conv1d` over its input padded with zeros on the left only), and the output layer's
/// logit is returned. With `kernel` 5 and seven layers a frame reads the last 509 frames, 4.4 s: two bars at 110 BPM,
/// where a recurrent network's memory of them fades.
///
/// Each layer keeps the last (kernel − 1) · dilation + 1 frames of its input in a ring allocated in `init`;
/// `step` writes only into buffers allocated there, in a fixed order of operations, so the same input gives the
/// same logit to the bit on every run.
final class BeatConvolutionNetwork {
    private let inputCount: Int
    private let channels: Int
    private let kernel: Int
    private let layerCount: Int
    private let dilation: UnsafeMutablePointer<Int>
    /// Per layer: where its ring of (kernel − 1) · dilation + 1 frames starts in `history`.
    private let ringOffset: UnsafeMutablePointer<Int>
    /// Per layer: the slot of the newest frame in its ring.
    private let newest: UnsafeMutablePointer<Int>
    private let history: UnsafeMutablePointer<Float>
    private let historyCount: Int
    /// The input layer (channels × inputs, then channels of bias); per layer the convolution's taps rearranged
    /// tap by tap (kernel × channels × channels: tap k's matrix applies to the frame (kernel − 1 − k) · dilation
    /// back), its bias, the mix (channels × channels) and its bias; the output's weights and bias.
    private let parameters: UnsafeMutablePointer<Float>
    private let layerParameters: Int
    private let outputOffset: Int
    private let state: UnsafeMutablePointer<Float>
    private let convolved: UnsafeMutablePointer<Float>

    init(_ body: BeatNetworkWeights.Convolution, inputCount: Int, outputWeight: [Float], outputBias: Float) {
        self.inputCount = inputCount
        channels = body.channels
        kernel = body.kernel
        layerCount = body.dilations.count
        dilation = .allocate(capacity: layerCount)
        ringOffset = .allocate(capacity: layerCount)
        newest = .allocate(capacity: layerCount)
        var total = 0
        for (l, d) in body.dilations.enumerated() {
            dilation[l] = d
            ringOffset[l] = total
            total += ((body.kernel - 1) * d + 1) * body.channels
        }
        historyCount = total
        history = .allocate(capacity: total)
        var flat = body.inputWeight + body.inputBias
        let c = body.channels
        for l in 0..<layerCount {
            let taps = body.convolutionWeights[l]
            for k in 0..<body.kernel {
                for o in 0..<c {
                    for i in 0..<c { flat.append(taps[(o * c + i) * body.kernel + k]) }
                }
            }
            flat += body.convolutionBiases[l] + body.mixWeights[l] + body.mixBiases[l]
        }
        layerParameters = body.kernel * c * c + c + c * c + c
        outputOffset = flat.count
        flat += outputWeight + [outputBias]
        parameters = .allocate(capacity: flat.count)
        parameters.initialize(from: flat, count: flat.count)
        state = .allocate(capacity: c)
        convolved = .allocate(capacity: c)
        reset()
        // The first dot product instantiates the SIMD lanes' type metadata, which allocates (in a debug build):
        // done here, not in the first `step`.
        convolved[0] = VectorLoops.dot(state, state, count: c)
    }

    deinit {
        dilation.deallocate()
        ringOffset.deallocate()
        newest.deallocate()
        history.deallocate()
        parameters.deallocate()
        state.deallocate()
        convolved.deallocate()
    }

    /// Forgets the music heard: every layer's past inputs back to zero (the padding it was trained with).
    func reset() {
        history.initialize(repeating: 0, count: historyCount)
        newest.initialize(repeating: 0, count: layerCount)
    }

    /// The output logit of one frame of normalised features (`inputCount` values), every ring moved on.
    func step(_ normalised: UnsafePointer<Float>) -> Float {
        let c = channels
        let inputBias = parameters + c * inputCount
        for o in 0..<c {
            state[o] = inputBias[o] + VectorLoops.dot(parameters + o * inputCount, normalised, count: inputCount)
        }
        for l in 0..<layerCount {
            let d = dilation[l], ring = history + ringOffset[l], length = (kernel - 1) * d + 1
            let slot = newest[l] + 1 == length ? 0 : newest[l] + 1
            newest[l] = slot
            let newestFrame = ring + slot * c
            for o in 0..<c { newestFrame[o] = state[o] }
            let taps = parameters + c * (inputCount + 1) + l * layerParameters
            let bias = taps + kernel * c * c, mix = bias + c, mixBias = mix + c * c
            for o in 0..<c { convolved[o] = bias[o] }
            for k in 0..<kernel {
                var frame = slot - (kernel - 1 - k) * d
                if frame < 0 { frame += length }
                let past = UnsafePointer(ring + frame * c), matrix = taps + k * c * c
                for o in 0..<c { convolved[o] += VectorLoops.dot(matrix + o * c, past, count: c) }
            }
            // ELU (α = 1), as PyTorch's.
            for o in 0..<c { convolved[o] = convolved[o] > 0 ? convolved[o] : expm1f(convolved[o]) }
            for o in 0..<c { state[o] += mixBias[o] + VectorLoops.dot(mix + o * c, convolved, count: c) }
        }
        let weight = parameters + outputOffset
        return weight[c] + VectorLoops.dot(weight, state, count: c)
    }
}
