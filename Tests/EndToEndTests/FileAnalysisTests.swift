import Foundation
import ToolSupport
import XCTest

/// `jacktap analyze` against sox's own figures.
final class FileAnalysisTests: XCTestCase {
    func soxStats(_ path: String) throws -> (peak: Double, rms: Double) {
        let text = try Tool.capture("sox", [path, "-n", "stats"]).stderr
        func value(_ label: String) -> Double {
            let line = text.split(separator: "\n").first { $0.hasPrefix(label) }!
            return Double(line.split(separator: " ").last!)!
        }
        return (value("Pk lev dB"), value("RMS lev dB"))
    }

    func summary(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let lines = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json"] + extra))
        return lines.last!["summary"] as! [String: Any]
    }

    func testSummaryAgreesWithSoxStatsToOneHundredthOfADecibel() throws {
        let signals: [[String]] = [
            ["synth", "3", "sine", "440", "gain", "-6.02"],
            ["synth", "2", "pinknoise", "gain", "-15"],
            ["synth", "2", "sine", "100-8000", "gain", "-3"],
        ]
        for (i, synth) in signals.enumerated() {
            for rate in ["44100", "48000", "96000"] {
                let path = Tool.temporaryPath("stats-\(i)-\(rate).wav")
                defer { unlink(path) }
                try Tool.run("sox", ["-n", "-r", rate, "-b", "24", path] + synth)
                let sox = try soxStats(path)
                let ours = try summary(path)["in_1"] as! [String: Double]
                XCTAssertEqual(ours["peak"]!, sox.peak, accuracy: 0.01, "\(synth) at \(rate)")
                XCTAssertEqual(ours["rms"]!, sox.rms, accuracy: 0.01, "\(synth) at \(rate)")
            }
        }
    }

    func testEveryChannelOfAStereoFileIsAPort() throws {
        let path = Tool.temporaryPath("stereo.flac")
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "24", path, "synth", "1", "sine", "440", "sine", "660",
                             "remix", "1", "2", "gain", "-6"])
        let s = try summary(path)
        XCTAssertNotNil(s["in_1"])
        XCTAssertNotNil(s["in_2"])
        XCTAssertEqual(s["sample_rate"] as? Double, 48_000)
    }

    func testWAVFLACAIFFAndOggAreRead() throws {
        for format in ["wav", "flac", "aiff", "ogg"] {
            let path = Tool.temporaryPath("format.\(format)")
            defer { unlink(path) }
            try Tool.run("sox", ["-n", "-r", "44100", path, "synth", "1", "sine", "440", "gain", "-6"])
            let lines = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json"]))
            let notes = lines.compactMap { (($0["in_1"] as? [String: Any])?["note"] as? [Any])?.first as? String }
            XCTAssertEqual(notes.last, "A4", format)
            XCTAssertEqual((lines.last?["summary"] as? [String: Any])?["sample_rate"] as? Double, 44_100, format)
        }
    }

    func testNaNInfAndDenormalSamplesNeverReachTheOutput() throws {
        // A 32-bit float WAV whose samples include NaN, ±Inf and denormals, written by Python's own wave module.
        let path = Tool.temporaryPath("nonfinite.wav")
        defer { unlink(path) }
        try Tool.run("python3", ["-c", """
            import struct, math, sys
            n = 48000
            vals = [0.25 * math.sin(2 * math.pi * 440 * i / 48000) for i in range(n)]
            for i in range(0, n, 97): vals[i] = float('nan')
            for i in range(5, n, 101): vals[i] = float('inf') if i % 2 else float('-inf')
            for i in range(9, n, 89): vals[i] = 1e-42
            data = struct.pack('<%df' % n, *vals)
            fmt = struct.pack('<HHIIHH', 3, 1, 48000, 48000 * 4, 4, 32)
            body = b'WAVE' + b'fmt ' + struct.pack('<I', 16) + fmt + b'data' + struct.pack('<I', len(data)) + data
            open(sys.argv[1], 'wb').write(b'RIFF' + struct.pack('<I', len(body)) + body)
            """, path])
        let output = try Tool.run(Tool.jacktap, ["analyze", path, "--json"])
        XCTAssertFalse(output.lowercased().contains("nan"))
        XCTAssertFalse(output.lowercased().contains("inf"))
        let s = try summary(path)["in_1"] as! [String: Double]
        XCTAssertEqual(s["peak"]!, -12.04, accuracy: 0.01, "non-finite samples are dropped, not measured")
        for line in jsonLines(output) where line["in_1"] != nil {
            let port = line["in_1"] as! [String: Any]
            XCTAssertTrue((port["bands"] as! [Double]).allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
        }
    }

    func testAnUnreadableOrUnsupportedFileIsAClearErrorWithExit66() throws {
        let missing = try Tool.capture(Tool.jacktap, ["analyze", "/nonexistent/take.wav"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/take.wav"), missing.stderr)
        XCTAssertEqual(missing.stdout, "")
        let text = Tool.temporaryPath("not-audio.wav")
        defer { unlink(text) }
        try "this is not audio\n".write(toFile: text, atomically: true, encoding: .utf8)
        let unsupported = try Tool.capture(Tool.jacktap, ["analyze", text])
        XCTAssertEqual(unsupported.status, 66)
        XCTAssertTrue(unsupported.stderr.contains("cannot read audio file"), unsupported.stderr)
    }

    func testAnalyzeAlsoSendsTheOSC() throws {
        let path = Tool.temporaryPath("osc.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "16", path, "synth", "1", "sine", "440", "gain", "-6.02"])
        let python = try Receiver(.pythonOSC)
        try Tool.run(Tool.jacktap, ["analyze", path, "--osc", "127.0.0.1:\(python.port)"])
        let peaks = try python.messages().filter { $0.address == "/jacktap/in_1/peak" }
        XCTAssertEqual(peaks.count, 30, accuracy: 1)
    }
}
