/// One pitch reading of a `PitchTracker`: the fundamental found in one analysis window.
public struct PitchEstimate: Sendable, Equatable {
    /// Fundamental frequency, Hz: the best candidate even when unvoiced; 0 when there is none (silence).
    public var frequency: Double
    /// 0…1: one minus YIN's cumulative-mean-normalised difference d′ at the chosen lag. d′ is normalised by
    /// the signal's own energy and by the mean over shorter lags, so it means the same at 41 Hz and at 4 kHz:
    /// 1 is perfectly periodic, below ~0.5 is noise.
    public var confidence: Float
    /// The confidence and level gates both passed.
    public var voiced: Bool
    /// Stream frame at the centre of the analysis window: the instant the estimate describes.
    public var centreFrame: Int

    /// An estimate of the given values.
    public init(frequency: Double, confidence: Float, voiced: Bool, centreFrame: Int) {
        self.frequency = frequency
        self.confidence = confidence
        self.voiced = voiced
        self.centreFrame = centreFrame
    }
}
