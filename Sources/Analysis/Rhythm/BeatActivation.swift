import Foundation

/// The beat model's input: the onset function below 1 kHz (`SpectralFlux.beatFlux`) summed over `decimation`
/// hops (8.7 ms frames, ~115 per second, about madmom's 100) and divided by its recent peak level, so that the
/// strongest accents read about 1 and a frame without onset about 0 whatever the loudness and the mix. A
/// frame reads the larger of itself and the frame before: an attack whose rise straddles two frames counts
/// in both, as the model's beat states span two frames.
///
/// The peak level falls by e every `envelopeSeconds` and jumps to any larger frame: three seconds hold a level
/// across a bar or two of sparse music and let a quieter passage come up to full scale within a few bars.
/// The music has stopped (`silent`) once every frame of the last `silenceSeconds` stayed under
/// `silenceFraction` of the peak level of the whole onset function, or under an absolute floor that
/// digital silence and dither never reach.
struct BeatActivation {
    static let decimation = 3
    static let envelopeSeconds = 3.0
    static let silenceSeconds = 1.0
    static let silenceFraction: Float = 0.02
    /// Onset-function units (mean log-magnitude rise per bin, summed over a frame). The accents of the eval
    /// corpora's loops and recordings peak between about 0.3 and 1.3; a frame of dither reads far below this.
    static let absoluteFloor: Float = 0.005
    /// The part below 1 kHz spans 23 of the 370 bins from 30 Hz to 16 kHz (43 Hz bins at every rate): its
    /// floor scales with it.
    static let beatShare: Float = 0.06

    let frameRate: Double
    private let decay: Float
    private let silenceFrames: Int
    private var partial: Float = 0
    private var partialCount = 0
    private var envelope: Float = 0
    private var partialBeat: Float = 0
    private var beatEnvelope: Float = 0
    private var previousBeat: Float = 0
    private var quietFrames = 0
    /// The newest frame's activation, 0…1.
    private(set) var value: Float = 0
    /// The newest frame's onset function, summed over its hops.
    private(set) var frameSum: Float = 0
    /// True once the last `silenceSeconds` held no accent (and before any frame).
    private(set) var silent = true
    /// Whether the newest frame is the first accent after silence (or the first of the stream): where the
    /// music starts.
    private(set) var startsMusic = false

    init(framing: RhythmFraming) {
        frameRate = framing.frameRate / Double(Self.decimation)
        decay = Float(exp(-1 / (Self.envelopeSeconds * frameRate)))
        silenceFrames = Int((Self.silenceSeconds * frameRate).rounded())
        quietFrames = silenceFrames
    }

    mutating func reset() {
        partial = 0
        partialCount = 0
        envelope = 0
        partialBeat = 0
        beatEnvelope = 0
        previousBeat = 0
        quietFrames = silenceFrames
        value = 0
        silent = true
        startsMusic = false
    }

    /// Adds one hop's onset function (`odf`) and its part below 1 kHz (`beat`); returns true when a frame is
    /// complete (`value`, `silent` and `startsMusic` are new).
    mutating func push(_ odf: Float, beat: Float) -> Bool {
        partial += odf
        partialBeat += beat
        partialCount += 1
        guard partialCount == Self.decimation else { return false }
        let x = partial
        frameSum = x
        let b = partialBeat
        partial = 0
        partialBeat = 0
        partialCount = 0
        envelope = max(x, envelope * decay)
        startsMusic = false
        if x < Self.absoluteFloor || x < Self.silenceFraction * envelope {
            quietFrames = min(quietFrames + 1, silenceFrames)
        } else {
            startsMusic = quietFrames >= silenceFrames
            quietFrames = 0
        }
        silent = quietFrames >= silenceFrames
        beatEnvelope = max(b, beatEnvelope * decay)
        let normalised = beatEnvelope > Self.absoluteFloor * Self.beatShare ? b / beatEnvelope : 0
        value = max(normalised, previousBeat)
        previousBeat = normalised
        return true
    }
}
