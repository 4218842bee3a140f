import Foundation

/// A synthetic drum loop for the beat tests: kick on beats 1 and 3, snare on 2 and 4, closed hi-hat on every
/// eighth, at a known tempo, so the beat grid is known exactly (the first beat at `firstBeat` seconds). In 3/4
/// (`beatsPerBar` 3) the kick plays beat 1 and the snare beats 2 and 3. `init(tempoMap:)` plays a loop whose
/// tempo changes from beat to beat (a step, a ritardando).
///
/// Kick: a 50 ms-decay sine falling from 150 to 50 Hz; snare: 200 Hz body plus noise, 60 ms decay; hat: noise
/// differentiated (a crude high-pass), 20 ms decay. Levels about -6 dBFS peak at the kick.
public struct DrumLoop {
    public let bpm: Double
    public let sampleRate: Double
    public let seconds: Double
    public let firstBeat: Double
    public let beatsPerBar: Int

    /// The beat instants, seconds.
    public let beats: [Double]

    public init(bpm: Double, sampleRate: Double, seconds: Double, firstBeat: Double = 0.5, beatsPerBar: Int = 4) {
        precondition(beatsPerBar == 3 || beatsPerBar == 4, "3/4 or 4/4")
        self.bpm = bpm
        self.sampleRate = sampleRate
        self.seconds = seconds
        self.firstBeat = firstBeat
        self.beatsPerBar = beatsPerBar
        beats = stride(from: firstBeat, to: seconds, by: 60 / bpm).map { $0 }
    }

    /// A loop whose beat n lasts 60 / tempoMap[n] seconds (the last tempo goes on to the end).
    public init(tempoMap: [Double], sampleRate: Double, seconds: Double, firstBeat: Double = 0.5) {
        precondition(!tempoMap.isEmpty && tempoMap.allSatisfy { $0 > 0 }, "tempi must be positive")
        var beats = [Double]()
        var t = firstBeat
        while t < seconds {
            beats.append(t)
            t += 60 / tempoMap[min(beats.count - 1, tempoMap.count - 1)]
        }
        self.beats = beats
        bpm = tempoMap[0]
        self.sampleRate = sampleRate
        self.seconds = seconds
        self.firstBeat = firstBeat
        beatsPerBar = 4
    }

    /// The first beat of every bar, seconds.
    public var downbeats: [Double] { beats.enumerated().filter { $0.offset % beatsPerBar == 0 }.map(\.element) }

    /// The rendered mono signal.
    public func render() -> [Float] {
        let frames = Int(seconds * sampleRate)
        var out = [Float](repeating: 0, count: frames)
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func noise() -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: seed) >> 11) / Float(1 << 52)
        }
        func add(at time: Double, length: Double, _ sample: (Double) -> Float) {
            let start = Int((time * sampleRate).rounded())
            for i in 0..<Int(length * sampleRate) where start + i < frames { out[start + i] += sample(Double(i) / sampleRate) }
        }
        for (n, beat) in beats.enumerated() {
            if beatsPerBar == 4 ? n % 2 == 0 : n % 3 == 0 {
                add(at: beat, length: 0.3) { t in
                    // Phase of a sweep whose frequency falls exponentially from 150 to 50 Hz (time constant 40 ms).
                    let phase = 2 * Double.pi * (50 * t + 100 * 0.04 * (1 - exp(-t / 0.04)))
                    return Float(0.5 * exp(-t / 0.05) * sin(phase))
                }
            } else {
                add(at: beat, length: 0.25) { t in Float(exp(-t / 0.06)) * (0.15 * Float(sin(2 * .pi * 200 * t)) + 0.25 * noise()) }
            }
        }
        // Hats on every beat and halfway to the next (the last beat's period continues).
        for (n, beat) in beats.enumerated() {
            let next = n + 1 < beats.count ? beats[n + 1] : beat + (n > 0 ? beat - beats[n - 1] : 60 / bpm)
            for hat in [beat, (beat + next) / 2] where hat < seconds {
                var previous: Float = 0
                add(at: hat, length: 0.08) { t in
                    let n = noise()
                    defer { previous = n }
                    return Float(exp(-t / 0.02)) * 0.12 * (n - previous)
                }
            }
        }
        return out
    }
}
