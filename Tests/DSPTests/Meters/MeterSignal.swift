import DSP
import Foundation

/// Signals and drivers the meter tests share: generated here, never read from files.
enum MeterSignal {
    /// A sine of `frequency` Hz, peak `amplitude`, starting at `phaseDegrees`, `seconds` long, with linear
    /// fades of `fadeSeconds` at both ends (Tech 3341's true-peak signals use 10 ms).
    static func sine(frequency: Double, amplitude: Double, phaseDegrees: Double = 0, seconds: Double,
                     sampleRate: Double, fadeSeconds: Double = 0) -> [Float] {
        let n = Int((seconds * sampleRate).rounded())
        let fade = Int((fadeSeconds * sampleRate).rounded())
        let phase = phaseDegrees * .pi / 180
        return (0..<n).map { i in
            let cycles = Double(i) * frequency / sampleRate
            var v = amplitude * sin(2 * .pi * (cycles - cycles.rounded(.down)) + phase)
            if fade > 0 {
                v *= min(1, Double(i) / Double(fade), Double(n - 1 - i) / Double(fade))
            }
            return Float(v)
        }
    }

    /// `seconds` of silence.
    static func silence(seconds: Double, sampleRate: Double) -> [Float] {
        Array(repeating: 0, count: Int((seconds * sampleRate).rounded()))
    }

    /// Uniform white noise in −amplitude…amplitude from a fixed-seed LCG (reproducible runs).
    static func noise(count: Int, amplitude: Float, seed: UInt32 = 12345) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(Int32(bitPattern: state)) / Float(Int32.max) * amplitude
        }
    }

    /// 20·log10 of a linear value, in Double.
    static func dB(_ linear: Float) -> Double { 20 * log10(Double(linear)) }

    /// Feeds `signal` to `process` in blocks cycling through `blocks`.
    static func feed(_ signal: [Float], blocks: [Int], _ process: (UnsafePointer<Float>, Int) -> Void) {
        signal.withUnsafeBufferPointer { buffer in
            var done = 0
            var b = 0
            while done < buffer.count {
                let n = min(blocks[b % blocks.count], buffer.count - done)
                process(buffer.baseAddress! + done, n)
                done += n
                b += 1
            }
        }
    }

    /// Readings taken every `segment` samples, each segment fed in blocks cycling through `blocks`.
    static func readings(of signal: [Float], segment: Int, blocks: [Int],
                         process: (UnsafePointer<Float>, Int) -> Void, read: () -> Float) -> [Float] {
        var out = [Float]()
        var start = 0
        while start < signal.count {
            let piece = Array(signal[start..<min(start + segment, signal.count)])
            feed(piece, blocks: blocks, process)
            out.append(read())
            start += segment
        }
        return out
    }

    /// The block patterns every meter must read the same with: 64, 256, 1024, single samples, 97, and a
    /// mix of odd sizes.
    static let blockPatterns: [[Int]] = [[64], [256], [1024], [1], [97], [13, 1, 255, 64, 7, 500]]

    /// A programme-like test signal at 48 kHz: a 1 kHz burst, silence, noise, a 5 kHz burst, a low tone
    /// and a decay into silence (3 s).
    static func programme(sampleRate: Double = 48_000) -> [Float] {
        var s = sine(frequency: 1000, amplitude: 0.7, seconds: 0.4, sampleRate: sampleRate)
        s += silence(seconds: 0.3, sampleRate: sampleRate)
        s += noise(count: Int(0.5 * sampleRate), amplitude: 0.3)
        s += sine(frequency: 5000, amplitude: 0.9, seconds: 0.01, sampleRate: sampleRate)
        s += silence(seconds: 0.29, sampleRate: sampleRate)
        s += sine(frequency: 60, amplitude: 0.5, seconds: 0.5, sampleRate: sampleRate)
        let decay = sine(frequency: 440, amplitude: 0.8, seconds: 1.0, sampleRate: sampleRate)
        s += decay.enumerated().map { $0.element * Float(exp(-Double($0.offset) / (0.05 * sampleRate))) }
        return s
    }

    /// True-peak cases 15–19 of EBU Tech 3341: (case, sine, expected dBTP). Frequencies are fractions of the
    /// sample rate, so the cases apply at any rate.
    static func truePeakSines(sampleRate fs: Double) -> [(number: Int, signal: [Float], expected: Double)] {
        let cases: [(Int, Double, Double, Double, Double)] = [
            (15, fs / 4, 0.5, 0, -6.0),
            (16, fs / 4, 0.5, 45, -6.0),
            (17, fs / 6, 0.5, 60, -6.0),
            (18, fs / 8, 0.5, 67.5, -6.0),
            (19, fs / 4, 1.41, 45, 3.0),
        ]
        return cases.map { number, f, a, phase, expected in
            (number, sine(frequency: f, amplitude: a, phaseDegrees: phase, seconds: 1, sampleRate: fs,
                          fadeSeconds: 0.01), expected)
        }
    }

    /// True-peak cases 20–23 of EBU Tech 3341 as it describes them: 100 ms of a sine at fs/6 of
    /// amplitude 0.5 in which one period of fs/4 at 1.0 takes the tone's place, made at 4·fs, low-passed
    /// below fs/2 (Kaiser-windowed sinc, 0.45 fs, β 10, 511 taps at 4·fs), scaled so that its largest
    /// 4·fs sample is exactly 1.0 (what makes the expected reading 0.0 dBTP), and decimated by 4 at
    /// offsets 0…3, so the peak falls on a sample once and between samples three times.
    static func truePeakBursts(sampleRate fs: Double) -> [(number: Int, signal: [Float])] {
        let up = 4 * fs
        let n = Int(0.1 * up)  // 100 ms at 4·fs
        let burstStart = n / 2
        let burstLength = 16  // one period of fs/4 at 4·fs
        let x = (0..<n).map { i -> Double in
            if i >= burstStart && i < burstStart + burstLength {
                return sin(2 * .pi * Double(i - burstStart) / Double(burstLength))
            }
            return 0.5 * sin(2 * .pi * Double(i) * (fs / 6) / up)
        }
        // Low-pass at 0.45 fs (0.1125 of the 4·fs rate); only the part the kernel fully covers is kept.
        let half = 255
        let cutoff = 0.45 * fs / up
        let kernel = (-half...half).map { k -> Double in
            let t = Double(k)
            let sinc = k == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)
            let r = t / Double(half)
            return sinc * besselI0(10 * (1 - r * r).squareRoot()) / besselI0(10)
        }
        let y = x.withUnsafeBufferPointer { xs in
            kernel.withUnsafeBufferPointer { ks in
                (half..<(n - half)).map { i -> Double in
                    var acc = 0.0
                    for j in 0..<ks.count { acc += ks[j] * xs[i + j - half] }
                    return acc
                }
            }
        }
        let peak = y.map { abs($0) }.max()!
        return (0..<4).map { offset in
            (20 + offset, stride(from: offset, to: y.count, by: 4).map { Float(y[$0] / peak) })
        }
    }

    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        for k in 1..<64 {
            term *= (x / 2) * (x / 2) / Double(k * k)
            sum += term
        }
        return sum
    }
}
