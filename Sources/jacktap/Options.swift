import Analysis
import ArgumentParser
import DSP
import Foundation
import Live
import OSC
import OSCOut

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

    @Option(help: ArgumentHelp(
        "Threads the analysis spreads the ports over (default: one per core); the figures are the same for any number.",
        valueName: "n"))
    var threads: Int?

    /// `--threads`, or one per core: the help shows no default, since it is the machine's.
    var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }

    @OptionGroup(title: "Musical analysis") var music: MusicOptions

    func validate() throws {
        guard (1...256).contains(threadCount) else { throw ValidationError("--threads must be between 1 and 256") }
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
        config.pitch.a4 = a4
        config.threads = threadCount
        music.apply(to: &config)
        return config
    }
}

/// Options shared by every command that publishes: where and how.
struct OutputOptions: ParsableArguments {
    @Option(name: .customLong("osc"), help: ArgumentHelp("""
        Send OSC to HOST:PORT (or just PORT on 127.0.0.1); repeat for several destinations. Each may add \
        ,key=value settings: filter=PATTERN (OSC pattern on the full address; | for several), prefix=/x, \
        rate=HZ, bundles=yes|no (or plain), scale=db|unit|byte|percent, floor=DB, ceiling=DB (unit mapping, \
        default -60, 0), attack=MS, release=MS (smoothing), broadcast, ttl=N and interface=IPV4 (multicast), \
        maxsize=BYTES (default 1400), map=FROM>TO (rename one address, e.g. for grandMA3 or Eos), \
        transport=tcp (OSC 1.0 over TCP: each packet after its int32 size; connected in the background and again \
        when the receiver restarts) and framing=slip (OSC 1.1's SLIP framing, for QLab). \
        E.g. --osc 192.168.1.255:7700,broadcast,scale=unit,filter=//level
        """, valueName: "host:port[,key=value…]"))
    var destinations: [String] = []

    @Option(help: "OSC address prefix (for destinations without prefix=).")
    var prefix: String = "/jacktap"

    @Flag(help: "Send plain OSC messages instead of bundles (for receivers that reject bundles; destinations may say bundles=yes).")
    var noBundles = false

    @Flag(help: "Print one JSON line per tick on stdout (and a summary line at the end of a file).")
    var json = false

    @Option(name: .customLong("config"), help: ArgumentHelp("""
        Read options from a YAML file whose keys are the long option names (see examples/rig.yaml). Options \
        on the command line win; a list given there (--osc, --connect, …) replaces the file's.
        """, valueName: "file"))
    var configFile: String?

    func validate() throws {
        guard !prefix.contains(where: { " #*,?[]{}".contains($0) }) else {
            throw ValidationError("--prefix '\(prefix)' contains an OSC-reserved character (space # * , ? [ ] { })")
        }
        do { _ = try destinationSettings() } catch { throw ValidationError("--osc \(error)") }
    }

    /// Checks that no destination asks for more ticks than the analysis makes (call from the command's
    /// validate, which sees both option groups).
    func validate(analysisRate: Double) throws {
        for settings in (try? destinationSettings()) ?? [] {
            if let rate = settings.rate, rate > analysisRate {
                throw ValidationError("--osc \(settings.destination): rate=\(rate) is above the analysis --rate \(analysisRate)")
            }
        }
    }

    /// Each `--osc` with its settings; `--prefix` and `--no-bundles` are the defaults.
    func destinationSettings() throws(DestinationSettingsError) -> [DestinationSettings] {
        try destinations.map { text throws(DestinationSettingsError) in
            try DestinationSettings(parsing: text, defaultPrefix: prefix, defaultBundles: !noBundles)
        }
    }

    /// What the live runtime takes of these options (the destinations were checked by `validate`).
    var live: LiveOutput {
        LiveOutput(destinations: (try? destinationSettings()) ?? [], prefix: prefix, bundles: !noBundles, json: json)
    }
}

/// Options of the broadcast meters (live and `analyze`).
struct MeterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Meters to compute and send, comma-separated: truepeak,vu,ppm,k,hold,clip,loudness,correlation, or all \
        or none. Peak, RMS, level, bands, pitch and note are always sent.
        """, valueName: "list"))
    var meters: String = "all"

    @Option(name: .customLong("program"), help: ArgumentHelp("""
        A loudness programme: NAME=PORT[:ROLE],… with roles L R C LFE Ls Rs (BS.1770 weights 1, 1, 1, 0, 1.41, \
        1.41); e.g. stage=in_1:L,in_2:R. Repeatable. Default: one programme 'main' of every input.
        """, valueName: "name=ports"))
    var programmes: [String] = []

    @Option(name: .customLong("pair"), help: ArgumentHelp(
        "Measure the stereo correlation of two inputs: [NAME=]PORT,PORT (e.g. in_1,in_2). Repeatable.",
        valueName: "ports"))
    var pairs: [String] = []

    @Option(name: .customLong("clip-threshold"), parsing: .unconditional,
            help: "Samples at or above this level (dBFS) clip; consecutive ones count as one event.")
    var clipThreshold: Float = 0

    @Option(name: .customLong("hold"), help: "Peak hold time, seconds.")
    var holdSeconds: Double = 1.5

    @Option(name: .customLong("fall"), help: "Peak hold fall rate after the hold, dB per second.")
    var fallRate: Double = 20

    @Option(name: .customLong("ppm"), help: "PPM type: II (BBC/EBU, 0 dB = -18 dBFS) or I (DIN, 0 dB = -9 dBFS).")
    var ppmType: String = "II"

    @Option(name: .customLong("k"), help: "K-system scale: 20, 14 or 12.")
    var kScale: Int = 20

    @Option(name: .customLong("vu-reference"), parsing: .unconditional,
            help: "The sine peak level (dBFS) that reads 0 VU.")
    var vuReference: Float = -18

    @Option(name: .customLong("target"), parsing: .unconditional, help: ArgumentHelp("""
        The programmes' loudness target and tolerance, LUFS[:LU]: EBU R128 -23:1 (the default), ATSC A/85 \
        -24:2, streaming -14 or -16. Reports pass or fail against it; /metrics exports it.
        """, valueName: "lufs[:lu]"))
    var target: String = "-23:1"

    @Option(name: .customLong("alarms"), help: ArgumentHelp("""
        Alarms each loudness programme raises and ends as events (OSC <prefix>/<programme>/alarm s:kind i:on, \
        --json, the meter bridge, the view, /metrics), comma-separated: silence (short-term under -60 LUFS for \
        --silence seconds), over_target (short-term over --target plus its tolerance; ends 0.5 LU under), \
        true_peak (a true peak over --true-peak-max; ends a second after the last), all, or none.
        """, valueName: "list"))
    var alarms: String = "none"

    @Option(name: .customLong("silence"), help: ArgumentHelp(
        "Seconds of short-term loudness under -60 LUFS before the silence alarm.", valueName: "seconds"))
    var silenceSeconds: Double = 10

    @Option(name: .customLong("true-peak-max"), parsing: .unconditional, help: ArgumentHelp(
        "The highest true peak allowed, dBTP (EBU R128 -1, ATSC A/85 -2): above it the true_peak alarm.",
        valueName: "dbtp"))
    var truePeakMax: Double = -1

    /// `--alarms` and their settings (validate has refused a bad list).
    var alarmSettings: AlarmSettings {
        AlarmSettings(kinds: (try? chosenAlarms()) ?? [], silenceSeconds: silenceSeconds, target: loudnessTarget,
                      truePeakMaxDB: truePeakMax)
    }

    func chosenAlarms() throws -> Set<AlarmKind> {
        let names = alarms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names == ["all"] { return Set(AlarmKind.allCases) }
        if names == ["none"] { return [] }
        var chosen = Set<AlarmKind>()
        for name in names {
            guard let kind = AlarmKind(rawValue: name) else {
                let known = AlarmKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--alarms: unknown alarm '\(name)' (known: \(known), all, none)")
            }
            chosen.insert(kind)
        }
        return chosen
    }

    /// `--target`, parsed (validate has refused a bad one).
    var loudnessTarget: LoudnessTarget { LoudnessTarget(parsing: target) ?? .ebuR128 }

    func validate() throws {
        _ = try chosenMeters()
        guard ["I", "II", "1", "2"].contains(ppmType.uppercased()) else {
            throw ValidationError("--ppm must be I or II")
        }
        guard [20, 14, 12].contains(kScale) else { throw ValidationError("--k must be 20, 14 or 12") }
        guard holdSeconds >= 0, holdSeconds <= 60 else { throw ValidationError("--hold must be 0 to 60 seconds") }
        guard fallRate > 0, fallRate <= 1000 else { throw ValidationError("--fall must be above 0 dB/s") }
        guard clipThreshold <= 0, clipThreshold >= -60 else { throw ValidationError("--clip-threshold must be -60 to 0 dBFS") }
        let alarmKinds = try chosenAlarms()
        let metered = try chosenMeters()
        if !alarmKinds.isEmpty, !metered.contains(.loudness) {
            throw ValidationError("--alarms needs the loudness meter, which --meters leaves out")
        }
        if alarmKinds.contains(.truePeak), !metered.contains(.truePeak) {
            throw ValidationError("--alarms true_peak needs the true-peak meter, which --meters leaves out")
        }
        guard silenceSeconds > 0, silenceSeconds <= 86_400 else {
            throw ValidationError("--silence must be above 0 and at most 86400 seconds")
        }
        guard truePeakMax.isFinite, (-60...6).contains(truePeakMax) else {
            throw ValidationError("--true-peak-max must be -60 to +6 dBTP")
        }
        guard LoudnessTarget(parsing: target) != nil else {
            throw ValidationError("--target '\(target)' is not LUFS[:LU] with LUFS from -70 to 0 and LU from 0 to 10 (e.g. -23:1, -24:2, -14)")
        }
    }

    func chosenMeters() throws -> Set<MeterConfig.Meter> {
        let names = meters.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if names == ["all"] { return Set(MeterConfig.Meter.allCases) }
        if names == ["none"] { return [] }
        var chosen = Set<MeterConfig.Meter>()
        for name in names {
            guard let meter = MeterConfig.Meter(rawValue: name) else {
                let known = MeterConfig.Meter.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--meters: unknown meter '\(name)' (known: \(known), all, none)")
            }
            chosen.insert(meter)
        }
        return chosen
    }

    /// The meter settings for inputs named `ports`; a programme or pair naming another port is an error.
    func config(ports: [String]) throws(Failure) -> MeterConfig {
        var config = MeterConfig()
        do { config.meters = try chosenMeters() } catch { throw Failure(description: "\(error)", code: Failure.usage) }
        config.clipThresholdDB = clipThreshold
        config.holdSeconds = holdSeconds
        config.fallDBPerSecond = fallRate
        config.ppmType = ["I", "1"].contains(ppmType.uppercased()) ? .typeI : .typeII
        config.ppmReferenceDB = config.ppmType == .typeI ? -9 : -18
        config.kScale = Float(kScale)
        config.vuReferenceDB = vuReference
        config.alarms = alarmSettings
        func index(_ name: Substring, in option: String) throws(Failure) -> Int {
            guard let i = ports.firstIndex(of: String(name)) else {
                throw Failure(description: "\(option): no input named '\(name)' (inputs: \(ports.joined(separator: ", ")))",
                              code: Failure.usage)
            }
            return i
        }
        for text in programmes {
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw Failure(description: "--program '\(text)' is not NAME=PORT[:ROLE],…", code: Failure.usage)
            }
            var members = [(port: Int, role: ChannelRole)]()
            for member in parts[1].split(separator: ",") {
                let fields = member.split(separator: ":")
                let role: ChannelRole
                if fields.count == 2 {
                    guard let r = ChannelRole(rawValue: String(fields[1])) ?? ChannelRole.allCases.first(where: {
                        $0.rawValue.lowercased() == fields[1].lowercased() }) else {
                        throw Failure(description: "--program: unknown role '\(fields[1])' (L R C LFE Ls Rs)",
                                      code: Failure.usage)
                    }
                    role = r
                } else {
                    role = .left
                }
                members.append((port: try index(fields[0], in: "--program"), role: role))
            }
            config.programmes.append(MeterConfig.Programme(name: String(parts[0]), members: members))
        }
        for text in pairs {
            let parts = text.split(separator: "=", maxSplits: 1)
            let portsText = parts.count == 2 ? parts[1] : parts[0]
            let names = portsText.split(separator: ",")
            guard names.count == 2 else {
                throw Failure(description: "--pair '\(text)' is not [NAME=]PORT,PORT", code: Failure.usage)
            }
            let name = parts.count == 2 ? String(parts[0]) : "\(names[0])-\(names[1])"
            config.pairs.append(MeterConfig.Pair(name: name, left: try index(names[0], in: "--pair"),
                                                 right: try index(names[1], in: "--pair")))
        }
        let taken = Set(ports)
        for name in config.programmes.map(\.name) + config.pairs.map(\.name) where taken.contains(name) {
            throw Failure(description: "'\(name)' is an input's name; give the programme or pair another", code: Failure.usage)
        }
        return config
    }
}
