import Foundation

/// Loudness from energy, ITU-R BS.1770-4 eq. (2): L = −0.691 + 10·log10(Σ G_i·z_i), where z_i is the mean
/// square of channel i after K-weighting. The −0.691 dB offsets the K-weighting's +0.691 dB at 997 Hz, so a
/// 997 Hz sine reads its RMS level: −20 dBFS peak on one channel reads −23.01 LUFS.
public enum LoudnessUnits {
    /// BS.1770-4's −0.691 dB.
    public static let offset = -0.691

    /// L in LUFS, unfloored (−inf for 0): for computing, not for publishing.
    @inline(__always)
    public static func lufs(energy: Double) -> Double {
        offset + 10 * log10(energy)
    }

    /// The energy whose loudness is `lufs`.
    public static func energy(lufs: Double) -> Double {
        pow(10, (lufs - offset) / 10)
    }

    /// L as jacktap publishes it: a Float floored at `Decibels.floor` (−200); zero, negative and NaN energies
    /// (no signal, or nothing measured yet) read the floor, never −inf or NaN.
    public static func reading(energy: Double) -> Float {
        guard energy > 0, energy.isFinite else { return energy == .infinity ? 200 : Decibels.floor }
        return Swift.max(Float(lufs(energy: energy)), Decibels.floor)
    }
}
