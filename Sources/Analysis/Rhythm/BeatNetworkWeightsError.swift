/// Why a beat-activation weights file was refused.
public enum BeatNetworkWeightsError: Error, CustomStringConvertible, Sendable {
    case unreadable(String)
    case notWeights
    case checksum(stored: UInt64, computed: UInt64)
    case format(UInt32)
    case features(UInt32)
    case shape(String)
    case notFinite
    indirect case inFile(String, BeatNetworkWeightsError)
    indirect case member(Int, BeatNetworkWeightsError)

    public var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read the beat activation weights at \(path) (the file is missing or unreadable; rebuild, or pass --beat-model FILE)"
        case .notWeights: "not a jacktap beat activation weights file (no JTBEATNN header)"
        case .checksum(let stored, let computed):
            "corrupt: checksum \(String(stored, radix: 16)) stored, \(String(computed, radix: 16)) computed"
        case .format(let v):
            "weights format \(v); this jacktap reads formats \(BeatNetworkWeights.formatVersions.lowerBound)–\(BeatNetworkWeights.formatVersions.upperBound)"
        case .features(let v):
            "trained on beat features version \(v); this jacktap computes versions \(BeatFeatures.supportedVersions.lowerBound)–\(BeatFeatures.supportedVersions.upperBound)"
        case .shape(let what): "malformed: \(what)"
        case .notFinite: "corrupt: a weight is not a finite number"
        case .inFile(let path, let error): "\(path): \(error)"
        case .member(let k, let error): "network \(k) of the file: \(error)"
        }
    }
}
