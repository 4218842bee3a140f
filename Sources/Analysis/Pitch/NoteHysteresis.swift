import DSP
import Foundation

/// The displayed note of a pitch track: it moves to another semitone only once the pitch is
/// `hysteresisCents` beyond the half-way boundary, so vibrato or a slightly out-of-tune note sitting on a
/// boundary does not flicker between two names.
struct NoteHysteresis {
    /// MIDI number of the note on display, nil when none is.
    private(set) var midi: Int?

    /// Takes the next voiced frequency (nil: unvoiced) and returns the note to display.
    ///
    /// The cents are measured from the displayed note. `MusicalNote` can only name its nearest note, so while a
    /// held note is past the boundary its cents read ±49.99 rather than the true ±50…(50 + hysteresis).
    mutating func update(frequency: Double?, a4: Double, hysteresisCents: Float) -> MusicalNote? {
        guard let frequency, frequency > 0, frequency.isFinite else {
            midi = nil
            return nil
        }
        let exact = 69 + 12 * log2(frequency / a4)
        let nearest = Int(exact.rounded())
        if let held = midi, abs(exact - Double(held)) <= 0.5 + Double(max(hysteresisCents, 0)) / 100 {
            let cents = min(max(exact - Double(held), -0.4999), 0.4999)
            return MusicalNote(frequency: a4 * pow(2, (Double(held) + cents - 69) / 12), a4: a4)
        }
        guard let note = MusicalNote(frequency: frequency, a4: a4) else {
            midi = nil
            return nil
        }
        midi = nearest
        return note
    }

    mutating func reset() { midi = nil }
}
