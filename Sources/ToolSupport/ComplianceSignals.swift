import Foundation

/// The synthesisable EBU Tech 3341 and Tech 3342 test signals, made here at 48 kHz:
/// "tone" is a 1 kHz sine, stereo in phase, its level the sine's peak per channel in dBFS.
public enum ComplianceSignals {
    public static let rate = 48_000

    /// `seconds` of a 1 kHz sine at `dBFS` peak (0 for `nil`: silence), starting at phase 0.
    public static func tone(_ dBFS: Double?, seconds: Double, frequency: Double = 1000) -> [Float] {
        let n = Int((seconds * Double(rate)).rounded())
        guard let dBFS else { return [Float](repeating: 0, count: n) }
        let a = pow(10, dBFS / 20)
        return (0..<n).map { Float(a * sin(2 * .pi * frequency * Double($0) / Double(rate))) }
    }

    /// Consecutive segments of (level, seconds) of the tone.
    public static func steps(_ segments: [(Double?, Double)]) -> [Float] {
        segments.flatMap { tone($0.0, seconds: $0.1) }
    }

    /// A stereo pair of the same mono signal.
    public static func stereo(_ mono: [Float]) -> [[Float]] { [mono, mono] }

    /// Tech 3341 case 9: (1.34 s at -20, 1.66 s at -30) × 5.
    public static var case9: [Float] {
        let cycle: [(Double?, Double)] = [(-20, 1.34), (-30, 1.66)]
        return steps(Array(repeating: cycle, count: 5).flatMap { $0 })
    }

    /// Tech 3341 case 10, signal i: i·0.15 s silence, 3 s at -23, 1 s silence.
    public static func case10(_ i: Int) -> [Float] { steps([(nil, Double(i) * 0.15), (-23, 3), (nil, 1)]) }

    /// Tech 3341 case 11: for i in 0..<20: i·0.15 s silence, 3 s at -38+i, (3 - i·0.15) s silence.
    public static var case11: [Float] {
        var out = [Float]()
        for i in 0..<20 {
            let lead = Double(i) * 0.15
            let segments: [(Double?, Double)] = [(nil, lead), (Double(-38 + i), 3), (nil, 3 - lead)]
            out += steps(segments)
        }
        return out
    }

    /// Tech 3341 case 12: (0.18 s at -20, 0.22 s at -30) × 25.
    public static var case12: [Float] {
        let cycle: [(Double?, Double)] = [(-20, 0.18), (-30, 0.22)]
        return steps(Array(repeating: cycle, count: 25).flatMap { $0 })
    }

    /// Tech 3341 case 13, signal i: i·0.02 s silence, 0.4 s at -23, 1 s silence.
    public static func case13(_ i: Int) -> [Float] { steps([(nil, Double(i) * 0.02), (-23, 0.4), (nil, 1)]) }

    /// Tech 3341 case 14: for i in 0..<20: i·0.02 s silence, 0.4 s at -38+i, (0.4 - i·0.02) s silence.
    public static var case14: [Float] {
        var out = [Float]()
        for i in 0..<20 {
            let lead = Double(i) * 0.02
            let segments: [(Double?, Double)] = [(nil, lead), (Double(-38 + i), 0.4), (nil, 0.4 - lead)]
            out += steps(segments)
        }
        return out
    }

    /// Tech 3341 cases 15–19: a sine at `fraction`·fs of `amplitude` and `phaseDegrees`, 1 s with 10 ms fades.
    public static func truePeakSine(fraction: Double, amplitude: Double, phaseDegrees: Double) -> [Float] {
        let n = rate
        let fade = rate / 100
        return (0..<n).map { i in
            let ramp = Double(min(i, n - 1 - i, fade)) / Double(fade)
            return Float(ramp * amplitude * sin(2 * .pi * fraction * Double(i) + phaseDegrees * .pi / 180))
        }
    }

    /// Tech 3341 cases 20–23: a sine at fs/6 of amplitude 0.5 with one period of fs/4 at amplitude 1.0 in its
    /// middle, made at 4·fs, low-passed below fs/2 and decimated at `offset` (0…3).
    public static func truePeakBurst(offset: Int) -> [Float] {
        let upsampled = 4 * rate / 2  // 0.5 s at 4·fs
        let fs4 = Double(4 * rate)
        let burstStart = upsampled / 2
        let burstLength = 16  // one period of fs/4 at 4·fs
        var x = (0..<upsampled).map { i -> Double in
            if i >= burstStart && i < burstStart + burstLength {
                return sin(2 * .pi * (Double(rate) / 4) * Double(i - burstStart) / fs4)
            }
            return 0.5 * sin(2 * .pi * (Double(rate) / 6) * Double(i) / fs4)
        }
        // Windowed-sinc low-pass at 0.45·fs (of the target rate), 255 taps, Blackman window.
        let taps = 255
        let cutoff = 0.45 * Double(rate) / fs4
        let h = (0..<taps).map { k -> Double in
            let m = Double(k - taps / 2)
            let sinc = m == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * m) / (.pi * m)
            let w = 0.42 - 0.5 * cos(2 * .pi * Double(k) / Double(taps - 1)) + 0.08 * cos(4 * .pi * Double(k) / Double(taps - 1))
            return sinc * w
        }
        var y = [Double](repeating: 0, count: upsampled)
        for i in 0..<upsampled {
            var sum = 0.0
            for k in 0..<taps where i - k + taps / 2 >= 0 && i - k + taps / 2 < upsampled {
                sum += h[k] * x[i - k + taps / 2]
            }
            y[i] = sum
        }
        x = y
        return stride(from: offset, to: upsampled, by: 4).map { Float(x[$0]) }
    }
}
