/// A maximum filter whose radius may differ from bin to bin: `output[i]` = the largest of
/// `input[i − radius[i] … i + radius[i]]` (clipped to the array).
///
/// SuperFlux's filter spans ±3 % of each bin's frequency (a quarter tone), up to 21 bins either side at the
/// top of the spectrum. A direct scan compared up to 43 bins per bin: a quarter of a port's analysis
/// instructions (callgrind, `jacktap-bench analysis`). Here the input is first reduced to the maxima of runs
/// of 2, 4, 8, … bins (each level one pass over the previous), and any window is then the larger of
/// two runs of the longest power of two that fits in it, one starting at its first bin and one ending at its
/// last (a sparse table, as for range-minimum queries). No branch depends on the data, and the result is the
/// same to the bit.
///
/// Each level is built eight bins at a time (`VectorLoops.maximum`), and only from the lowest bin that a window
/// or a longer run reads: SuperFlux's radii grow with frequency, so the runs of 32 bins are needed only in the
/// top quarter of the spectrum. Neighbouring bins with the same radius read neighbouring runs, so the output too
/// is taken eight bins at a time, over each stretch of bins whose two runs both move on by one from bin to bin.
/// Taken element by element before, the levels and the output cost 44.3 M callgrind instructions of
/// `jacktap-bench analysis` (a port, 5 s; `Benchmarks/beat-cost`); now 9.7 M.
final class WideningMaximumFilter {
    let count: Int
    /// Levels of run maxima, one after the other: level k holds the maximum of `input[i ..< i + 2^k]`
    /// (clipped) at index k · count + i. Level 0 is the input.
    private let levels: UnsafeMutablePointer<Float>
    private let levelCount: Int
    /// For each level, the lowest index at which a window, or a longer run, reads it.
    private let levelStart: UnsafeMutablePointer<Int>
    /// Stretches of bins whose windows are covered by runs that advance one index per bin: the first bin of
    /// each, and the indices into `levels` of the two runs that cover that bin's window (the run starting at
    /// its first bin and the run ending at its last). A stretch ends where the next begins (the last at `count`).
    private let stretchCount: Int
    private let stretchStart: UnsafeMutablePointer<Int>
    private let stretchFirstRun: UnsafeMutablePointer<Int>
    private let stretchLastRun: UnsafeMutablePointer<Int>

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
        levelStart = .allocate(capacity: levelCount)
        levelStart.initialize(repeating: count, count: levelCount)
        var stretches = [(start: Int, firstRun: Int, lastRun: Int)]()
        for (i, r) in radii.enumerated() {
            let k = runLevels[i]
            let first = k * count + max(0, i - r), last = k * count + min(count - 1, i + r) - (1 << k) + 1
            levelStart[k] = min(levelStart[k], max(0, i - r))
            if let open = stretches.last, first == open.firstRun + (i - open.start),
               last == open.lastRun + (i - open.start) {
                continue
            }
            stretches.append((i, first, last))
        }
        // A run of level k at index p is made from level k − 1 at p and above.
        for k in stride(from: levelCount - 1, to: 0, by: -1) {
            levelStart[k - 1] = min(levelStart[k - 1], levelStart[k])
        }
        stretchCount = stretches.count
        stretchStart = .allocate(capacity: stretchCount + 1)
        stretchFirstRun = .allocate(capacity: stretchCount)
        stretchLastRun = .allocate(capacity: stretchCount)
        for (j, stretch) in stretches.enumerated() {
            stretchStart[j] = stretch.start
            stretchFirstRun[j] = stretch.firstRun
            stretchLastRun[j] = stretch.lastRun
        }
        stretchStart[stretchCount] = count
    }

    deinit {
        levels.deallocate()
        levelStart.deallocate()
        stretchStart.deallocate()
        stretchFirstRun.deallocate()
        stretchLastRun.deallocate()
    }

    /// Filters `count` values of `input` into `output`.
    func apply(_ input: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>) {
        levels.update(from: input, count: count)
        for k in 1..<levelCount {
            let previous = levels + (k - 1) * count
            let level = levels + k * count
            let half = 1 << (k - 1)
            let start = levelStart[k]
            // Runs that would reach past the end keep the shorter run (no window needs them longer).
            let full = max(start, count - half)
            VectorLoops.maximum(previous + start, previous + start + half, into: level + start, count: full - start)
            (level + full).update(from: previous + full, count: count - full)
        }
        for j in 0..<stretchCount {
            let start = stretchStart[j]
            VectorLoops.maximum(levels + stretchFirstRun[j], levels + stretchLastRun[j], into: output + start,
                                count: stretchStart[j + 1] - start)
        }
    }
}
