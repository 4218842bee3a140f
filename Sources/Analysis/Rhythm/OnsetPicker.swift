/// Causal peak picking on the onset function (Böck, Krebs & Schedl, "Evaluating the online capabilities of
/// onset detection methods", ISMIR 2012): a frame is an onset when it is the maximum of the last 30 ms and
/// of the next hop (one hop of look-ahead, 2.9 ms), exceeds twice the mean of the last 100 ms plus the
/// threshold, and comes at least the minimum gap after the previous onset; a peak whose rise the flux did not
/// call strong (`SpectralFlux.riseIsStrong`: the leakage of a note that stops) is not an onset.
struct OnsetPicker {
    /// Factor on the recent mean: bowed and sung notes keep the onset function busy between attacks, and a
    /// threshold that scales with that activity (2×, best on the tuning corpus against 1× and 3×) ignores it.
    static let meanFactor: Float = 2
    /// Frames of the running mean (100 ms) and of the backward maximum (30 ms).
    let meanFrames: Int
    let maximumFrames: Int
    let threshold: Float
    let gapFrames: Int
    /// Frames of history kept (the mean window plus the look-ahead).
    private var values: [Float]
    private var index = 0
    private var frames = 0
    private var lastOnset = Int.min / 2
    /// `strong` of the newest frame, which becomes the candidate at the next push.
    private var newestIsStrong = true

    init(framing: RhythmFraming, threshold: Float, minimumGap: Double) {
        meanFrames = max(2, Int((0.100 * framing.frameRate).rounded()))
        maximumFrames = max(1, Int((0.030 * framing.frameRate).rounded()))
        self.threshold = threshold
        gapFrames = max(1, Int((minimumGap * framing.frameRate).rounded()))
        values = Array(repeating: 0, count: meanFrames + 2)
    }

    mutating func reset() {
        for i in values.indices { values[i] = 0 }
        index = 0
        frames = 0
        lastOnset = Int.min / 2
        newestIsStrong = true
    }

    /// The value `age` frames before the newest (0 = newest).
    private func value(_ age: Int) -> Float { values[(index - 1 - age + 2 * values.count) % values.count] }

    /// Adds the onset function of frame `frames` (and whether its rise is strong) and returns the excess over
    /// the threshold (> 0) when the previous frame is an onset.
    mutating func push(_ odf: Float, strong: Bool = true) -> Float? {
        let candidateIsStrong = newestIsStrong
        newestIsStrong = strong
        values[index] = odf
        index = (index + 1) % values.count
        frames += 1
        guard frames >= 2 else { return nil }
        let candidate = value(1)
        let frame = frames - 2
        guard candidate > odf, frame - lastOnset >= gapFrames else { return nil }
        for age in 2...min(maximumFrames + 1, frames) where value(age) > candidate { return nil }
        // The mean covers the `meanFrames` frames before the candidate (summed afresh: no drift).
        let span = min(meanFrames, frames - 2)
        var sum: Float = 0
        if span > 0 { for age in 2...(span + 1) { sum += value(age) } }
        let mean = sum / Float(max(span, 1))
        let excess = candidate - Self.meanFactor * mean - threshold
        guard excess > 0, candidateIsStrong else { return nil }
        lastOnset = frame
        return excess
    }
}
