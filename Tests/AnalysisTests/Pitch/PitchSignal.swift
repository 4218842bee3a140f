import Analysis
import DSP
import Foundation

/// Test signals for the pitch tracker, generated here, and a runner that collects every estimate.
enum PitchSignal {
    /// A sine of `frequency` Hz, `seconds` long, peak `amplitude`.
    static func sine(_ frequency: Double, rate: Double, seconds: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * rate)).map { amplitude * Float(sin(2 * Double.pi * frequency * Double($0) / rate)) }
    }

    /// A tone whose instantaneous frequency is `frequency(t)`, phase-continuous.
    static func tone(rate: Double, seconds: Double, amplitude: Float = 0.5, frequency: (Double) -> Double) -> [Float] {
        var phase = 0.0
        return (0..<Int(seconds * rate)).map { i in
            let value = amplitude * Float(sin(phase))
            phase += 2 * Double.pi * frequency(Double(i) / rate) / rate
            return value
        }
    }

    /// A band-limited sawtooth: every harmonic below `rate`/2 at 1/k, peak about `amplitude`.
    static func sawtooth(_ frequency: Double, rate: Double, seconds: Double, amplitude: Float = 0.4) -> [Float] {
        let harmonics = Int(rate / 2 / frequency)
        return (0..<Int(seconds * rate)).map { i in
            var sum = 0.0
            for k in 1...max(harmonics, 1) { sum += sin(2 * Double.pi * frequency * Double(k * i) / rate) / Double(k) }
            return amplitude * Float(sum / 1.85)
        }
    }

    /// A Karplus–Strong plucked string (Karplus & Strong 1983): a noise burst through a delay of `delay`
    /// samples and a two-point average, which sounds at rate / (delay + 0.5) Hz.
    static func pluck(delay: Int, rate: Double, seconds: Double, seed: UInt64 = 3) -> [Float] {
        var line = white(count: delay, amplitude: 0.5, seed: seed)
        var out = [Float](repeating: 0, count: Int(seconds * rate))
        var previous: Float = 0
        for i in out.indices {
            let position = i % delay
            let current = line[position]
            out[i] = current
            line[position] = 0.498 * (current + previous)
            previous = current
        }
        return out
    }

    /// Uniform white noise in ±`amplitude` from a fixed 64-bit LCG (Knuth's MMIX constants).
    static func white(count: Int, amplitude: Float, seed: UInt64) -> [Float] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return amplitude * (Float(state >> 40) / Float(1 << 23) - 1)
        }
    }

    /// Pink (1/f) noise: white noise through Paul Kellett's published "economy" three-pole filter, which
    /// approximates -3 dB/octave over the audio band.
    static func pink(count: Int, amplitude: Float, seed: UInt64) -> [Float] {
        let source = white(count: count, amplitude: 1, seed: seed)
        var b0: Float = 0, b1: Float = 0, b2: Float = 0
        return source.map { w in
            b0 = 0.99765 * b0 + w * 0.0990460
            b1 = 0.96300 * b1 + w * 0.2965164
            b2 = 0.57000 * b2 + w * 1.0526913
            return amplitude * 0.25 * (b0 + b1 + b2 + w * 0.1848)
        }
    }

    /// Every estimate `tracker` makes over `samples`, fed `chunk` frames at a time (chunk ≤ hop sees them all),
    /// with the displayed note after each.
    static func estimates(_ tracker: PitchTracker, _ samples: [Float], chunk: Int = 1)
        -> [(estimate: PitchEstimate, note: MusicalNote?)] {
        var found: [(estimate: PitchEstimate, note: MusicalNote?)] = []
        samples.withUnsafeBufferPointer { p in
            var offset = 0
            while offset < p.count {
                let n = min(chunk, p.count - offset)
                tracker.process(p.baseAddress! + offset, count: n)
                offset += n
                if let latest = tracker.latest, latest.centreFrame != found.last?.estimate.centreFrame {
                    found.append((latest, tracker.note))
                }
            }
        }
        return found
    }

    /// Cents from `reference` to `frequency`.
    static func cents(_ frequency: Double, from reference: Double) -> Double { 1200 * log2(frequency / reference) }
}
