import Foundation

/// A frequency named as the nearest equal-tempered note: name with octave ("A4"), MIDI number and cents off.
public struct MusicalNote: Equatable, Sendable {
    /// Scientific pitch notation, sharps only: "C4", "C#4", … (MIDI 60 is C4).
    public let name: String
    /// MIDI note number, 69 = A4.
    public let midi: Int
    /// Cents from the named note, -50...+50.
    public let cents: Float

    static let pitchClasses = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// The note nearest `frequency`, with A4 tuned to `a4` Hz; nil for a frequency that is not positive.
    public init?(frequency: Double, a4: Double = 440) {
        guard frequency > 0, frequency.isFinite, a4 > 0 else { return nil }
        let exact = 69 + 12 * log2(frequency / a4)
        let nearest = exact.rounded()
        guard nearest >= 0, nearest <= 127 else { return nil }
        midi = Int(nearest)
        cents = Float((exact - nearest) * 100)
        name = MusicalNote.name(midi: midi)
    }

    /// The name of MIDI note `midi` ("A4" for 69).
    public static func name(midi: Int) -> String {
        pitchClasses[((midi % 12) + 12) % 12] + String(midi / 12 - 1)
    }

    /// The equal-tempered frequency of MIDI note `midi`.
    public static func frequency(midi: Int, a4: Double = 440) -> Double {
        a4 * pow(2, Double(midi - 69) / 12)
    }
}
