import DSP
import Foundation
import XCTest

/// LoudnessMeter against libebur128 (Debian's libebur128-dev), through the reference harness
/// Benchmarks/c-reference/ebur128_reference.c, on signals no one here wrote: sox's pink noise in level steps,
/// a sox sweep, espeak-ng speech, a 5.1 noise. Integrated, range, max momentary and max short-term must agree
/// within 0.05 LU (see `compare` for the two places where libebur128 measures something else).
///
/// Needs gcc, libebur128-dev, libsndfile1-dev, sox and espeak-ng (scripts/install-dependencies); fails when one
/// is missing.
final class LibEBUR128ComparisonTests: XCTestCase {
    static let tolerance = 0.05

    struct Reference: Decodable {
        var integrated: Double
        var range: Double
        var range_10hz: Double
        var max_momentary: Double
        var max_shortterm: Double
        var true_peak_dbtp: [Double]
        var sample_peak_dbfs: [Double]
        var seconds: Double
    }

    struct ReferenceMissing: Error {}

    var directory: URL!
    var harness: URL!

    override func setUpWithError() throws {
        // The reference is a real component: scripts/install-dependencies installs it, and its absence fails.
        for tool in ["gcc", "sox", "espeak-ng"] where Self.which(tool) == nil {
            XCTFail("\(tool) is not installed (scripts/install-dependencies installs it)")
            throw ReferenceMissing()
        }
        guard FileManager.default.fileExists(atPath: "/usr/include/ebur128.h") else {
            XCTFail("libebur128-dev is not installed (scripts/install-dependencies installs it)")
            throw ReferenceMissing()
        }
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("jacktap-loudness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = URL(fileURLWithPath: #filePath)  // Tests/DSPTests/Loudness/this file
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Benchmarks/c-reference/ebur128_reference.c")
        harness = directory.appendingPathComponent("ebur128_reference")
        try Self.run("gcc", ["-O2", source.path, "-lebur128", "-lsndfile", "-lm", "-o", harness.path])
    }

    override func tearDownWithError() throws {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testPinkNoiseInLevelStepsAgreesWithLibebur128() throws {
        let file = directory.appendingPathComponent("pink.wav").path
        try Self.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "2", file,
                             "synth", "10", "pinknoise", "gain", "-30", ":",
                             "synth", "10", "pinknoise", "gain", "-20", ":",
                             "synth", "10", "pinknoise", "gain", "-25"])
        try compare(file, label: "pink noise -30/-20/-25 dBFS")
    }

    func testSweepAgreesWithLibebur128() throws {
        let file = directory.appendingPathComponent("sweep.wav").path
        try Self.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "2", file,
                             "synth", "20", "sine", "100/10000", "gain", "-20"])
        try compare(file, label: "sweep 100 Hz-10 kHz")
    }

    func testSpeechAgreesWithLibebur128() throws {
        let raw = directory.appendingPathComponent("speech-22k.wav").path
        let file = directory.appendingPathComponent("speech.wav").path
        try Self.run("espeak-ng", ["-w", raw, """
            Loudness is measured over blocks of four hundred milliseconds. Quiet passages below the gate do not \
            count. The short term loudness looks at the last three seconds, and the loudness range tells how much \
            the programme moves. This sentence is here to make the recording long enough to measure.
            """])
        try Self.run("sox", [raw, "-r", "48000", "-b", "24", file, "gain", "-6"])
        try compare(file, label: "espeak-ng speech (mono)")
    }

    func testFivePointOneAgreesWithLibebur128() throws {
        // Six channels, L R C LFE Ls Rs, each a different level: the LFE is left out, the surrounds weigh 1.41.
        let file = directory.appendingPathComponent("surround.wav").path
        try Self.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "6", file,
                             "synth", "12", "pinknoise", "pinknoise", "pinknoise", "brownnoise", "pinknoise",
                             "pinknoise", "remix", "1v0.1", "2v0.05", "3v0.2", "4v0.5", "5v0.03", "6v0.08"])
        // libebur128 recomputes the whole 3 s window at every call: at 1 ms steps six channels take long.
        try compare(file, label: "5.1 noise", finest: false)
    }

    // MARK: - Comparison

    /// Measures `path` with LoudnessMeter and with libebur128 twice: once evaluating momentary and short-term on
    /// LoudnessMeter's own grid (every sub-block, 320 frames at 48 kHz), where every figure must agree within
    /// 0.05 LU, and once at the harness's default 1 ms steps (unless `finest` is false).
    ///
    /// At 1 ms steps libebur128 evaluates momentary 6.67 times as often, so its max momentary can be higher by
    /// what M moves in half a sub-block at its peak (-0.049 LU on the speech here): still within 0.05. The range is compared with the harness's
    /// `range_10hz` (Tech 3342 on short-term values every 100 ms): libebur128's own `range` takes one every 1 s.
    private func compare(_ path: String, label: String, finest: Bool = true) throws {
        let audio = try WAVFile(path: path)
        let roles: [ChannelRole]
        switch audio.channels.count {
        case 1: roles = [.centre]
        case 2: roles = [.left, .right]
        case 5: roles = [.left, .right, .centre, .leftSurround, .rightSurround]
        case 6: roles = [.left, .right, .centre, .lfe, .leftSurround, .rightSurround]
        default: throw XCTSkip("no channel map for \(audio.channels.count) channels")
        }
        let ours = measureAtEveryBlockSize(audio.channels, roles: roles, sampleRate: audio.sampleRate, label: label)
        let grid = LoudnessMeter(sampleRate: audio.sampleRate, roles: roles).subBlockFrames
        for step in finest ? [grid, 48] : [grid] {
            let output = try Self.run(harness.path, [path, "--step", String(step)])
            let theirs = try JSONDecoder().decode(Reference.self, from: Data(output.utf8))
            print(String(format: "[loudness] %@: libebur128 (step %d) I %.3f LRA %.3f (own %.3f) maxM %.3f "
                         + "maxS %.3f; ours I %.3f LRA %.3f maxM %.3f maxS %.3f; ours - theirs %+.4f %+.4f "
                         + "(own %+.4f) %+.4f %+.4f", label, step, theirs.integrated, theirs.range_10hz,
                         theirs.range, theirs.max_momentary, theirs.max_shortterm,
                         ours.integrated, ours.range, ours.maxMomentary, ours.maxShortTerm,
                         Double(ours.integrated) - theirs.integrated, Double(ours.range) - theirs.range_10hz,
                         Double(ours.range) - theirs.range, Double(ours.maxMomentary) - theirs.max_momentary,
                         Double(ours.maxShortTerm) - theirs.max_shortterm))
            let what = "\(label), libebur128 at steps of \(step)"
            assertReading(ours.integrated, theirs.integrated, Self.tolerance, "\(what): integrated")
            assertReading(ours.range, theirs.range_10hz, Self.tolerance, "\(what): range (Tech 3342 at 10 Hz)")
            assertReading(ours.maxShortTerm, theirs.max_shortterm, Self.tolerance, "\(what): max S")
            assertReading(ours.maxMomentary, theirs.max_momentary, Self.tolerance,
                          "\(what): max M")
        }
        XCTAssertGreaterThan(ours.integrated, -70, "\(label): the signal is not silent")
    }

    // MARK: - Tools

    static func which(_ tool: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` (a path, or a name looked up on PATH) and returns its standard output.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.contains("/") ? tool : (which(tool) ?? tool))
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let messages = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailed(description: "\(tool) \(arguments.joined(separator: " ")) exited with "
                             + "\(process.terminationStatus): \(String(decoding: messages, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Just enough of RIFF/WAVE to read what sox writes: PCM 16/24/32-bit or 32-bit float, plain or
/// WAVE_FORMAT_EXTENSIBLE, into planar Float scaled as libsndfile scales it (integer / 2^(bits-1)), so both
/// meters see the same samples.
struct WAVFile {
    var sampleRate: Double
    var channels: [[Float]]

    struct Malformed: Error {}

    init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
        else { throw Malformed() }
        var format = 0, channelCount = 0, rate = 0, bits = 0
        var dataRange: Range<Int>?
        var at = 12
        while at + 8 <= bytes.count {
            let id = String(decoding: bytes[at..<(at + 4)], as: UTF8.self)
            let size = u32(at + 4)
            let body = at + 8
            if id == "fmt " {
                format = u16(body)
                channelCount = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }  // the sub-format GUID starts with the tag
            } else if id == "data" {
                dataRange = body..<min(body + size, bytes.count)
            }
            at = body + size + (size & 1)
        }
        guard let dataRange, channelCount > 0, [1, 3].contains(format), [16, 24, 32].contains(bits) else {
            throw Malformed()
        }
        let width = bits / 8
        let frames = dataRange.count / (width * channelCount)
        var planes = [[Float]](repeating: [Float](repeating: 0, count: frames), count: channelCount)
        let scale = 1 / Float(1 << (bits - 1))
        var p = dataRange.lowerBound
        for frame in 0..<frames {
            for c in 0..<channelCount {
                let value: Float
                switch (format, bits) {
                case (3, 32): value = Float(bitPattern: UInt32(u32(p)))
                case (_, 16): value = Float(Int16(truncatingIfNeeded: u16(p))) * scale
                case (_, 24): value = Float(Int32(truncatingIfNeeded: u32(p - 1) & ~0xFF) >> 8) * scale
                default: value = Float(Int32(truncatingIfNeeded: u32(p))) * scale
                }
                planes[c][frame] = value
                p += width
            }
        }
        sampleRate = Double(rate)
        channels = planes
    }
}
