import Foundation

/// The strongest spectral peak's frequency, refined between bins, with a confidence.
///
/// Raw bin picking is off by up to half a bin (±5.9 Hz at 48 kHz / 4096, ±12 Hz at 96 kHz). For a Hann window
/// the ratio α = |X(k+1)| / |X(k)| of the two largest bins gives the offset exactly for a lone sinusoid:
/// δ = (2α − 1) / (α + 1) (Grandke, "Interpolation algorithms for discrete Fourier transforms of weighted
/// signals", IEEE Trans. Instrum. Meas. 32(2), 1983).
///
/// Confidence is the share of the spectrum's power within ±2 bins of the peak (the Hann main lobe): about 1
/// for a pure tone, near 0 for noise.
public struct DominantFrequency: Equatable, Sendable {
    /// Frequency in Hz.
    public let frequency: Double
    /// 0…1.
    public let confidence: Float

    /// The estimate from `spectrum`'s current power, searching `lowest`…`highest` Hz; nil when the spectrum
    /// holds no power at all.
    public init?(spectrum: PowerSpectrum, sampleRate: Double, lowest: Double, highest: Double) {
        let power = spectrum.power
        let binWidth = sampleRate / Double(spectrum.size)
        let last = power.count - 1
        let first = max(1, Int((lowest / binWidth).rounded(.down)))
        let end = min(last - 1, Int((highest / binWidth).rounded(.up)))
        guard first < end else { return nil }
        var peak = first
        var total: Double = 0
        for k in 1...last { total += Double(power[k]) }
        for k in first...end where power[k] > power[peak] { peak = k }
        guard total > 1e-20, power[peak] > 0 else { return nil }

        let here = spectrum.magnitude(peak)
        let left = spectrum.magnitude(peak - 1)
        let right = spectrum.magnitude(peak + 1)
        var offset: Double
        if right >= left {
            let alpha = Double(right / here)
            offset = (2 * alpha - 1) / (alpha + 1)
        } else {
            let alpha = Double(left / here)
            offset = -(2 * alpha - 1) / (alpha + 1)
        }
        offset = min(max(offset, -1), 1)
        frequency = (Double(peak) + offset) * binWidth

        var lobe: Double = 0
        for k in max(1, peak - 2)...min(last, peak + 2) { lobe += Double(power[k]) }
        confidence = Float(min(lobe / total, 1))
    }
}
