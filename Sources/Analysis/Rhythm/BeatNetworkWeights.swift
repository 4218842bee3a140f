import Foundation

/// The trained weights of the learned beat activation (`BeatNetwork`): one network, or several whose activations
/// are averaged (madmom's beat activation averages eight, Böck et al. 2016: networks trained alike err on different
/// frames). Read once at start from a small file that `eval/train-beat-network` (one network) or
/// `eval/average-beat-networks` (several) writes, and checked: its magic, format, feature definition, every shape
/// against the file's length, a FNV-1a 64 checksum over everything before it, and that every weight is finite.
///
/// Format 1, one network (little-endian): "JTBEATNN"; UInt32 format (1), feature version (one of
/// `BeatFeatures.supportedVersions`), inputs, layers, each layer's hidden size; UInt32 length and that many bytes
/// of UTF-8 text (what the weights were trained on and its licence); Float32 input mean and input scale (inputs
/// each); per GRU layer PyTorch's `weight_ih` (3H × inputs, gates r, z, n), `weight_hh` (3H × H), `bias_ih` and
/// `bias_hh` (3H each); the output layer's weights (H) and bias (1); UInt64 checksum.
///
/// Format 2, networks averaged: "JTBEATNN"; UInt32 format (2), member count (1 to 16); UInt32 length and that many
/// bytes of UTF-8 text; per member a UInt32 length and a whole format-1 or format-3 file of that length (its own
/// checksum checked too); UInt64 checksum. Every member reads the same feature version.
///
/// Format 3, one causal temporal convolution network (`BeatConvolutionNetwork`): "JTBEATNN"; UInt32 format (3),
/// feature version, inputs, channels C, kernel K, layers, each layer's dilation; UInt32 length and that many bytes
/// of UTF-8 text; Float32 input mean and input scale (inputs each); the input layer's weights (C × inputs) and bias
/// (C); per layer its dilated convolution's weights (C × C × K, PyTorch's `Conv1d` order: output, input, tap) and
/// bias (C), and its 1×1 mix's weights (C × C) and bias (C); the output layer's weights (C) and bias (1); UInt64
/// checksum.
public final class BeatNetworkWeights: Sendable, Equatable {
    static let magic = Array("JTBEATNN".utf8)
    static let formatVersions: ClosedRange<UInt32> = 1...3
    static let maximumMembers = 16
    /// The file the package ships, in the Analysis target's resources.
    public static let fileName = "beat-activation.jtnn"

    public let inputCount: Int
    /// The `BeatFeatures` definition the weights were trained on, and that the tracker computes for them.
    public let featureVersion: UInt32
    /// What the file says it was trained on, and the licence of that data.
    public let provenance: String
    /// The checksum the file carries (and matched).
    public let checksum: UInt64
    /// The networks whose activations are averaged (one in a format-1 file).
    let members: [Member]

    /// One network: its input normalisation, GRU layers (or a convolution network, and no GRU layers) and
    /// logistic output.
    struct Member: Sendable {
        let inputMean: [Float]
        let inputScale: [Float]
        let layers: [Layer]
        var convolution: Convolution? = nil
        let outputWeight: [Float]
        let outputBias: Float
    }

    /// A causal temporal convolution network's body (format 3).
    struct Convolution: Sendable {
        let channels: Int
        let kernel: Int
        let dilations: [Int]
        let inputWeight: [Float]
        let inputBias: [Float]
        /// Per layer, in `dilations`' order.
        let convolutionWeights: [[Float]]
        let convolutionBiases: [[Float]]
        let mixWeights: [[Float]]
        let mixBiases: [[Float]]
    }

    struct Layer: Sendable {
        let inputs: Int
        let hidden: Int
        let weightIH: [Float]
        let weightHH: [Float]
        let biasIH: [Float]
        let biasHH: [Float]
    }

    /// Parses and checks the bytes of a weights file.
    public init(data: Data) throws(BeatNetworkWeightsError) {
        var reader = Reader(bytes: [UInt8](data))
        guard data.count >= 8 + 8, Array(data.prefix(8)) == Self.magic else { throw .notWeights }
        let total = data.count - 8
        let stored = UInt64(littleEndian: data.suffix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let computed = Self.fnv1a64(data.prefix(total))
        guard stored == computed else { throw .checksum(stored: stored, computed: computed) }
        reader.offset = 8
        let format = try reader.uint32()
        guard Self.formatVersions.contains(format) else { throw .format(format) }
        if format == 1 || format == 3 {
            let network = format == 1 ? try Self.network(&reader, end: total) : try Self.convolutionNetwork(&reader, end: total)
            (featureVersion, inputCount, provenance, members) = (network.features, network.inputs, network.text, [network.member])
        } else {
            let count = Int(try reader.uint32())
            guard count > 0, count <= Self.maximumMembers else { throw .shape("\(count) networks") }
            let textLength = Int(try reader.uint32())
            provenance = String(decoding: try reader.bytes(textLength), as: UTF8.self)
            var networks = [BeatNetworkWeights]()
            for k in 0..<count {
                let length = Int(try reader.uint32())
                let bytes = try reader.bytes(length)
                let network: BeatNetworkWeights
                do { network = try BeatNetworkWeights(data: Data(bytes)) } catch { throw .member(k + 1, error) }
                guard network.members.count == 1 else { throw .member(k + 1, .shape("a member holds networks of its own")) }
                if let first = networks.first, network.featureVersion != first.featureVersion || network.inputCount != first.inputCount {
                    throw .member(k + 1, .shape("features version \(network.featureVersion) with \(network.inputCount) inputs, "
                                                + "the first network's \(first.featureVersion) with \(first.inputCount)"))
                }
                networks.append(network)
            }
            guard reader.offset == total else { throw .shape("\(total - reader.offset) bytes left after the networks") }
            featureVersion = networks[0].featureVersion
            inputCount = networks[0].inputCount
            members = networks.flatMap(\.members)
        }
        checksum = stored
    }

    /// The rest of a format-1 file after its format: one network, checked to end at `end` with finite weights.
    private static func network(_ reader: inout Reader, end: Int) throws(BeatNetworkWeightsError)
        -> (features: UInt32, inputs: Int, text: String, member: Member)
    {
        let features = try reader.uint32()
        guard BeatFeatures.supportedVersions.contains(features) else { throw .features(features) }
        let inputCount = Int(try reader.uint32())
        let layerCount = Int(try reader.uint32())
        guard inputCount > 0, inputCount <= 4096, layerCount > 0, layerCount <= 8 else { throw .shape("inputs \(inputCount), layers \(layerCount)") }
        let hidden = try reader.sizes(layerCount, upTo: 1024, "hidden size")
        let (text, inputMean, inputScale) = try reader.textAndNormalisation(inputCount)
        var layers = [Layer]()
        var inputs = inputCount
        for h in hidden {
            layers.append(Layer(inputs: inputs, hidden: h, weightIH: try reader.floats(3 * h * inputs),
                                weightHH: try reader.floats(3 * h * h), biasIH: try reader.floats(3 * h),
                                biasHH: try reader.floats(3 * h)))
            inputs = h
        }
        let member = Member(inputMean: inputMean, inputScale: inputScale, layers: layers,
                            outputWeight: try reader.floats(inputs), outputBias: try reader.floats(1)[0])
        guard reader.offset == end else { throw .shape("\(end - reader.offset) bytes left after the weights") }
        let all = member.inputMean + member.inputScale + member.outputWeight + [member.outputBias]
            + layers.flatMap { $0.weightIH + $0.weightHH + $0.biasIH + $0.biasHH }
        guard all.allSatisfy(\.isFinite) else { throw .notFinite }
        return (features, inputCount, text, member)
    }

    /// The rest of a format-3 file after its format: one convolution network, checked to end at `end` with finite
    /// weights.
    private static func convolutionNetwork(_ reader: inout Reader, end: Int) throws(BeatNetworkWeightsError)
        -> (features: UInt32, inputs: Int, text: String, member: Member)
    {
        let features = try reader.uint32()
        guard BeatFeatures.supportedVersions.contains(features) else { throw .features(features) }
        let inputCount = Int(try reader.uint32())
        let channels = Int(try reader.uint32())
        let kernel = Int(try reader.uint32())
        let layerCount = Int(try reader.uint32())
        guard inputCount > 0, inputCount <= 4096, channels > 0, channels <= 256, kernel > 0, kernel <= 16,
              layerCount > 0, layerCount <= 16 else {
            throw .shape("inputs \(inputCount), channels \(channels), kernel \(kernel), layers \(layerCount)")
        }
        let dilations = try reader.sizes(layerCount, upTo: 4096, "dilation")
        let (text, inputMean, inputScale) = try reader.textAndNormalisation(inputCount)
        let inputWeight = try reader.floats(channels * inputCount)
        let inputBias = try reader.floats(channels)
        var convolutionWeights = [[Float]](), convolutionBiases = [[Float]](), mixWeights = [[Float]](), mixBiases = [[Float]]()
        for _ in dilations {
            convolutionWeights.append(try reader.floats(channels * channels * kernel))
            convolutionBiases.append(try reader.floats(channels))
            mixWeights.append(try reader.floats(channels * channels))
            mixBiases.append(try reader.floats(channels))
        }
        let body = Convolution(channels: channels, kernel: kernel, dilations: dilations, inputWeight: inputWeight,
                               inputBias: inputBias, convolutionWeights: convolutionWeights,
                               convolutionBiases: convolutionBiases, mixWeights: mixWeights, mixBiases: mixBiases)
        let member = Member(inputMean: inputMean, inputScale: inputScale, layers: [], convolution: body,
                            outputWeight: try reader.floats(channels), outputBias: try reader.floats(1)[0])
        guard reader.offset == end else { throw .shape("\(end - reader.offset) bytes left after the weights") }
        let all = inputMean + inputScale + inputWeight + inputBias + member.outputWeight + [member.outputBias]
            + (convolutionWeights + convolutionBiases + mixWeights + mixBiases).flatMap { $0 }
        guard all.allSatisfy(\.isFinite) else { throw .notFinite }
        return (features, inputCount, text, member)
    }

    /// Reads and checks the weights file at `path`.
    public convenience init(contentsOf path: String) throws(BeatNetworkWeightsError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        do { try self.init(data: data) } catch { throw .inFile(path, error) }
    }

    /// Where the shipped weights lie beside the running executable: SwiftPM copies the Analysis target's
    /// resources into `jacktap_Analysis.resources` next to the binaries it builds (and the test bundles).
    public static var bundledPath: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        let directory = (executable as NSString).deletingLastPathComponent
        return (directory as NSString).appendingPathComponent("jacktap_Analysis.resources/\(fileName)")
    }

    /// The shipped weights, read and checked once, or why they could not be (missing or corrupt).
    public static let bundled: Result<BeatNetworkWeights, BeatNetworkWeightsError> = {
        do throws(BeatNetworkWeightsError) {
            return .success(try BeatNetworkWeights(contentsOf: bundledPath))
        } catch { return .failure(error) }
    }()

    public static func == (a: BeatNetworkWeights, b: BeatNetworkWeights) -> Bool { a.checksum == b.checksum }

    /// FNV-1a, 64 bits: a checksum any script can compute in a few lines.
    static func fnv1a64(_ bytes: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func bytes(_ count: Int) throws(BeatNetworkWeightsError) -> ArraySlice<UInt8> {
            guard count >= 0, offset + count <= bytes.count - 8 else { throw .shape("the file ends early") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func uint32() throws(BeatNetworkWeightsError) -> UInt32 {
            let b = try bytes(4)
            return b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        /// `count` UInt32 sizes, each 1…`limit` (a `what` out of that range is refused).
        mutating func sizes(_ count: Int, upTo limit: Int, _ what: String) throws(BeatNetworkWeightsError) -> [Int] {
            var sizes = [Int]()
            for _ in 0..<count {
                let size = Int(try uint32())
                guard size > 0, size <= limit else { throw .shape("\(what) \(size)") }
                sizes.append(size)
            }
            return sizes
        }

        /// A network's text (its length, then UTF-8) and its input mean and scale (`inputs` each).
        mutating func textAndNormalisation(_ inputs: Int) throws(BeatNetworkWeightsError)
            -> (text: String, mean: [Float], scale: [Float])
        {
            let length = Int(try uint32())
            let text = String(decoding: try bytes(length), as: UTF8.self)
            return (text, try floats(inputs), try floats(inputs))
        }

        mutating func floats(_ count: Int) throws(BeatNetworkWeightsError) -> [Float] {
            let b = try bytes(4 * count)
            return (0..<count).map { i in
                let s = b.startIndex + 4 * i
                let bits = UInt32(b[s]) | UInt32(b[s + 1]) << 8 | UInt32(b[s + 2]) << 16 | UInt32(b[s + 3]) << 24
                return Float(bitPattern: bits)
            }
        }
    }
}
