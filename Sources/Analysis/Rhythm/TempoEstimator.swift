import Foundation

/// Tempo from the autocorrelation of the last 6 s of the onset function, restricted to the configured BPM
/// range, with hysteresis.
///
/// The onset function is summed in threes (8.7 ms frames, ~115 per second), its local mean (±100 ms) is
/// removed and the rest half-wave rectified so only accents remain (Davies & Plumbley, "Context-dependent
/// beat tracking of musical audio", IEEE TASLP 2007). Each candidate period τ is scored by the sum of the
/// autocorrelation at τ, 2τ, 3τ, 4τ (as many multiples as the history holds): the bar-level repetition of a
/// loop backs its beat period, while a period that is 2/3 or 3/2 of the beat gets support at only some
/// multiples. Candidates are scanned in steps of 0.1 frame (0.25 % of a 174 BPM period), the autocorrelation
/// read between lags by linear interpolation.
struct TempoEstimator {
    /// Onset-function frames summed into one tempo frame.
    static let decimation = 3
    static let historySeconds = 6.0
    /// Recompute every 8 tempo frames (70 ms): ~14 estimates per second.
    static let updateFrames = 8

    let frameRate: Double
    /// Candidate period range, tempo frames.
    let shortestPeriod: Double
    let longestPeriod: Double
    private var history: [Float]
    private var historyIndex = 0
    private var historyCount = 0
    private var partial: Float = 0
    private var partialCount = 0
    private var sinceUpdate = 0
    private var accent: [Float]
    private var correlation: [Float]
    private var raw: [Double] = [0, 0, 0]
    private var rawCount = 0
    private var disagreements = 0
    /// Current beat period in onset-function frames (hysteresis applied); nil until stable.
    private(set) var period: Double?
    /// Peak of the normalised autocorrelation score at the last estimate, 0…1.
    private(set) var confidence: Float = 0

    init(framing: RhythmFraming, minimumBPM: Double, maximumBPM: Double) {
        precondition(minimumBPM > 0 && maximumBPM > minimumBPM, "BPM range must be positive and ordered")
        frameRate = framing.frameRate / Double(Self.decimation)
        shortestPeriod = 60 * frameRate / maximumBPM
        longestPeriod = 60 * frameRate / minimumBPM
        let length = Int(Self.historySeconds * frameRate)
        history = Array(repeating: 0, count: length)
        accent = Array(repeating: 0, count: length)
        correlation = Array(repeating: 0, count: length)
    }

    mutating func reset() {
        for i in history.indices { history[i] = 0 }
        historyIndex = 0
        historyCount = 0
        partial = 0
        partialCount = 0
        sinceUpdate = 0
        rawCount = 0
        disagreements = 0
        period = nil
        confidence = 0
    }

    /// Adds one onset-function value; returns true when the estimate was recomputed.
    mutating func push(_ odf: Float) -> Bool {
        partial += odf
        partialCount += 1
        guard partialCount == Self.decimation else { return false }
        history[historyIndex] = partial
        historyIndex = (historyIndex + 1) % history.count
        historyCount = min(historyCount + 1, history.count)
        partial = 0
        partialCount = 0
        sinceUpdate += 1
        guard sinceUpdate >= Self.updateFrames else { return false }
        sinceUpdate = 0
        update()
        return true
    }

    private mutating func update() {
        let n = historyCount
        // A repetition is visible once the longest period plus 0.3 s overlap is in (~1 s at 88 BPM).
        guard Double(n) >= longestPeriod + 0.3 * frameRate else { return }
        let start = (historyIndex - n + history.count) % history.count
        let half = max(1, Int(0.1 * frameRate))
        var energy: Float = 0
        // Accents: the history minus its ±100 ms mean, half-wave rectified.
        for i in 0..<n {
            var sum: Float = 0
            let lo = max(0, i - half), hi = min(n - 1, i + half)
            for j in lo...hi { sum += history[(start + j) % history.count] }
            let a = max(0, history[(start + i) % history.count] - sum / Float(hi - lo + 1))
            accent[i] = a
            energy += a * a
        }
        // The music stopped (or never started): no accents in the last second, or under 2 % of the
        // history's accent power there. Beats stop rather than run on through a reverb tail.
        let recentCount = min(n, Int(frameRate))
        var recent: Float = 0
        for i in (n - recentCount)..<n { recent += accent[i] * accent[i] }
        guard energy > 1e-6 * Float(n), recent / Float(recentCount) >= 0.02 * energy / Float(n) else {
            silence()
            return
        }
        // As many multiples of the longest period as leave at least 0.3 s of overlap, at most 4.
        let multiples = max(1, min(4, Int((Double(n) - 0.3 * frameRate) / longestPeriod)))
        let maximumLag = min(n - 1, Int((Double(multiples) * longestPeriod).rounded(.up)) + 1)
        for lag in 0...maximumLag {
            var sum: Float = 0
            for i in 0..<(n - lag) { sum += accent[i] * accent[i + lag] }
            correlation[lag] = sum / Float(n - lag)
        }
        // A perfectly steady loop makes peaks one lag wide, split unevenly between neighbouring lags as the
        // beats fall between frames; a 1-2-3-2-1 kernel (±17 ms) gives every candidate the same tolerance.
        // `accent` is free again and holds the smoothed copy.
        for lag in 0...maximumLag {
            var sum: Float = 0
            for d in -2...2 {
                let j = lag + d
                let mirrored = j < 0 ? -j : (j > maximumLag ? 2 * maximumLag - j : j)
                sum += Float(3 - abs(d)) * correlation[mirrored]
            }
            accent[lag] = sum / 9
        }
        for lag in 0...maximumLag { correlation[lag] = accent[lag] }
        // The best local maximum strictly inside the range: a score still rising at an edge of the range
        // peaks outside it (a 90 BPM loop's double, 180, scores highest at the 178 BPM edge), and taking the
        // edge would report a tempo the music does not have.
        var bestScore: Float = -1
        var best: Double?
        var previous: (tau: Double, score: Float)?
        var beforePrevious: Float?
        var tau = shortestPeriod
        while tau <= longestPeriod {
            var score: Float = 0
            for k in 1...multiples { score += interpolated(Double(k) * tau) }
            if let previous, let beforePrevious, previous.score >= beforePrevious, previous.score >= score,
               previous.score > bestScore {
                bestScore = previous.score
                best = previous.tau
            }
            beforePrevious = previous?.score
            previous = (tau, score)
            tau += 0.1
        }
        guard let best else { return }
        confidence = max(0, min(1, bestScore / (Float(multiples) * correlation[0])))
        accept(best * Double(Self.decimation))
    }

    private func interpolated(_ lag: Double) -> Float {
        let i = Int(lag)
        let f = Float(lag - Double(i))
        return correlation[i] * (1 - f) + correlation[i + 1] * f
    }

    /// Hysteresis: small changes are followed smoothly; a different tempo takes over only after it has been
    /// the estimate for 6 updates (~0.4 s) in a row, so a fill or a break does not move the beat.
    private mutating func accept(_ estimate: Double) {
        raw[rawCount % 3] = estimate
        rawCount += 1
        var agreeing = rawCount >= 3
        for i in 0..<3 where abs(raw[i] / estimate - 1) >= 0.02 { agreeing = false }
        guard let current = period else {
            if agreeing && confidence >= 0.1 { period = estimate }
            return
        }
        if abs(estimate / current - 1) < 0.04 {
            period = current + 0.25 * (estimate - current)
            disagreements = 0
        } else {
            disagreements += 1
            if disagreements >= 6 && agreeing {
                period = estimate
                disagreements = 0
            }
        }
    }

    private mutating func silence() {
        confidence = 0
        period = nil
        rawCount = 0
        disagreements = 0
    }
}
