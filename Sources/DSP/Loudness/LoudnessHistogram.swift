import Foundation

/// A fixed-size histogram of block energies (mean squares of the channel-weighted K-weighted signal) for the
/// gated statistics of BS.1770-4 (integrated loudness) and EBU Tech 3342 (loudness range), so that they can run
/// for days without ever allocating, as libebur128's histogram mode does, but exact where it can be.
///
/// Bins are 0.01 LU wide from −70 LUFS (the absolute gate) to +15 LUFS: 8,500 bins, each holding how many blocks
/// fell in it (Int64) and the sum of their energies (Double); 136 KB, allocated at init. +15 LUFS is above
/// anything within full scale (full-scale square waves on L, R, C, Ls and Rs, at the K-weighting's +4 dB, read
/// +11 LUFS); the top bin also holds every block louder than that, with its exact energy, so only a percentile
/// falling there is approximate (the mean of those blocks).
///
/// Resolution: because each bin keeps the exact sum of its energies, every mean (the absolute-gated mean, the
/// relative gate derived from it, the gated mean that is the integrated loudness) is exact. The one approximation
/// is that the blocks of the single bin that straddles a relative gate are kept or dropped together, by their
/// mean, instead of one by one: the same as moving the gate by less than 0.01 LU for those blocks only. A
/// percentile is the energy mean of the bin holding that rank, within 0.01 LU of the exact order statistic, so
/// a loudness range is within 0.02 LU of the exact one (Tech 3342 allows ±1 LU; Tech 3341 ±0.1 LU on I).
///
/// Life: counts are Int64, so a histogram fed ten blocks a second fills up after 2.9·10^10 years; nothing
/// wraps or saturates before that. A bin's Double sum accumulates a relative rounding error of at most
/// n·2^-53 after n blocks: 4·10^-8 (2·10^-7 LU) after a year of blocks all in one bin. Effectively forever.
final class LoudnessHistogram {
    static let lowestLUFS = -70.0
    static let highestLUFS = 15.0
    static let binsPerLU = 100.0
    static let binCount = Int((highestLUFS - lowestLUFS) * binsPerLU)

    let counts: UnsafeMutablePointer<Int64>
    let energies: UnsafeMutablePointer<Double>
    /// Blocks added since the last `removeAll`.
    private(set) var totalCount: Int64 = 0
    /// Sum of their energies.
    private(set) var totalEnergy: Double = 0
    /// The occupied bins lie in lowestBin…highestBin (empty when lowestBin > highestBin): scans and clears stay
    /// within them.
    private(set) var lowestBin = Int.max
    private(set) var highestBin = Int.min

    init() {
        counts = .allocate(capacity: Self.binCount)
        counts.initialize(repeating: 0, count: Self.binCount)
        energies = .allocate(capacity: Self.binCount)
        energies.initialize(repeating: 0, count: Self.binCount)
    }

    deinit {
        counts.deallocate()
        energies.deallocate()
    }

    /// The bin of loudness `lufs`: floor((lufs + 70)·100), clamped to the histogram (below −70 reads −1).
    @inline(__always)
    static func bin(ofLoudness lufs: Double) -> Int {
        let index = ((lufs - lowestLUFS) * binsPerLU).rounded(.down)
        guard index >= 0 else { return -1 }
        return index < Double(binCount) ? Int(index) : binCount - 1
    }

    /// Adds one block of energy `energy`, which the caller has found louder than the absolute gate (−70 LUFS).
    @inline(__always)
    func add(_ energy: Double) {
        let bin = max(Self.bin(ofLoudness: LoudnessUnits.lufs(energy: energy)), 0)
        counts[bin] &+= 1
        energies[bin] += energy
        totalCount &+= 1
        totalEnergy += energy
        if bin < lowestBin { lowestBin = bin }
        if bin > highestBin { highestBin = bin }
    }

    /// Empties the histogram (clears only the occupied bins).
    func removeAll() {
        if lowestBin <= highestBin {
            (counts + lowestBin).update(repeating: 0, count: highestBin - lowestBin + 1)
            (energies + lowestBin).update(repeating: 0, count: highestBin - lowestBin + 1)
        }
        totalCount = 0
        totalEnergy = 0
        lowestBin = .max
        highestBin = .min
    }

    /// The blocks a relative gate keeps: every bin from `firstBin` up.
    struct Selection {
        var firstBin: Int
        var count: Int64
        var energy: Double
    }

    /// The blocks louder than `gateLU` (negative) relative to the energy mean of all the blocks, as in
    /// BS.1770-4 (Γr = mean − 10 LU) and Tech 3342 (mean − 20 LU). Nil when the histogram is empty.
    func relativelyGated(gateLU: Double) -> Selection? {
        guard totalCount > 0 else { return nil }
        let gateEnergy = totalEnergy / Double(totalCount) * pow(10, gateLU / 10)
        var first = Self.bin(ofLoudness: LoudnessUnits.lufs(energy: gateEnergy))
        if first < lowestBin {
            first = lowestBin
        } else if counts[first] > 0, energies[first] / Double(counts[first]) < gateEnergy {
            // The straddling bin goes by its mean (see the type's documentation).
            first += 1
        }
        var count: Int64 = 0
        var energy = 0.0
        var bin = first
        while bin <= highestBin {
            count &+= counts[bin]
            energy += energies[bin]
            bin &+= 1
        }
        return Selection(firstBin: first, count: count, energy: energy)
    }

    /// The mean energy of the bin holding the block of 0-based rank `rank` in loudness order among the bins from
    /// `firstBin` up.
    func energy(atRank rank: Int64, from firstBin: Int) -> Double {
        var seen: Int64 = 0
        var bin = firstBin
        while bin <= highestBin {
            seen &+= counts[bin]
            if seen > rank { return energies[bin] / Double(counts[bin]) }
            bin &+= 1
        }
        return 0
    }
}
