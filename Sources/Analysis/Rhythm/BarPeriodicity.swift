import Foundation

/// How well each beat period fits the bars the music repeats: music repeats its pattern every bar, so a beat
/// period that is right divides a strong repetition of the onset function into 3 or 4 beats, and one at 4/3 or
/// 3/2 of it does not.
///
/// The onset function alone cannot always tell: a loop whose accents fall every three sixteenths (3-3-3-3-4,
/// Sonic Pi's safari) is explained as well by a beat every three sixteenths (160 BPM for a 120 BPM loop) as by
/// the quarter notes, but its pattern repeats every 2 s, which is four beats of 120 and 5⅓ of 160. This is
/// the bar length that the bar-pointer models of Krebs, Böck and Widmer learn from annotated bars; jacktap
/// reads it from the signal instead, as the normalised autocorrelation of the onset function at the lengths
/// of a bar of 3 and of 4 beats of each period.
///
/// The autocorrelation is leaky (it forgets with a time constant of `memorySeconds`) and normalised at each lag
/// by the energy of the two parts it compares, so it reads alike from the first bars on. Each period is
/// scored at the best of the lags its block spans (a period of P frames stands for P ± ½, so 4 bars of it for
/// 4P ± 2), because the bar of a 120 BPM loop at 115 frames per second is 230.4 frames, not a whole number of
/// 57 or 58. Everything is allocated in `init`.
final class BarPeriodicity {
    /// 4 s: two bars of 120 BPM. A memory of 8 s read the same tempi but held on to an old bar through a
    /// tempo change (the step from 100 to 130 BPM followed 1 beat later, safari's beat F 0.04 lower).
    static let memorySeconds: Double = 4
    /// Beats per bar whose bar lengths are read: 3 through 4 (a range, not an array: `score` runs on the
    /// analysis thread's hot path and must not touch the heap).
    static let fewestBeatsPerBar = 3
    static let mostBeatsPerBar = 4

    let shortestPeriod: Int
    let longestPeriod: Int
    /// Longest lag read, frames.
    let longestLag: Int
    private let decay: Float
    private let history: UnsafeMutablePointer<Float>
    private var newest = -1
    private var frames = 0
    /// Leaky sums of x(t)·x(t-l) and of x(t-l)² for every lag l, and of x(t)².
    private let product: UnsafeMutablePointer<Float>
    private let laggedEnergy: UnsafeMutablePointer<Float>
    private var energy: Float = 0

    init(frameRate: Double, shortestPeriod: Int, longestPeriod: Int) {
        self.shortestPeriod = shortestPeriod
        self.longestPeriod = longestPeriod
        longestLag = Self.mostBeatsPerBar * longestPeriod + Self.mostBeatsPerBar / 2 + 1
        decay = Float(exp(-1 / (Self.memorySeconds * frameRate)))
        history = .allocate(capacity: longestLag + 1)
        history.initialize(repeating: 0, count: longestLag + 1)
        product = .allocate(capacity: longestLag + 1)
        product.initialize(repeating: 0, count: longestLag + 1)
        laggedEnergy = .allocate(capacity: longestLag + 1)
        laggedEnergy.initialize(repeating: 0, count: longestLag + 1)
    }

    deinit {
        history.deallocate()
        product.deallocate()
        laggedEnergy.deallocate()
    }

    func reset() {
        history.update(repeating: 0, count: longestLag + 1)
        product.update(repeating: 0, count: longestLag + 1)
        laggedEnergy.update(repeating: 0, count: longestLag + 1)
        energy = 0
        newest = -1
        frames = 0
    }

    /// Frames seen since the start or the last reset.
    var framesSeen: Int { frames }

    /// Adds one frame of the onset function.
    func push(_ x: Float) {
        let size = longestLag + 1
        newest = newest + 1 == size ? 0 : newest + 1
        history[newest] = x
        frames += 1
        energy = decay * energy + x * x
        let available = min(frames - 1, longestLag)
        guard available >= 1 else { return }
        var index = newest
        for lag in 1...available {
            index = index == 0 ? size - 1 : index - 1
            let old = history[index]
            product[lag] = decay * product[lag] + x * old
            laggedEnergy[lag] = decay * laggedEnergy[lag] + old * old
        }
    }

    /// The normalised autocorrelation at `lag` frames, 0…1 (0 before that lag has been seen).
    func correlation(lag: Int) -> Float {
        guard lag >= 1, lag <= longestLag else { return 0 }
        let norm = (energy * laggedEnergy[lag]).squareRoot()
        return norm > 0 ? product[lag] / norm : 0
    }

    /// How well a beat period of `period` frames (± ½) fits the bar: the best correlation over the lags of a
    /// bar of 3 or of 4 such beats.
    func score(period: Int) -> Float {
        var best: Float = 0
        for beats in Self.fewestBeatsPerBar...Self.mostBeatsPerBar {
            // ⌊beats·(period − ½)⌋ … ⌈beats·(period + ½)⌉, in whole numbers.
            let low = beats * (2 * period - 1) / 2
            let high = (beats * (2 * period + 1) + 1) / 2
            for lag in low...high { best = max(best, correlation(lag: lag)) }
        }
        return best
    }
}
