import Foundation

/// A second-order Butterworth low-pass (RBJ Audio EQ Cookbook form), run on the stream before YIN.
///
/// YIN compares the signal with itself shifted by whole samples. When a period is not a whole number of
/// samples, content near Nyquist no longer lines up at either neighbouring lag, d′ at the true period stays
/// high, and the exact repeat at twice the period wins: a plucked string read an octave low. De Cheveigné &
/// Kawahara (2002, §IV.A) likewise low-pass before the difference function.
struct LowPassBiquad {
    let b0, b1, b2, a1, a2: Double
    var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

    init(cutoff: Double, sampleRate: Double) {
        let w0 = 2 * Double.pi * min(cutoff, 0.45 * sampleRate) / sampleRate
        let q = 0.5.squareRoot()  // Butterworth
        let alpha = sin(w0) / (2 * q)
        let a0 = 1 + alpha
        b0 = (1 - cos(w0)) / 2 / a0
        b1 = (1 - cos(w0)) / a0
        b2 = b0
        a1 = -2 * cos(w0) / a0
        a2 = (1 - alpha) / a0
    }

    @inline(__always)
    mutating func process(_ x: Float) -> Float {
        let input = Double(x)
        var y = b0 * input + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
        // Flush the decaying tail of silence before it turns denormal and slow.
        if abs(y) < 1e-30 { y = 0 }
        x2 = x1
        x1 = input
        y2 = y1
        y1 = y
        return Float(y)
    }

    mutating func reset() { x1 = 0; x2 = 0; y1 = 0; y2 = 0 }
}
