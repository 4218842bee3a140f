import CFFTW

/// YIN's cumulative-mean-normalised difference d′(τ) of one window (de Cheveigné & Kawahara 2002, JASA 111,
/// steps 2–3), computed from an FFT autocorrelation, and the lag YIN picks from it (steps 4–5).
///
/// The difference is taken over the whole window (McLeod & Wyvill 2005, "type II" autocorrelation): for
/// every lag the pairs (x_j, x_j+τ) are centred on the window's centre, so an estimate describes that instant
/// whatever the period. Each lag's squared difference is divided by the energy of the samples it pairs
/// (1 − NSDF), so a note that decays or starts inside the window does not favour short lags.
final class CumulativeMeanDifference {
    /// Samples per window: two of the longest periods.
    let windowSize: Int
    /// Shortest and longest lag searched (the highest and lowest frequency).
    let minimumLag: Int
    let maximumLag: Int
    /// FFT length: zero padding to windowSize + maximumLag + 2 keeps the circular autocorrelation linear
    /// up to the lag after maximumLag, rounded up to a power of two. (FFTW's plans for some 3·5-smooth sizes,
    /// e.g. 3,645 and 3,375, allocate scratch memory on every execute.)
    let fftSize: Int
    let forward: fftwf_plan
    let inverse: fftwf_plan
    let real: UnsafeMutablePointer<Float>
    let spectrum: UnsafeMutablePointer<fftwf_complex>
    /// d(τ) / energy of the pairs, 0…2, for τ = 0…maximumLag + 1.
    let normalisedDifference: UnsafeMutablePointer<Double>
    /// d′(τ), for τ = 0…maximumLag + 1.
    let cumulativeMean: UnsafeMutablePointer<Double>

    init(windowSize: Int, minimumLag: Int, maximumLag: Int) {
        precondition(minimumLag >= 2 && maximumLag > minimumLag && windowSize >= 2 * maximumLag)
        self.windowSize = windowSize
        self.minimumLag = minimumLag
        self.maximumLag = maximumLag
        fftSize = Self.powerOfTwo(atLeast: windowSize + maximumLag + 2)
        (forward, real, spectrum) = FFTWPlanner.makeRealForward(size: fftSize)
        // The inverse runs in place on the forward plan's buffers: the spectrum back into the real array.
        inverse = FFTWPlanner.makeRealInverse(size: fftSize, input: spectrum, output: real)
        normalisedDifference = .allocate(capacity: maximumLag + 2)
        normalisedDifference.initialize(repeating: 0, count: maximumLag + 2)
        cumulativeMean = .allocate(capacity: maximumLag + 2)
        cumulativeMean.initialize(repeating: 1, count: maximumLag + 2)
    }

    deinit {
        FFTWPlanner.destroy(inverse)
        FFTWPlanner.destroy(forward, real, spectrum)
        normalisedDifference.deallocate()
        cumulativeMean.deallocate()
    }

    /// The smallest power of two ≥ `minimum`.
    static func powerOfTwo(atLeast minimum: Int) -> Int {
        var n = 1
        while n < minimum { n *= 2 }
        return n
    }

    /// Computes d′ of `frame` (`windowSize` samples, oldest first).
    func compute(_ frame: UnsafePointer<Float>) {
        let n = windowSize
        real.update(from: frame, count: n)
        // Four running sums: one alone waits on each add before the next (a third of this function's time).
        var sums = (0.0, 0.0, 0.0, 0.0)
        var j = 0
        while j + 4 <= n {
            let (a, b, c, d) = (Double(frame[j]), Double(frame[j + 1]), Double(frame[j + 2]), Double(frame[j + 3]))
            sums = (sums.0 + a * a, sums.1 + b * b, sums.2 + c * c, sums.3 + d * d)
            j += 4
        }
        var sum = (sums.0 + sums.1) + (sums.2 + sums.3)
        while j < n {
            sum += Double(frame[j]) * Double(frame[j])
            j += 1
        }
        (real + n).update(repeating: 0, count: fftSize - n)
        FFTWPlanner.execute(forward)
        VectorLoops.squareMagnitudes(UnsafeMutableRawPointer(spectrum).assumingMemoryBound(to: Float.self),
                                     count: fftSize / 2 + 1)
        FFTWPlanner.execute(inverse)
        // real[τ] is now fftSize · Σ x_j x_j+τ; pairs' energy m(τ) by a running sum from m(0) = 2Σx².
        let unscale = 1 / Double(fftSize)
        var pairsEnergy = 2 * sum
        var running = 0.0
        normalisedDifference[0] = 0
        cumulativeMean[0] = 1
        for tau in 1...(maximumLag + 1) {
            let a = Double(frame[tau - 1]), b = Double(frame[n - tau])
            pairsEnergy -= a * a + b * b
            let product = 2 * Double(real[tau]) * unscale
            // Rounding can leave tiny negative energies once a window has gone silent.
            let difference = pairsEnergy > 1e-20 * Double(n) ? min(max(1 - product / pairsEnergy, 0), 2) : 1
            normalisedDifference[tau] = difference
            running += difference
            cumulativeMean[tau] = running > 0 ? difference * Double(tau) / running : 1
        }
    }

    /// YIN steps 4–5: the first dip of d′ below `threshold` (followed to its bottom); when no dip reaches it,
    /// the first dip within `fallbackMargin` of the deepest. Refined by a parabola through the normalised
    /// difference. Returns the lag in samples and d′ at it.
    ///
    /// YIN's own fallback is the deepest dip itself. But noise, or the tail of one note under the next, lifts
    /// every dip of d′ by about as much, so the dips at 2, 3, 4… periods are as deep as the period's and the
    /// deepest is a subharmonic picked at random: a 220 Hz sine in pink noise at 3 dB SNR read 55, 73 or 110 Hz
    /// in half its frames. The first dip close to the deepest is the shortest lag that repeats as well.
    func bestLag(threshold: Double, fallbackMargin: Double) -> (lag: Double, cumulativeMean: Double) {
        var deepest = minimumLag
        for t in minimumLag...maximumLag where cumulativeMean[t] < cumulativeMean[deepest] { deepest = t }
        let chosen = firstDip(below: max(threshold, cumulativeMean[deepest] + fallbackMargin)) ?? deepest
        let shift = Self.parabolicVertex(normalisedDifference[chosen - 1], normalisedDifference[chosen],
                                         normalisedDifference[chosen + 1]).offset
        let depth = Self.parabolicVertex(cumulativeMean[chosen - 1], cumulativeMean[chosen],
                                         cumulativeMean[chosen + 1]).value
        return (Double(chosen) + shift, min(max(depth, 0), cumulativeMean[chosen]))
    }

    /// The bottom of the first dip of d′ below `limit` in the lag range, nil when there is none.
    func firstDip(below limit: Double) -> Int? {
        var tau = minimumLag
        while tau <= maximumLag {
            if cumulativeMean[tau] < limit {
                while tau < maximumLag && cumulativeMean[tau + 1] < cumulativeMean[tau] { tau += 1 }
                return tau
            }
            tau += 1
        }
        return nil
    }

    /// Vertex of the parabola through (-1, a), (0, b), (1, c): offset within ±1 and value there.
    @inline(__always)
    static func parabolicVertex(_ a: Double, _ b: Double, _ c: Double) -> (offset: Double, value: Double) {
        let curvature = a - 2 * b + c
        guard curvature > 0 else { return (0, b) }
        let offset = min(max(0.5 * (a - c) / curvature, -1), 1)
        return (offset, b - 0.25 * (a - c) * offset)
    }
}
