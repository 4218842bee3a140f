import Foundation
import ToolSupport
import XCTest

/// `jacktap analyze` against libebur128 on programme-like signals made by tools no one here wrote (sox pink
/// noise in level steps, a sox sweep, espeak-ng speech): integrated, range, max momentary and max short-term
/// within 0.05 LU, true peak within 0.1 dB, at periods of 64, 256 and 1024 frames. libebur128's true peak is
/// a 4x oversampler, which reads low where the signal's peak falls between its points (a sweep that starts at
/// full level: -2.32 dBTP where the band-limited signal peaks at -2.21); a true peak that differs from it by
/// more than 0.1 dB passes only if it is within 0.1 dB of the exact band-limited peak and nearer to it than
/// libebur128 is.
final class LoudnessReferenceTests: XCTestCase {
    func compare(_ path: String, roles programme: String, label: String) throws {
        // libebur128 evaluated on jacktap's 6.67 ms grid (320 frames at 48 kHz) and every 1 ms.
        let references = try [320, 48].map { try EBUR128Reference.measure(path, step: $0) }
        let exactPeaks = try BandLimitedPeak.measure(path)
        for period in [64, 256, 1024] {
            let lines = jsonLines(try Tool.run(Tool.jacktap, ["analyze", path, "--json", "--period", String(period),
                                                              "--meters", "truepeak,loudness", "--program", programme]))
            let summary = lines.last!["summary"] as! [String: Any]
            let loudness = (summary["p"] as! [String: Any])["loudness"] as! [String: Double]
            for (step, theirs) in zip([320, 48], references) {
                let what = "\(label), period \(period), libebur128 every \(step) frames"
                XCTAssertEqual(loudness["integrated"]!, theirs.integrated, accuracy: 0.05, "\(what): I")
                XCTAssertEqual(loudness["range"]!, theirs.range_10hz, accuracy: 0.05, "\(what): LRA")
                XCTAssertEqual(loudness["max_momentary"]!, theirs.max_momentary, accuracy: 0.05, "\(what): max M")
                XCTAssertEqual(loudness["max_shortterm"]!, theirs.max_shortterm, accuracy: 0.05, "\(what): max S")
                for (c, tp) in theirs.true_peak_dbtp.enumerated() {
                    let ours = (summary["in_\(c + 1)"] as! [String: Any])["truepeak"] as! Double
                    let exact = exactPeaks[c]
                    let nearerTheSignal = abs(ours - exact) <= 0.1 && abs(ours - exact) < abs(tp - exact)
                    XCTAssert(abs(ours - tp) <= 0.1 || nearerTheSignal,
                              "\(what): true peak of in_\(c + 1): ours \(ours), libebur128 \(tp), exact \(exact) dBTP")
                }
            }
        }
    }

    func testPinkNoiseInLevelSteps() throws {
        let path = Tool.temporaryPath("ref-pink.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "2", path,
                             "synth", "10", "pinknoise", "gain", "-30", ":", "synth", "10", "pinknoise", "gain", "-20",
                             ":", "synth", "10", "pinknoise", "gain", "-25"])
        try compare(path, roles: "p=in_1:L,in_2:R", label: "pink noise steps")
    }

    func testSweep() throws {
        let path = Tool.temporaryPath("ref-sweep.wav")
        defer { unlink(path) }
        try Tool.run("sox", ["-R", "-n", "-r", "48000", "-b", "24", "-c", "2", path,
                             "synth", "20", "sine", "100/10000", "gain", "-3"])
        try compare(path, roles: "p=in_1:L,in_2:R", label: "sweep")
    }

    func testSpeech() throws {
        let raw = Tool.temporaryPath("ref-speech-22k.wav")
        let path = Tool.temporaryPath("ref-speech.wav")
        defer { unlink(raw); unlink(path) }
        try Tool.run("espeak-ng", ["-w", raw, """
            The integrated loudness of a programme is measured over gated blocks of four hundred milliseconds. \
            Lighting desks and mixing engineers read the same numbers, and both must be able to trust them.
            """])
        try Tool.run("sox", [raw, "-r", "48000", "-b", "24", path, "gain", "-3"])
        try compare(path, roles: "p=in_1:C", label: "speech")
    }
}
