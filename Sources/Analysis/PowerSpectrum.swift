import CFFTW
import Foundation

/// The Hann-windowed power spectrum of the newest `size` samples, computed with an FFTW real FFT planned once.
///
/// Power is scaled so that a sine of amplitude A sums to A² over its main lobe
/// (P = 4·Σ|X_k|² / (N·Σw²)): a band holding a whole sine reads that sine's peak in dBFS.
public final class PowerSpectrum {
    /// FFT length in samples.
    public let size: Int
    /// Power per bin, 0…size/2, on the scale above.
    public private(set) var power: [Float]
    let window: [Float]
    let scale: Float
    let plan: fftwf_plan
    let input: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<fftwf_complex>

    /// Plans an FFT of `size` samples (a power of two is fastest; any even size works).
    public init(size: Int) {
        precondition(size >= 16 && size % 2 == 0, "FFT size must be even and at least 16")
        self.size = size
        // Periodic Hann (the DFT-even form): sums to N/2, squares sum to 3N/8.
        window = (0..<size).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size))) }
        let sumOfSquares = window.reduce(0) { $0 + Double($1) * Double($1) }
        scale = Float(4 / (Double(size) * sumOfSquares))
        power = Array(repeating: 0, count: size / 2 + 1)
        (plan, input, output) = FFTWPlanner.makeRealForward(size: size)
    }

    deinit { FFTWPlanner.destroy(plan, input, output) }

    /// Computes the spectrum of `samples` (oldest first, exactly `size` of them).
    public func compute(_ samples: UnsafePointer<Float>) {
        for i in 0..<size { input[i] = samples[i] * window[i] }
        FFTWPlanner.execute(plan)
        let s = scale
        power.withUnsafeMutableBufferPointer { p in
            for k in 0...(size / 2) {
                let (re, im) = output[k]
                p[k] = (re * re + im * im) * s
            }
        }
    }
}
