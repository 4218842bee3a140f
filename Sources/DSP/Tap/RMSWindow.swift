/// RMS over the most recent `windowFrames` frames, built from the tap's (sum of squares, frames) chunks.
///
/// Keeps the newest chunks whose frames cover the window (the oldest chunk may reach a little past it when
/// chunks do not divide the window), in a fixed array allocated at init.
public struct RMSWindow: Sendable {
    /// Frames the window covers (300 ms by the OSC contract).
    public let windowFrames: Int
    var sums: [Double]
    var counts: [Int]
    var head = 0
    var used = 0
    var totalSum: Double = 0
    var totalFrames = 0

    /// A window of `windowFrames` frames; `maximumChunks` bounds the history (chunks beyond it are merged out).
    public init(windowFrames: Int, maximumChunks: Int = 4096) {
        self.windowFrames = max(windowFrames, 1)
        sums = Array(repeating: 0, count: max(maximumChunks, 2))
        counts = Array(repeating: 0, count: max(maximumChunks, 2))
    }

    /// Adds a chunk of `frames` frames whose squares sum to `sumOfSquares`.
    public mutating func add(sumOfSquares: Double, frames: Int) {
        guard frames > 0 else { return }
        if used == sums.count { dropOldest() }
        let slot = (head + used) % sums.count
        sums[slot] = sumOfSquares
        counts[slot] = frames
        used += 1
        totalSum += sumOfSquares
        totalFrames += frames
        while used > 1, totalFrames - counts[head] >= windowFrames { dropOldest() }
        if used == 1 { totalSum = sums[head] }  // resynchronise the running sum against rounding drift
    }

    mutating func dropOldest() {
        totalSum -= sums[head]
        totalFrames -= counts[head]
        head = (head + 1) % sums.count
        used -= 1
    }

    /// The RMS over the window (linear); 0 before any frame.
    public var rms: Double {
        totalFrames > 0 ? (max(totalSum, 0) / Double(totalFrames)).squareRoot() : 0
    }
}
