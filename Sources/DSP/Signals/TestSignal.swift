import Foundation

/// The built-in test signals `jacktap generate` and `jacktap demo` play: plain data, rendered without
/// allocating, so a JACK process callback can call `render`.
public struct TestSignal: Sendable {
    /// What is played.
    public enum Kind: Sendable, Equatable {
        /// A line-up tone: a sine of `frequency` Hz whose peak is `levelDBFS` (so its RMS is 3.01 dB lower).
        case tone(frequency: Double, levelDBFS: Double)
        /// The musical demo: 120 BPM, a four-bar progression (Am F C G) of plucked arpeggios in eighth notes,
        /// a kick on every beat and a hi-hat on the off-beats. Peaks stay below -3 dBFS.
        case demo
    }

    /// The signal played.
    public let kind: Kind
    /// The sample rate it is rendered at (from JACK, never a constant).
    public private(set) var sampleRate: Double
    var sampleIndex: Int = 0
    var noiseState: UInt32 = 0x1234_5678

    /// A generator of `kind` at `sampleRate`.
    public init(kind: Kind, sampleRate: Double) {
        self.kind = kind
        self.sampleRate = sampleRate
    }

    /// Renders at `rate` from now on, carrying on from the same instant (the server changed its rate:
    /// PipeWire's clock.force-rate). Arithmetic only: the real-time callback calls it.
    public mutating func follow(sampleRate rate: Double) {
        // Truncation, not rounded(): round() is a libm call the callback checker does not allow.
        sampleIndex = Int(Double(sampleIndex) * rate / sampleRate + 0.5)
        sampleRate = rate
    }

    /// Seconds rendered so far.
    public var elapsed: Double { Double(sampleIndex) / sampleRate }

    /// Renders the next `count` samples into `output`.
    public mutating func render(into output: UnsafeMutablePointer<Float>, count: Int) {
        switch kind {
        case .tone(let frequency, let level):
            let amplitude = pow(10, level / 20)
            let step = frequency / sampleRate
            for i in 0..<count {
                // Phase from the sample index, reduced to [0, 1): no drift however long it plays.
                let cycles = Double(sampleIndex &+ i) * step
                output[i] = Float(amplitude * sin(2 * .pi * (cycles - cycles.rounded(.down))))
            }
        case .demo:
            for i in 0..<count { output[i] = demoSample(at: sampleIndex &+ i) }
        }
        sampleIndex &+= count
    }

    /// MIDI note of eighth `step` (0…7) of `bar` (0…3): arpeggios of A minor, F, C and G major, up two
    /// octaves and back (root, third, fifth, octave, tenth, octave, fifth, third). Computed, not looked up in
    /// a global table: a global array would be initialised lazily (swift_once) on the real-time thread.
    static func arpeggioNote(bar: Int, step: Int) -> Int {
        let root: Int
        let third: Int
        switch bar {
        case 0: (root, third) = (57, 3)
        case 1: (root, third) = (53, 4)
        case 2: (root, third) = (48, 4)
        default: (root, third) = (55, 4)
        }
        switch step {
        case 0: return root
        case 1, 7: return root + third
        case 2, 6: return root + 7
        case 3, 5: return root + 12
        default: return root + 12 + third
        }
    }

    mutating func demoSample(at index: Int) -> Float {
        let t = Double(index) / sampleRate
        let beat = 0.5  // 120 BPM
        let eighth = beat / 2
        let step = Int(t / eighth)
        let tau = t - Double(step) * eighth
        let bar = (step / 8) % 4
        let midi = TestSignal.arpeggioNote(bar: bar, step: step % 8)
        let f = MusicalNote.frequency(midi: midi)
        // A plucked tone: fundamental with two weaker harmonics, 3 ms attack, exponential decay.
        let envelope = min(tau / 0.003, 1) * exp(-tau / 0.18)
        let w = 2 * Double.pi * f * tau
        let pluck = 0.30 * envelope * (sin(w) + 0.25 * sin(2 * w) + 0.1 * sin(3 * w))
        // Kick: a sine sweeping 110 -> 45 Hz, phase integrated in closed form.
        let beatTau = t - (t / beat).rounded(.down) * beat
        let sweep = 0.03
        let phase = 2 * Double.pi * (45 * beatTau + 65 * sweep * (1 - exp(-beatTau / sweep)))
        let kick = 0.35 * exp(-beatTau / 0.12) * sin(phase)
        // Hi-hat on the off-beat: differentiated white noise (a bright hiss), 25 ms decay.
        var hat = 0.0
        let offTau = beatTau - eighth
        if offTau >= 0 {
            noiseState = noiseState &* 1_664_525 &+ 1_013_904_223
            let white = Double(Int32(bitPattern: noiseState)) / Double(Int32.max)
            hat = 0.08 * exp(-offTau / 0.025) * white
        }
        return Float(pluck + kick + hat)
    }
}
