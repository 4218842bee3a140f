import DSP

/// Drives a ballistic meter with a step on and off and measures its timing in 1 ms reads (48 samples at
/// 48 kHz), as an instrument tester would with a tone burst and a stopwatch.
struct BallisticsMeasure {
    /// Time (s) from the tone's start to the first read at or above 99 % of the final reading.
    var riseTo99Percent: Double
    /// Largest reading during the tone over the final reading, minus 1.
    var overshoot: Double
    /// The final reading: the read at the end of the tone.
    var final: Double
    /// Time (s) from the tone's end to the first read at or below `fallFraction` of `final`.
    var fallTime: Double

    /// Plays `tone` (long enough to settle) then silence, reading every `tick` samples.
    static func measure(tone: [Float], silenceSamples: Int, tick: Int, sampleRate: Double, fallFraction: Double,
                        process: (UnsafePointer<Float>, Int) -> Void, read: () -> Float) -> BallisticsMeasure {
        let toneReads = MeterSignal.readings(of: tone, segment: tick, blocks: [tick], process: process, read: read)
        let silence = [Float](repeating: 0, count: silenceSamples)
        let fallReads = MeterSignal.readings(of: silence, segment: tick, blocks: [tick], process: process,
                                             read: read)
        let final = Double(toneReads.last!)
        let seconds = Double(tick) / sampleRate
        let rise = toneReads.firstIndex { Double($0) >= 0.99 * final }.map { Double($0 + 1) * seconds } ?? .infinity
        let fall = fallReads.firstIndex { Double($0) <= fallFraction * final }.map { Double($0 + 1) * seconds }
            ?? .infinity
        let top = Double(toneReads.max()!)
        return BallisticsMeasure(riseTo99Percent: rise, overshoot: top / final - 1, final: final, fallTime: fall)
    }
}
