/// A small deterministic generator (SplitMix64, Steele, Lea & Flood 2014) for test input: the same noise,
/// packets and readings in every run, so a failure can be repeated.
public struct SplitMix: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in [-1, 1).
    public mutating func nextSigned() -> Double { Double(next() >> 11) / Double(1 << 52) - 1 }

    /// Uniform in 0..<bound (bound > 0); the tiny modulo bias does not matter for test input.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
