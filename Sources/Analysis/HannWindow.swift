import Foundation

/// The periodic Hann window, 0.5 − 0.5 cos(2πi/N), in a buffer the caller owns, and its sum (what a full-scale
/// sine's magnitude is scaled by).
enum HannWindow {
    static func allocate(size: Int) -> (window: UnsafeMutablePointer<Float>, sum: Double) {
        let window = UnsafeMutablePointer<Float>.allocate(capacity: size)
        var sum = 0.0
        for i in 0..<size {
            let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(size))
            window[i] = Float(w)
            sum += w
        }
        return (window, sum)
    }
}
