// Benchmarks of jacktap's real-time tap and analysis, printed as tab-separated rows for Benchmarks/run,
// which sets them beside the C reference loop measured in the same run.
import Analysis
import DSP
import Glibc
import JSONOut

/// Monotonic time in nanoseconds.
func now() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// The median of `runs` timings of `body` (each run `repeats` calls), in ns per call.
func measure(runs: Int = 15, repeats: Int, _ body: () -> Void) -> Double {
    var samples = [Double]()
    for _ in 0..<runs {
        let start = now()
        for _ in 0..<repeats { body() }
        samples.append(Double(now() - start) / Double(repeats))
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// One period of the callback's work for `ports` ports: what `jacktapTapProcess` does after fetching the
/// port buffers (measure, copy into the ring, publish, sem_post); the reader drains outside the timing.
func tapBenchmark(ports: Int, frames: Int, sampleRate: Double) -> (nsPerPortFrame: Double, percentOfPeriod: Double) {
    let tap = Tap.allocate(channels: ports, ringFrames: 8 * frames)
    defer { tap.deallocate() }
    let input = UnsafeMutablePointer<Float>.allocate(capacity: ports * frames)
    defer { input.deallocate() }
    var seed: UInt32 = 1
    for i in 0..<(ports * frames) {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        input[i] = Float(Int32(bitPattern: seed)) / Float(Int32.max) * 0.5
    }
    var wake = sem_t()
    sem_init(&wake, 0, 0)
    defer { sem_destroy(&wake) }
    let repeats = max(1, 2_000_000 / (ports * frames))
    let ns = measure(repeats: repeats) {
        if tap.ring.readableFrames() > 4 * frames {
            tap.ring.consume(tap.ring.readableFrames())
            while sem_trywait(&wake) == 0 {}
        }
        let copy = tap.beginPeriod(frames: frames)
        for c in 0..<ports { tap.process(channel: c, samples: input + c * frames, count: frames, copy: copy) }
        tap.endPeriod(frames: frames, copied: copy)
        sem_post(&wake)
    }
    let period = Double(frames) / sampleRate * 1e9
    return (ns / Double(ports * frames), 100 * ns / period)
}

/// Seconds of CPU per second of audio for one port through tap + engine (analysis at the default settings).
func analysisBenchmark(seconds: Double, sampleRate: Double, period: Int, runs: Int = 5,
                       music: MusicSelection.Analyses = .all, learnedActivation: Bool = false) -> Double {
    let frames = Int(seconds * sampleRate)
    var signal = TestSignal(kind: .demo, sampleRate: sampleRate)
    let audio = UnsafeMutablePointer<Float>.allocate(capacity: frames)
    defer { audio.deallocate() }
    signal.render(into: audio, count: frames)
    let ns = measure(runs: runs, repeats: 1) {
        let tap = Tap.allocate(channels: 1, ringFrames: 4 * period)
        defer { tap.deallocate() }
        var config = AnalysisConfig()
        config.music = MusicSelection(everyPort: music)
        if learnedActivation {
            config.rhythm.learnedActivation = try! BeatNetworkWeights.bundled.get()
            config.rhythm.beatModel = .learned
            config.rhythm.minimumBPM = RhythmConfig.learnedMinimumBPM
            config.rhythm.maximumBPM = RhythmConfig.learnedMaximumBPM
        }
        let engine = AnalysisEngine(tap: tap, sampleRate: sampleRate, portNames: ["in_1"], config: config)
        var start = 0
        var ticks = 0
        while start < frames {
            let n = min(period, frames - start)
            let copy = tap.beginPeriod(frames: n)
            tap.process(channel: 0, samples: audio + start, count: n, copy: copy)
            tap.endPeriod(frames: n, copied: copy)
            ticks += engine.poll().count
            start += n
        }
        precondition(ticks > 0)
    }
    return ns / 1e9 / seconds
}

/// CPU seconds per second of audio for `ports` ports through the full broadcast meter set, fed in periods
/// of `period` frames: per port true peak, VU, PPM, K, clip counter, and the ports' loudness programme
/// (M evaluated every 6.67 ms, S, I, LRA), as the analysis thread runs them.
func meterBenchmark(ports: Int, seconds: Double, sampleRate: Double, period: Int) -> Double {
    let frames = Int(seconds * sampleRate)
    var signal = TestSignal(kind: .demo, sampleRate: sampleRate)
    let audio = UnsafeMutablePointer<Float>.allocate(capacity: frames)
    defer { audio.deallocate() }
    signal.render(into: audio, count: frames)
    let truePeaks = (0..<ports).map { _ in TruePeakMeter(sampleRate: sampleRate) }
    let vus = (0..<ports).map { _ in VUMeter(sampleRate: sampleRate) }
    let ppms = (0..<ports).map { _ in PPMMeter(kind: .typeII, sampleRate: sampleRate) }
    let ks = (0..<ports).map { _ in KMeter(sampleRate: sampleRate) }
    let clips = (0..<ports).map { _ in ClipCounter() }
    let loudness = LoudnessMeter(sampleRate: sampleRate, roles: Array(repeating: .left, count: ports))
    let pointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: ports)
    defer { pointers.deallocate() }
    let ns = measure(runs: 3, repeats: 1) {
        var start = 0
        while start + period <= frames {
            let block = UnsafePointer(audio + start)
            for p in 0..<ports {
                truePeaks[p].process(block, count: period)
                vus[p].process(block, count: period)
                ppms[p].process(block, count: period)
                ks[p].process(block, count: period)
                clips[p].process(block, count: period)
                pointers[p] = block
            }
            loudness.process(UnsafePointer(pointers), count: period)
            start += period
        }
        precondition(loudness.integrated.isFinite && truePeaks[0].read() > 0)
    }
    return ns / 1e9 / (Double(frames / period * period) / sampleRate)
}

/// One true-peak meter over `seconds` of the demo signal in 256-frame periods, read every 1600 frames (a tick
/// at 30 per second): the workload `Benchmarks/truepeak-cost` counts instructions of under callgrind.
func truePeakWorkload(seconds: Double, sampleRate: Double) {
    let frames = Int(seconds * sampleRate)
    var signal = TestSignal(kind: .demo, sampleRate: sampleRate)
    let audio = UnsafeMutablePointer<Float>.allocate(capacity: frames)
    defer { audio.deallocate() }
    signal.render(into: audio, count: frames)
    let meter = TruePeakMeter(sampleRate: sampleRate)
    var start = 0
    var reading: Float = 0
    while start + 256 <= frames {
        meter.process(audio + start, count: 256)
        start += 256
        if start % 1600 < 256 { reading = max(reading, meter.read()) }
    }
    precondition(reading > 0)
}

if CommandLine.arguments.dropFirst().first == "analysis" {
    // One port of the default analysis over 5 s of the demo signal, once: the workload callgrind profiles.
    // `analysis SECONDS RUNS` times it as `make bench` does (20 s, best of 5); `learned` among the arguments runs
    // the beat tracker on the learned activation, as `--beat-activation learned` (Benchmarks/beat-cost).
    let arguments = CommandLine.arguments.dropFirst(2).compactMap { Double($0) }
    let seconds = arguments.first ?? 5
    let runs = arguments.count > 1 ? Int(arguments[1]) : 1
    let cpu = analysisBenchmark(seconds: seconds, sampleRate: 48_000, period: 256, runs: runs,
                                learnedActivation: CommandLine.arguments.contains("learned"))
    print("analysis\t\(cpu)")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "json" {
    let r = jsonBenchmark(ports: 64, ticksPerSecond: 30)
    print("# json\tports\tticks_per_second\tjacktap_core_share\tfoundation_core_share")
    print("json\t64\t30\t\(r.jacktap)\t\(r.foundation)")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "json-workload" {
    // 128 ports' JSON lines, 40 ticks, once: the workload callgrind profiles beside osc-workload.
    let snapshot = benchmarkSnapshot(ports: 128)
    var bytes = 0
    for _ in 0..<40 { bytes &+= JSONLines.line(for: snapshot).utf8.count }
    precondition(bytes > 0)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "osc-workload" {
    // 128 ports' ticks through the router, once: the workload callgrind profiles.
    oscWorkload(ports: 128, ticks: 40)
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "osc" {
    print("# osc\tports\tticks_per_second\tosc_core_share\tjson_core_share")
    for ports in [1, 64, 128] {
        let r = oscBenchmark(ports: ports, ticksPerSecond: 30)
        print("osc\t\(ports)\t30\t\(r.osc)\t\(r.json)")
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "scrape" {
    // Benchmarks/fleet-cost: GET /metrics at 1, 16 and 128 ports, beside the JSON line of the same tick.
    print("# scrape\tports\trecord_ns_per_tick\tscrape_ns\texposition_bytes\tjson_line_ns")
    for ports in [1, 16, 128] {
        let r = scrapeBenchmark(ports: ports)
        print("scrape\t\(ports)\t\(r.recordNs)\t\(r.scrapeNs)\t\(r.bytes)\t\(r.jsonNs)")
    }
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "loudness-log" {
    // Benchmarks/fleet-cost: --loudness-log per programme, into the directory given.
    let r = loudnessLogBenchmark(directory: CommandLine.arguments.dropFirst(2).first ?? "/tmp")
    print("# loudness_log\tanalysis_ns_per_tick\tns_per_second_of_audio")
    print("loudness_log\t\(r.perTickNs)\t\(r.perSecondNs)")
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "truepeak" {
    truePeakWorkload(seconds: 10, sampleRate: 48_000)
    exit(0)
}

let sampleRate = 48_000.0
print("# tap\tports\tframes\tns_per_port_frame\tpercent_of_period")
for ports in [1, 8, 64] {
    for frames in [64, 256, 1024] {
        let r = tapBenchmark(ports: ports, frames: frames, sampleRate: sampleRate)
        print("tap\t\(ports)\t\(frames)\t\(r.nsPerPortFrame)\t\(r.percentOfPeriod)")
    }
}
let cpu = analysisBenchmark(seconds: 20, sampleRate: sampleRate, period: 256)
print("# analysis\tcpu_seconds_per_audio_second_per_port\ttimes_real_time_per_port")
print("analysis\t\(cpu)\t\(1 / cpu)")
// The same with part of the musical analysis (`--music`): meters and bands only, with pitch, with rhythm.
print("# analysis_music\twhat\tcpu_seconds_per_audio_second_per_port")
for (name, music) in [("none", MusicSelection.Analyses.none), ("pitch", .init(pitch: true, rhythm: false)),
                      ("rhythm", .init(pitch: false, rhythm: true))] {
    print("analysis_music\t\(name)\t\(analysisBenchmark(seconds: 20, sampleRate: sampleRate, period: 256, music: music))")
}
print("# meters\tports\tcpu_seconds_per_audio_second")
for ports in [1, 64] {
    print("meters\t\(ports)\t\(meterBenchmark(ports: ports, seconds: ports == 1 ? 60 : 10, sampleRate: sampleRate, period: 256))")
}
