import CFFTW
import Foundation

/// The onset detection function: log-magnitude spectral flux with vibrato suppression ("SuperFlux",
/// Böck & Widmer, DAFx 2013), one value per hop.
///
/// Each bin's magnitude is compressed as log(1 + λ|X|), which makes the rise of a soft note comparable to a
/// loud one; the rise is measured against a maximum filter over neighbouring bins (±3 %, a quarter tone) of
/// the frame `lag` hops back, so vibrato and glides, which only move energy between neighbouring bins, add
/// little. Bins from 30 Hz to 16 kHz count (above 16 kHz drum kits and pads carry little but noise).
///
/// `next` returns that function unchanged for the tempo estimator and the beat comb. Onset picking reads three
/// further figures of the same frame: `pickingFlux`, the same rise without the bins below 200 Hz, and
/// `riseIsStrong`, which says whether the rise comes from bins that carry the frame's sound (see
/// `strongFloorDB`) rather than from the spectral leakage of a note that stops, and `newestHopIsSilent`,
/// which says that the sound has just stopped.
final class SpectralFlux {
    /// λ of the log compression on a full-scale-sine-is-1 magnitude: a -60 dBFS partial maps to log 2.
    static let compression: Float = 1_000
    /// Frames between the compared spectra: 2 hops (5.8 ms) still rises within a hop of an attack but lets
    /// a slow attack accumulate twice the rise of adjacent frames.
    static let lag = 2
    /// Lowest bin of the picking flux, Hz. The window (23 ms) spans less than a period of a bass note below
    /// ~45 Hz and barely more up to ~90 Hz, so the bins below 200 Hz swing with the waveform's phase by
    /// 6–10 dB over a steady note; the eval corpus's finger bass gave an onset per swing (F 0.71 → 0.89 at
    /// 48 kHz without them). Bass and kick attacks still rise in their upper partials and click.
    static let pickingLowHz = 200.0
    /// Bins more than this far below the frame's loudest bin count as empty for `riseIsStrong`. A sine or
    /// pluck that stops abruptly spreads leakage 40–60 dB down over every bin, which a log flux counts as a
    /// broadband rise; a new note rises in partials near the top of the spectrum.
    static let strongFloorDB: Float = 40
    /// Share of the picking flux that must come from bins above the floor for `riseIsStrong`. 0.2 with a
    /// 40 dB floor removed every note-end onset of the eval corpus's sines and trumpet and most of the
    /// plucks' while keeping the sung and bowed attacks (0.1 kept some note ends; 0.4 lost voice onsets).
    static let strongShare: Float = 0.2
    /// The newest hop is silent when its mean power is this far below that of the rest of the window. A
    /// sound cut off into silence spreads leakage over every bin, loud enough near the top of the spectrum to
    /// pass `riseIsStrong`, and the flux peaks while the cut is in the newest few milliseconds of the window:
    /// on the eval corpus such peaks read 100 dB or more below the window, and no true onset read lower than
    /// -19 dB (a finger bass attack under its previous note), so 40 dB lies well between. It removed every
    /// note-end onset left on the sox plucks (F 0.87–0.89 → 1.0).
    static let silenceDropDB: Float = 40
    /// Highest bin of the beat tracker's flux, Hz. Kick, snare body, bass and the lower partials of chords
    /// carry the beat; hi-hats and cymbals, which mark the eighths and sixteenths between beats, rise mostly
    /// above 1 kHz. On the synthetic loops the full flux reads a hat between two beats at 0.5–0.75 of the kick
    /// and snare, so eighths look as much like beats as the beats; below 1 kHz it reads 0.02–0.3, and the
    /// tracker keeps 60 and 200 BPM loops at their tempo instead of doubling or halving them.
    static let beatHighHz = 1_000.0

    private let size: Int
    private let window: UnsafeMutablePointer<Float>
    private let plan: fftwf_plan
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    /// FFT bins from 30 Hz to 16 kHz, the first and last of them, and the width of one, Hz.
    let lowBin: Int
    private let highBin: Int
    let binCount: Int
    let binHz: Double
    private let maximumFilter: WideningMaximumFilter
    private let magnitudeScale: Float
    /// Log magnitude of the current frame.
    private let current: UnsafeMutablePointer<Float>
    /// The newest frame's log-compressed magnitudes, log(1 + λ|X|), bins `lowBin`… (`binCount` of them): what
    /// the learned beat activation's features (`BeatFeatures`) are made from.
    var logMagnitudes: UnsafePointer<Float> { UnsafePointer(current) }
    /// Max-filtered log magnitudes of the last `lag` frames, ring.
    private let history: UnsafeMutablePointer<Float>
    private var historyIndex = 0
    /// First bin of the picking flux, as an index into `current`.
    private let pickingLowIndex: Int
    /// One past the last bin of the beat flux, as an index into `current`.
    private let beatEndIndex: Int
    private let strongFloorRatio: Float
    /// Mean positive log-magnitude rise over the bins from `pickingLowHz` to 16 kHz, divided by the full
    /// bin count (the same units as `next`'s value) — what the onset picker reads.
    private(set) var pickingFlux: Float = 0
    /// Whether at least `strongShare` of the picking flux comes from bins within `strongFloorDB` of the
    /// frame's loudest bin (bins below that floor clamped to it, in both compared frames).
    private(set) var riseIsStrong = true
    /// Sum of the magnitudes of the bins from 30 Hz to `pickingLowHz` (a full-scale sine reads 1): how much
    /// bass the frame holds, which the bar tracker compares from beat to beat. Linear, not the log rise: a
    /// kick and a snare rise alike in the log bins below 200 Hz (both are broadband at their attack), but
    /// the kick holds several times the energy there.
    private(set) var bassLevel: Float = 0
    /// Mean positive log-magnitude rise over the bins from 30 Hz to `beatHighHz`, divided by the full bin
    /// count: what the beat tracker reads (see `beatHighHz`).
    private(set) var beatFlux: Float = 0
    /// Whether the newest hop of the frame is `silenceDropDB` below the rest of its window.
    private(set) var newestHopIsSilent = false
    private let silenceRatio: Float
    private let hop: Int

    init(framing: RhythmFraming) {
        size = framing.window
        let (window, sum) = HannWindow.allocate(size: size)
        self.window = window
        magnitudeScale = Float(2 / sum)
        (plan, input, output) = FFTWPlanner.makeRealForward(size: size)
        binHz = framing.sampleRate / Double(size)
        lowBin = max(1, Int((30 / binHz).rounded()))
        highBin = min(size / 2, Int((16_000 / binHz).rounded()))
        binCount = highBin - lowBin + 1
        // ±3 % of each bin's frequency, at least one bin.
        let lowBin = lowBin
        maximumFilter = WideningMaximumFilter(radii: (0..<binCount).map { i in
            max(1, Int((Double(lowBin + i) * 0.03).rounded()))
        })
        current = .allocate(capacity: binCount)
        history = .allocate(capacity: binCount * Self.lag)
        pickingLowIndex = min(binCount - 1, max(0, Int((Self.pickingLowHz / binHz).rounded()) - lowBin))
        beatEndIndex = min(binCount, max(1, Int((Self.beatHighHz / binHz).rounded()) - lowBin + 1))
        strongFloorRatio = powf(10, -Self.strongFloorDB / 20)
        silenceRatio = powf(10, -Self.silenceDropDB / 10)
        hop = min(framing.hop, size - 1)
        reset()
    }

    deinit {
        FFTWPlanner.destroy(plan, input, output)
        window.deallocate()
        current.deallocate()
        history.deallocate()
    }

    func reset() {
        current.initialize(repeating: 0, count: binCount)
        history.initialize(repeating: 0, count: binCount * Self.lag)
        historyIndex = 0
        pickingFlux = 0
        bassLevel = 0
        beatFlux = 0
        riseIsStrong = true
        newestHopIsSilent = false
    }

    /// The flux of the window `samples` (oldest first, one analysis window of them) against the frame `lag`
    /// hops earlier: the mean over bins of the positive log-magnitude rise.
    func next(_ samples: UnsafePointer<Float>) -> Float {
        for i in 0..<size { input[i] = samples[i] * window[i] }
        let olderPower = VectorLoops.sumOfSquares(samples, count: size - hop)
        let newestPower = VectorLoops.sumOfSquares(samples + (size - hop), count: hop)
        newestHopIsSilent = newestPower * Float(size - hop) < silenceRatio * olderPower * Float(hop)
        FFTWPlanner.execute(plan)
        let lambda = Self.compression * magnitudeScale
        let loudest = VectorLoops.magnitudes(of: UnsafeRawPointer(output + lowBin).assumingMemoryBound(to: Float.self),
                                             count: binCount, into: current)
        var bass: Float = 0
        for i in 0..<pickingLowIndex { bass += current[i] }
        for i in 0..<binCount { current[i] = LogCompression.log1p(lambda * current[i]) }
        bassLevel = bass * magnitudeScale
        let strongFloor = LogCompression.log1p(lambda * loudest * strongFloorRatio)
        // The oldest ring slot is the frame `lag` hops back; it is replaced by this frame's filtered copy.
        let old = history + historyIndex * binCount
        let beatRise = VectorLoops.rise(from: old, to: current, count: beatEndIndex)
        beatFlux = beatRise / Float(binCount)
        let rise = beatRise + VectorLoops.rise(from: old + beatEndIndex, to: current + beatEndIndex,
                                               count: binCount - beatEndIndex)
        let picking = binCount - pickingLowIndex
        let (pickingRise, strongRise) = VectorLoops.rises(from: old + pickingLowIndex, to: current + pickingLowIndex,
                                                          count: picking, floor: strongFloor)
        pickingFlux = pickingRise / Float(binCount)
        riseIsStrong = strongRise >= Self.strongShare * pickingRise
        maximumFilter.apply(current, into: old)
        historyIndex = (historyIndex + 1) % Self.lag
        return rise / Float(binCount)
    }
}
