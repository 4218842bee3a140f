/// A small deterministic generator (SplitMix64, Steele, Lea & Flood 2014) so random test input is the
/// same in every run. Copied from Tests/DSPTests/SplitMix.swift: test targets cannot share files.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<bound (bound > 0); the tiny modulo bias does not matter for test input.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
