import Analysis
import ArgumentParser
import OSC
import Output

/// Options shared by the live tap and `analyze`: what is computed.
struct AnalysisOptions: ParsableArguments {
    @Option(help: "Snapshots (OSC ticks, JSON lines) per second of audio.")
    var rate: Double = 30

    @Option(help: "FFT window in samples (bands and pitch).")
    var fft: Int = 4096

    @Option(help: "Number of log-spaced bands between 60 Hz and 18 kHz.")
    var bands: Int = 48

    @Option(parsing: .unconditional, help: "RMS level (dBFS) that /level maps to 0 (e.g. --floor -60).")
    var floor: Float = -60

    @Option(help: "Tuning of A4 in Hz, for note names and cents.")
    var a4: Double = 440

    func validate() throws {
        guard rate > 0, rate <= 1000 else { throw ValidationError("--rate must be between 0 and 1000 ticks per second") }
        guard fft >= 256, fft <= 65_536, fft % 2 == 0 else { throw ValidationError("--fft must be an even size from 256 to 65536") }
        guard bands >= 1, bands <= 512 else { throw ValidationError("--bands must be between 1 and 512") }
        guard floor < 0, floor >= -200 else { throw ValidationError("--floor must be between -200 and 0 dBFS") }
        guard a4 >= 100, a4 <= 1000 else { throw ValidationError("--a4 must be between 100 and 1000 Hz") }
    }

    var config: AnalysisConfig {
        var config = AnalysisConfig()
        config.rate = rate
        config.fftSize = fft
        config.bandCount = bands
        config.levelFloorDB = floor
        config.a4 = a4
        return config
    }
}

/// Options shared by every command that publishes: where and how.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("osc"), help: ArgumentHelp(
        "Send OSC to HOST:PORT (or just PORT on 127.0.0.1); repeat for several destinations.",
        valueName: "host:port"))
    var destinations: [String] = []

    @Option(help: "OSC address prefix.")
    var prefix: String = "/jacktap"

    @Flag(help: "Send plain OSC messages instead of one bundle per tick (for receivers that reject bundles).")
    var noBundles = false

    @Flag(help: "Print one JSON line per tick on stdout (and a summary line at the end of a file).")
    var json = false

    func validate() throws {
        for text in destinations {
            do { _ = try OSCDestination(parsing: text) } catch { throw ValidationError("--osc \(error)") }
        }
        guard !prefix.contains(where: { " #*,?[]{}".contains($0) }) else {
            throw ValidationError("--prefix '\(prefix)' contains an OSC-reserved character (space # * , ? [ ] { })")
        }
    }

    /// Parsed destinations (validate() has checked them).
    func parsedDestinations() throws -> [OSCDestination] {
        try destinations.map { text throws(OSCDestinationError) in try OSCDestination(parsing: text) }
    }

    var publisher: OSCPublisher { OSCPublisher(prefix: prefix, bundles: !noBundles) }
}
