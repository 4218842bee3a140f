/// A maximum filter whose radius may differ from bin to bin: `output[i]` = the largest of
/// `input[i − radius[i] … i + radius[i]]` (clipped to the array).
///
/// SuperFlux's filter spans ±3 % of each bin's frequency (a quarter tone), up to 21 bins either side at the
/// top of the spectrum. A direct scan compared up to 43 bins per bin: a quarter of a port's analysis
/// instructions (callgrind, `jacktap-bench analysis`). Here the input is first reduced to the maxima of runs
/// of 2, 4, 8, … bins (each level one vectorised pass over the previous), and any window is then the larger of
/// two runs of the longest power of two that fits in it, one starting at its first bin and one ending at its
/// last (a sparse table, as for range-minimum queries). No branch depends on the data, and the result is the
/// same to the bit.
final class WideningMaximumFilter {
    let count: Int
    /// Levels of run maxima, one after the other: level k holds the maximum of `input[i ..< i + 2^k]`
    /// (clipped) at index k · count + i. Level 0 is the input.
    private let levels: UnsafeMutablePointer<Float>
    private let levelCount: Int
    /// For each bin, the indices into `levels` of the two runs that cover its window.
    private let firstRun: UnsafeMutablePointer<Int32>
    private let lastRun: UnsafeMutablePointer<Int32>

    /// `radii[i]` ≥ 0.
    init(radii: [Int]) {
        count = radii.count
        precondition(count > 0 && radii.allSatisfy { $0 >= 0 })
        var runLevels = [Int]()
        for (i, r) in radii.enumerated() {
            let length = min(count - 1, i + r) - max(0, i - r) + 1
            runLevels.append(Int.bitWidth - 1 - length.leadingZeroBitCount)
        }
        levelCount = runLevels.max()! + 1
        levels = .allocate(capacity: levelCount * count)
        levels.initialize(repeating: 0, count: levelCount * count)
        firstRun = .allocate(capacity: count)
        lastRun = .allocate(capacity: count)
        for (i, r) in radii.enumerated() {
            let k = runLevels[i]
            firstRun[i] = Int32(k * count + max(0, i - r))
            lastRun[i] = Int32(k * count + min(count - 1, i + r) - (1 << k) + 1)
        }
    }

    deinit {
        levels.deallocate()
        firstRun.deallocate()
        lastRun.deallocate()
    }

    /// Filters `count` values of `input` into `output`.
    func apply(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        levels.update(from: input, count: count)
        for k in 1..<levelCount {
            let previous = levels + (k - 1) * count
            let level = levels + k * count
            let half = 1 << (k - 1)
            // Runs that would reach past the end keep the shorter run (no window needs them longer).
            let full = max(0, count - half)
            for i in 0..<full { level[i] = max(previous[i], previous[i + half]) }
            for i in full..<count { level[i] = previous[i] }
        }
        for i in 0..<count {
            output[i] = max(levels[Int(firstRun[i])], levels[Int(lastRun[i])])
        }
    }
}
