/// A programme's loudness target and the tolerance around it (`--target LUFS[:LU]`): EBU R128's -23 ± 1 by
/// default; ATSC A/85 is -24 ± 2, streaming services ask for -14 or -16. Reports say pass or fail against it,
/// Prometheus's rules compare short-term loudness with it.
public struct LoudnessTarget: Sendable, Equatable {
    public var lufs: Double
    public var toleranceLU: Double

    /// EBU R128: -23 LUFS ± 1 LU (for live programmes; ± 0.5 LU where the programme is normalised).
    public static let ebuR128 = LoudnessTarget(lufs: -23, toleranceLU: 1)

    public init(lufs: Double, toleranceLU: Double) {
        self.lufs = lufs
        self.toleranceLU = toleranceLU
    }

    /// `-23`, `-24:2`, `-14:1`; nil when the text is none of these or out of range (-70…0 LUFS, 0…10 LU).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let lufs = Double(parts[0]), lufs.isFinite, (-70...0).contains(lufs)
        else { return nil }
        var tolerance = Self.ebuR128.toleranceLU
        if parts.count == 2 {
            guard let given = Double(parts[1]), given.isFinite, (0...10).contains(given) else { return nil }
            tolerance = given
        }
        self.init(lufs: lufs, toleranceLU: tolerance)
    }

    /// Whether an integrated loudness passes: within the tolerance of the target (a programme with no gated
    /// block, at -200, does not).
    public func passes(integrated: Double) -> Bool {
        abs(integrated - lufs) <= toleranceLU + 1e-9
    }
}
