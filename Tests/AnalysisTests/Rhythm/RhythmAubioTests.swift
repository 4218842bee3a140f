import Analysis
import Foundation
import ToolSupport
import XCTest

/// The same signal through aubio (aubio-tools), the real-time onset reference at its best setting
/// (`aubioonset -O hfc -B 1024 -H 128`). aubio's printed times are shifted back by its own delay
/// compensation, so this compares which onsets are found: jacktap's times as reported (up to 20 ms after the
/// onset) against aubio's printed ones, within ±50 ms. (`aubiotrack` finds only
/// 2–7 beats in these 12 s synthetic loops, so it is no reference for them; the beat tests use the known grid.)
final class RhythmAubioTests: XCTestCase {
    func times(_ output: String) -> [Double] {
        output.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }

    func write(_ signal: [Float], rate: Int, name: String) throws -> String {
        let path = Tool.temporaryPath("rhythm-\(name).wav")
        try WAVWriter.write(path, sampleRate: rate, channels: [signal])
        return path
    }

    func testOnsetsOfADrumLoopAgreeWithAubioHFC() throws {
        let loop = DrumLoop(bpm: 110, sampleRate: 48_000, seconds: 10, firstBeat: 0.2)
        let path = try write(loop.render(), rate: 48_000, name: "onsets")
        defer { unlink(path) }
        let aubio = times(try Tool.run("aubioonset", ["-O", "hfc", "-B", "1024", "-H", "128", "-i", path]))
        XCTAssertGreaterThan(aubio.count, 30, "aubio found the hats, snares and kicks")
        let ours = RhythmRun(loop.render(), sampleRate: 48_000).onsets.map { Double($0.reportedFrame) / 48_000 }
        XCTAssertGreaterThanOrEqual(fMeasure(reference: aubio, estimated: ours, tolerance: 0.05), 0.95)
    }
}
