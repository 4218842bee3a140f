import Foundation

/// An EBU R128 loudness meter: momentary, short-term and integrated loudness, loudness range and the maxima of
/// momentary and short-term, as ITU-R BS.1770-4, EBU Tech 3341 ("EBU Mode" meters) and EBU Tech 3342 (loudness
/// range) define them. One meter measures one programme of one or more channels.
///
/// **Period independence.** The channel-weighted K-weighted energy is summed in fixed sub-blocks of
/// 0.4 s · fs / 60 samples (6.67 ms: 294, 320, 588, 640, 1280 samples at 44.1, 48, 88.2, 96, 192 kHz), kept in
/// a circular history of 450 sub-blocks, and momentary (the last 60 sub-blocks, 400 ms) and short-term (the last
/// 450, 3 s) are evaluated at every sub-block boundary, wherever the calls to `process` begin and end. That is
/// more often than Tech 3341 asks (every 9 ms for max momentary, cases 13 and 14; every 68 ms for max short-term,
/// case 11) at any JACK period size, and every reading is bit-identical whatever block sizes `process` is fed in:
/// each channel's squares are added to one Double in sample order, and the windows are summed from the history
/// in a fixed order. At a rate where fs/150 is not an integer the sub-block is rounded to the nearest integer
/// and the windows are 60 and 450 of those (e.g. 32 kHz: 213 samples, a 399.4 ms and a 2.995 s window); energies
/// are divided by the samples actually in the window, so a steady signal still reads exactly. The grid is what
/// the maxima see: a meter evaluating every 1 ms (libebur128 fed 48 frames at a time) can find a max momentary a
/// few hundredths of an LU higher where a sharp onset peaks between two boundaries (0.049 LU on espeak-ng speech;
/// the same within 0.0001 LU when libebur128 is evaluated on this grid).
///
/// **Before a window has filled**, momentary and short-term divide by the full window length, counting the time
/// before the first sample as silence, as libebur128 does (its ring buffer starts zeroed). Tech 3341 specifies
/// sliding rectangular 400 ms and 3 s windows and judges readings only once they have filled ("constant after
/// 3 s", case 9); averaging over the elapsed time instead would read a 10 ms click at start-up as loud as a
/// steady signal and put it into the maxima. So M and S rise from −200 over the first 400 ms and 3 s.
///
/// **Integrated** (BS.1770-4, 2.8): gating blocks of 400 ms every 100 ms (75 % overlap; every 15th sub-block
/// boundary once 60 have passed, so an incomplete block at the end is never counted), absolute gate −70 LUFS,
/// relative gate 10 LU below the energy mean of the blocks above the absolute gate. **Range** (Tech 3342):
/// short-term values every 100 ms, of full 3 s windows only, absolute gate −70 LUFS, relative gate 20 LU below
/// the energy mean of those above it, LRA = 95th − 10th percentile (nearest rank, round((n − 1)·p) as in
/// Tech 3342's reference code). Partial windows are what make Fons Adriaensen's classic meter DSP
/// (ebu_r128_proc, in ebumeter and x42's EBU R128 meter) read 1.8 LU for a steady tone: it samples short-term
/// every 0.5 s from the first 0.5 s on, while the window is still filling, so of a 20 s tone's 40 values the
/// 10th percentile (the 4th) is the one at 2.0 s, 10·log10(2/3) = −1.76 LU down the ramp. Here a steady tone
/// reads 0.0. (libebur128 samples only full windows, but every 1 s rather than every 100 ms: its LRA differs
/// from this one by a few hundredths of an LU on material whose loudness moves steadily, such as a sweep.)
///
/// Both statistics use fixed histograms (`LoudnessHistogram`: 0.01 LU bins from −70 to +15 LUFS, with block
/// counts and exact energy sums), allocated at init: the meter runs for days — in practice forever, with Int64
/// counts — without allocating, and the histograms' resolution error (< 0.01 LU on a gate decision, < 0.02 LU
/// on LRA) stays far inside Tech 3341's ±0.1 LU and Tech 3342's ±1 LU.
///
/// **Readings** are Float LUFS (LU for `range`), floored at `Decibels.floor` (−200) when there is no signal or
/// nothing measured yet, never −inf or NaN; `range` is 0 until defined. Momentary and short-term are those of the
/// last sub-block boundary (≤ 6.67 ms old).
///
/// **Real time.** `init` allocates everything; `process`, the readings and `reset` never allocate or lock.
/// Integrated and range are computed when read, at most once per new 100 ms block (a scan of the occupied bins).
/// Not thread-safe: call `process`, `reset` and the readings from one thread at a time.
public final class LoudnessMeter {
    /// The sample rate the meter was made for.
    public let sampleRate: Double
    /// The role, and so the BS.1770 weight, of each channel `process` is given, in order.
    public let roles: [ChannelRole]
    /// Samples per sub-block: round(fs/150), the grid every reading is evaluated on.
    public let subBlockFrames: Int
    /// The K-weighting at `sampleRate`.
    public let weighting: KWeighting

    static let momentarySubBlocks = 60
    static let shortTermSubBlocks = 450
    /// 100 ms: the step of BS.1770's gating blocks and of Tech 3342's short-term values.
    static let stepSubBlocks = 15

    let channelCount: Int
    /// Indices of the channels with a weight above 0 (the LFE channel is not even filtered).
    let measured: UnsafeMutablePointer<Int>
    let measuredCount: Int
    let weights: UnsafeMutablePointer<Double>
    let states: UnsafeMutablePointer<KWeighting.State>
    /// Each channel's sum of K-weighted squares in the sub-block under way.
    let partialSums: UnsafeMutablePointer<Double>
    var framesInSubBlock = 0

    /// Sub-block energies (Σ G_i·Σ z_i², not yet divided by the length), written twice, at i and i + 450, so that
    /// the last 60 or 450 always lie contiguously in memory.
    let history: UnsafeMutablePointer<Double>
    var historyHead = 0
    let momentaryFrames: Double
    let shortTermFrames: Double

    var momentaryEnergy = 0.0
    var shortTermEnergy = 0.0
    var maxMomentaryEnergy = 0.0
    var maxShortTermEnergy = 0.0
    /// Whole sub-blocks since the measurement (re)started: when they reach 60, 75, 90… a gating block is due;
    /// 450, 465… a short-term value for the range.
    var measuredSubBlocks = 0
    /// Set by `reset` in the middle of a sub-block: that sub-block began before the reset and is left out of
    /// the new measurement.
    var skipSubBlock = false

    let gatingBlocks = LoudnessHistogram()
    let shortTermValues = LoudnessHistogram()
    let absoluteGateEnergy = LoudnessUnits.energy(lufs: -70)
    var integratedIsCurrent = true
    var rangeIsCurrent = true
    var integratedReading = Decibels.floor
    var rangeReading: Float = 0
    /// Paused (EBU Tech 3341's start/stop): integrated, range and maxima ignore the audio.
    public private(set) var isPaused = false
    /// After a resume the maxima wait for windows of audio heard since it, as the gating blocks do.
    var maximaWaitForFullWindows = false

    /// A meter for channels of the given `roles` (one per pointer `process` gets) at `sampleRate` Hz.
    public init(sampleRate: Double, roles: [ChannelRole]) {
        self.sampleRate = sampleRate
        self.roles = roles
        weighting = KWeighting(sampleRate: sampleRate)
        subBlockFrames = max(Int((sampleRate * 0.4 / Double(Self.momentarySubBlocks)).rounded()), 1)
        momentaryFrames = Double(Self.momentarySubBlocks * subBlockFrames)
        shortTermFrames = Double(Self.shortTermSubBlocks * subBlockFrames)

        channelCount = roles.count
        let capacity = max(channelCount, 1)
        measured = .allocate(capacity: capacity)
        weights = .allocate(capacity: capacity)
        states = .allocate(capacity: capacity)
        states.initialize(repeating: KWeighting.State(), count: capacity)
        partialSums = .allocate(capacity: capacity)
        partialSums.initialize(repeating: 0, count: capacity)
        var count = 0
        for (channel, role) in roles.enumerated() {
            weights[channel] = role.weight
            if role.weight > 0 {
                measured[count] = channel
                count += 1
            }
        }
        measuredCount = count
        history = .allocate(capacity: 2 * Self.shortTermSubBlocks)
        history.initialize(repeating: 0, count: 2 * Self.shortTermSubBlocks)
    }

    deinit {
        measured.deallocate()
        weights.deallocate()
        states.deallocate()
        partialSums.deallocate()
        history.deallocate()
    }

    /// Measures `count` frames: `channels[i]` points at `count` samples of channel i (`roles[i]`).
    ///
    /// Any block size; never allocates or locks. NaN, ±Inf and subnormal samples count as silence.
    public func process(_ channels: UnsafePointer<UnsafePointer<Float>>, count: Int) {
        let weighting = self.weighting
        var done = 0
        while done < count {
            let n = min(count &- done, subBlockFrames &- framesInSubBlock)
            for m in 0..<measuredCount {
                let channel = measured[m]
                weighting.filterAndSumSquares(
                    channels[channel] + done, count: n, state: &states[channel], sum: &partialSums[channel])
            }
            done &+= n
            framesInSubBlock &+= n
            if framesInSubBlock == subBlockFrames { completeSubBlock() }
        }
    }

    /// The end of a sub-block: store its energy, evaluate momentary and short-term, feed the gated statistics.
    func completeSubBlock() {
        var energy = 0.0
        for m in 0..<measuredCount {
            let channel = measured[m]
            energy += weights[channel] * partialSums[channel]
            partialSums[channel] = 0
            states[channel].flush(below: KWeighting.flushThreshold)
        }
        framesInSubBlock = 0

        let length = Self.shortTermSubBlocks
        history[historyHead] = energy
        history[historyHead &+ length] = energy
        let newest = historyHead &+ length
        historyHead = historyHead &+ 1 == length ? 0 : historyHead &+ 1

        let momentary = Self.sum(history + (newest &- Self.momentarySubBlocks &+ 1), count: Self.momentarySubBlocks)
            / momentaryFrames
        let shortTerm = Self.sum(history + (newest &- length &+ 1), count: length) / shortTermFrames
        momentaryEnergy = momentary
        shortTermEnergy = shortTerm
        // Tech 3341: while paused, momentary and short-term keep showing the audio; nothing else takes it.
        if isPaused { return }
        // After a resume the maxima take only windows wholly after it: the sub-blocks counted since, this one
        // included unless it straddles the resume.
        let heard = skipSubBlock ? 0 : measuredSubBlocks &+ 1
        if !maximaWaitForFullWindows || heard >= Self.momentarySubBlocks,
           momentary > maxMomentaryEnergy { maxMomentaryEnergy = momentary }
        if !maximaWaitForFullWindows || heard >= length,
           shortTerm > maxShortTermEnergy { maxShortTermEnergy = shortTerm }

        if skipSubBlock {
            skipSubBlock = false
            return
        }
        measuredSubBlocks &+= 1
        guard measuredSubBlocks % Self.stepSubBlocks == 0 else { return }
        // BS.1770-4: a gating block counts when its loudness is above the absolute gate, Γa = −70 LUFS.
        if measuredSubBlocks >= Self.momentarySubBlocks, momentary > absoluteGateEnergy {
            gatingBlocks.add(momentary)
            integratedIsCurrent = false
        }
        // Tech 3342: short-term values every 100 ms, of full 3 s windows, above −70 LUFS.
        if measuredSubBlocks >= length, shortTerm > absoluteGateEnergy {
            shortTermValues.add(shortTerm)
            rangeIsCurrent = false
        }
    }

    /// Sum of `count` values in a fixed order (four interleaved partial sums, then combined pairwise): the same
    /// window always gives the same bits.
    @inline(__always)
    static func sum(_ values: UnsafePointer<Double>, count: Int) -> Double {
        var (s0, s1, s2, s3) = (0.0, 0.0, 0.0, 0.0)
        var i = 0
        while i &+ 4 <= count {
            s0 += values[i]
            s1 += values[i &+ 1]
            s2 += values[i &+ 2]
            s3 += values[i &+ 3]
            i &+= 4
        }
        while i < count {
            s0 += values[i]
            i &+= 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    /// Momentary loudness, LUFS: the last 400 ms (Tech 3341 "M").
    public var momentary: Float { LoudnessUnits.reading(energy: momentaryEnergy) }

    /// Short-term loudness, LUFS: the last 3 s (Tech 3341 "S").
    public var shortTerm: Float { LoudnessUnits.reading(energy: shortTermEnergy) }

    /// The largest momentary loudness evaluated since the start or the last `reset`, LUFS.
    public var maxMomentary: Float { LoudnessUnits.reading(energy: maxMomentaryEnergy) }

    /// The largest short-term loudness evaluated since the start or the last `reset`, LUFS.
    public var maxShortTerm: Float { LoudnessUnits.reading(energy: maxShortTermEnergy) }

    /// Integrated (programme) loudness since the start or the last `reset`, LUFS, gated as BS.1770-4 says;
    /// −200 until a gating block has passed the gates.
    public var integrated: Float {
        if !integratedIsCurrent {
            integratedIsCurrent = true
            // BS.1770-4: Γr = (energy mean of the blocks above Γa) − 10 LU; I = energy mean of those above both.
            if let kept = gatingBlocks.relativelyGated(gateLU: -10), kept.count > 0 {
                integratedReading = LoudnessUnits.reading(energy: kept.energy / Double(kept.count))
            } else {
                integratedReading = Decibels.floor
            }
        }
        return integratedReading
    }

    /// Loudness range since the start or the last `reset`, LU (EBU Tech 3342); 0 until defined.
    public var range: Float {
        if !rangeIsCurrent {
            rangeIsCurrent = true
            rangeReading = 0
            if let kept = shortTermValues.relativelyGated(gateLU: -20), kept.count > 0 {
                let last = Double(kept.count - 1)
                let low = shortTermValues.energy(atRank: Int64((last * 0.10).rounded()), from: kept.firstBin)
                let high = shortTermValues.energy(atRank: Int64((last * 0.95).rounded()), from: kept.firstBin)
                if low > 0, high > low { rangeReading = Float(10 * log10(high / low)) }
            }
        }
        return rangeReading
    }

    /// Starts a new measurement: clears integrated, range, max momentary and max short-term (Tech 3341: the
    /// maxima reset with the integrated loudness). The sliding windows keep their audio, so momentary and
    /// short-term carry on without a dip.
    ///
    /// The new integration starts at the next sub-block boundary (at most 6.67 ms later), so that its first
    /// gating block holds only audio that came after the reset; the maxima take every evaluation after the reset.
    public func reset() {
        maximaWaitForFullWindows = false
        gatingBlocks.removeAll()
        shortTermValues.removeAll()
        maxMomentaryEnergy = 0
        maxShortTermEnergy = 0
        measuredSubBlocks = 0
        skipSubBlock = framesInSubBlock > 0
        integratedIsCurrent = true
        integratedReading = Decibels.floor
        rangeIsCurrent = true
        rangeReading = 0
    }

    /// Pauses the measurement (EBU Tech 3341 §2.4's stop): until `resume`, integrated, range and the maxima
    /// ignore the audio, while momentary and short-term keep showing it. The statistics keep what they had.
    public func pause() { isPaused = true }

    /// Resumes a paused measurement. As after a reset, the first gating block and the first short-term value
    /// that count hold only audio heard after the resume (it starts at the next sub-block boundary), and the
    /// maxima take only windows that lie wholly after it: integrated and range are then the BS.1770-4 /
    /// Tech 3342 figures of the audio heard while not paused, without blocks that straddle a pause.
    public func resume() {
        guard isPaused else { return }
        isPaused = false
        measuredSubBlocks = 0
        skipSubBlock = framesInSubBlock > 0
        maximaWaitForFullWindows = true
    }
}
