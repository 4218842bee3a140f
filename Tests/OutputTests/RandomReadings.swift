import Analysis
import DSP
import Foundation
import ToolSupport

/// Readings of every kind `--json` writes, with values chosen to be awkward for a number formatter: ties of the
/// decimal grid and their neighbours, exact binary ties (k / 2^m), small values that round to a signed zero, -0,
/// values past 2^53 when scaled, the largest Float, NaN and ±infinity (a dB floor of -inf), beside ordinary ones.
struct RandomReadings {
    var generator: SplitMix

    init(seed: UInt64) { generator = SplitMix(seed: seed) }

    static let specials: [Double] = [
        0, -0.0, 0.00005, -0.00005, 0.00015, 0.0005, -0.0005, 0.005, 0.05, 0.5, -0.5, 1.5, 2.5, -2.5, 0.125, 0.375,
        0.0625, 0.03125, 0.015625, 9.995, 99.995, 0.99995, 1.00005, 120.005, -199.9995, -200, 200, 1e15, 9.1e15,
        1e17, -1e20, 1e30, Double(Float.greatestFiniteMagnitude), -Double(Float.greatestFiniteMagnitude),
        Double(Float.leastNonzeroMagnitude), -Double(Float.leastNonzeroMagnitude), Double.leastNonzeroMagnitude,
        -Double.leastNonzeroMagnitude, 1.7976931348623157e308,
    ]
    static let nonFinite: [Double] = [.nan, -.nan, .infinity, -.infinity]

    /// A value usually in `typical`, written with `decimals` digits.
    mutating func double(_ typical: ClosedRange<Double>, decimals: Int) -> Double {
        let grid = pow(10, Double(decimals))
        switch Int.random(in: 0..<12, using: &generator) {
        case 0..<4:
            return Double.random(in: typical, using: &generator)
        case 4, 5:
            let k = (Double.random(in: typical, using: &generator) * grid).rounded(.down)
            let tie = (k + 0.5) / grid
            return [tie, tie.nextUp, tie.nextDown][Int.random(in: 0..<3, using: &generator)]
        case 6:
            return Double(Int.random(in: -100_000...100_000, using: &generator)) / Double(1 << Int.random(in: 1...16, using: &generator))
        case 7:
            return Double.random(in: -1...1, using: &generator) / grid
        case 8, 9:
            return Self.specials.randomElement(using: &generator)!
        case 10:
            return Self.nonFinite.randomElement(using: &generator)!
        default:
            return Double.random(in: -1e7...1e7, using: &generator)
        }
    }

    /// As `double`, rounded to a Float, sometimes moved one Float step either way (Float ties are rarely exact).
    mutating func float(_ typical: ClosedRange<Double>, decimals: Int) -> Float {
        let v = Float(double(typical, decimals: decimals))
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return v.nextUp
        case 1: return v.nextDown
        default: return v
        }
    }

    mutating func integer() -> Int {
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: return 0
        case 1: return [Int.max, Int.min, -1, 1, 10, 100, 1 << 53].randomElement(using: &generator)!
        case 2: return Int.random(in: Int.min...Int.max, using: &generator)
        default: return Int.random(in: 0...10_000, using: &generator)
        }
    }

    mutating func maybe<T>(_ make: (inout Self) -> T) -> T? {
        Bool.random(using: &generator) ? make(&self) : nil
    }

    /// A name or path from pieces JSON must escape (quotes, backslashes, control characters), OSC must replace
    /// (spaces, '/', '#', '{', non-ASCII) and ordinary ones; sometimes empty.
    mutating func text() -> String {
        let pieces = ["in_", "1", "64", "system:capture_", "main", " ", "\"", "\\", "\n", "\t", "\r", "\u{01}", "\u{1F}",
                      "\u{7F}", "é", "ß", "🎵", "/", "#", "{", "}", "*", ",", "?", "[", "]", "-", "a.wav"]
        return (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    mutating func dB() -> Float { float(-200...20, decimals: 3) }

    mutating func unitList(_ count: Int) -> [Float] { (0..<count).map { _ in float(0...1, decimals: 4) } }

    mutating func port() -> PortReading {
        var meters = MeterReading()
        meters.truePeakDB = maybe { $0.dB() }
        meters.vu = maybe { $0.float(-40...6, decimals: 3) }
        meters.ppm = maybe { $0.float(-40...12, decimals: 3) }
        meters.k = maybe { $0.float(-60...20, decimals: 3) }
        meters.holdDB = maybe { $0.dB() }
        meters.clips = maybe { $0.integer() }
        let bandCount = [0, 1, 4, 48, Int.random(in: 0...96, using: &generator)].randomElement(using: &generator)!
        let pitch: PitchReading? = maybe {
            PitchReading(frequency: $0.double(30...5000, decimals: 2), confidence: $0.float(0...1, decimals: 3),
                         voiced: Bool.random(using: &$0.generator), time: $0.double(0...100_000, decimals: 4))
        }
        // MIDI 0 to 127 and a little beyond either end (no note there), cents anywhere in ±50.
        let note: MusicalNote? = maybe { MusicalNote(frequency: Double.random(in: 7...14_000, using: &$0.generator)) } ?? nil
        return PortReading(
            name: text(), peakDB: dB(), rmsDB: dB(), level: float(0...1, decimals: 4), bands: unitList(bandCount),
            pitch: pitch, note: note, meters: meters, tempo: maybe { $0.float(55...215, decimals: 2) },
            phase: maybe { $0.float(0...1, decimals: 3) },
            bands4: Bool.random(using: &generator) ? unitList(4) : [],
            bands7: Bool.random(using: &generator) ? unitList(7) : [])
    }

    mutating func programme() -> ProgrammeReading {
        var reading = ProgrammeReading(
            name: text(), momentary: float(-70...0, decimals: 3), shortTerm: float(-70...0, decimals: 3),
            integrated: float(-70...0, decimals: 3), range: float(0...30, decimals: 3),
            maxMomentary: float(-70...0, decimals: 3), maxShortTerm: float(-70...0, decimals: 3))
        reading.paused = Int.random(in: 0..<4, using: &generator) == 0
        return reading
    }

    mutating func snapshot() -> Snapshot {
        Snapshot(time: double(0...100_000, decimals: 4), ports: (0..<Int.random(in: 0...4, using: &generator)).map { _ in port() },
                 overruns: integer(), programmes: (0..<Int.random(in: 0...2, using: &generator)).map { _ in programme() },
                 pairs: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                     PairReading(name: text(), correlation: float(-1...1, decimals: 4))
                 })
    }

    mutating func event() -> AnalysisEvent {
        let kind: AnalysisEvent.Kind
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: kind = .onset(strength: float(0...1, decimals: 3))
        case 1: kind = .beat(count: integer(), bpm: float(55...215, decimals: 2),
                             bar: AnalysisEvent.BarPosition(bar: integer(), beat: integer(), beatsPerBar: integer()))
        default: kind = .alarm(AlarmKind.allCases.randomElement(using: &generator)!, on: Bool.random(using: &generator))
        }
        return AnalysisEvent(port: text(), kind: kind, time: double(0...100_000, decimals: 4),
                             reported: double(0...100_000, decimals: 4))
    }

    mutating func summary() -> RunSummary {
        let count = Int.random(in: 0...4, using: &generator)
        // The optional figures may be shorter than the names (a meter left out): those ports have no such key.
        return RunSummary(
            peakDB: (0..<count).map { _ in dB() }, rmsDB: (0..<count).map { _ in dB() }, names: (0..<count).map { _ in text() },
            frames: [Int.random(in: 0...100_000_000, using: &generator), integer()].randomElement(using: &generator)!,
            sampleRate: [44_100, 48_000, 96_000, 44_100.5, 0, double(8000...192_000, decimals: 0)].randomElement(using: &generator)!,
            overruns: integer(),
            truePeakDB: (0..<Int.random(in: 0...count, using: &generator)).map { _ in maybe { $0.dB() } },
            clips: (0..<Int.random(in: 0...count, using: &generator)).map { _ in maybe { $0.integer() } },
            programmes: (0..<Int.random(in: 0...2, using: &generator)).map { _ in programme() })
    }
}
