import Foundation
import ToolSupport
import XCTest

/// `--midi-notes` through a private jackd, read by jackd2's `jack_midi_dump`: five plucked notes (C4, E4, G4,
/// G4 again, C5; sox's plucked string) played by jack-play give five note ons with their numbers on channel 1,
/// each ended by its note off before the next begins, and nothing sounding at the end.
final class MidiNotesTests: XCTestCase {
    func testFivePluckedNotesPlayedLiveComeOutAsFiveNotes() throws {
        let server = try privateServer(rate: 48_000, period: 256)
        let path = Tool.temporaryPath("plucks-live.wav")
        defer { unlink(path) }
        // A second of silence first: jack-play starts at once, and the test connects it within that second.
        _ = try Tool.run("sox", ["-n", "-r", "48000", "-c", "1", path, "synth", "1", "sine", "0", "gain", "-200", ":",
                                 "synth", "0.4", "pluck", "C4", ":", "synth", "0.4", "pluck", "E4", ":", "synth", "0.4",
                                 "pluck", "G4", ":", "synth", "0.4", "pluck", "G4", ":", "synth", "0.6", "pluck", "C5"])
        let dumpOut = Tool.temporaryPath("notes-dump.txt")
        defer { unlink(dumpOut) }
        _ = try background("jack_midi_dump", ["-a", "notedump"], server: server, stdoutPath: dumpOut)
        try waitForPort("notedump:input", server: server)
        let errOut = Tool.temporaryPath("notes.err")
        defer { unlink(errOut) }
        let jacktap = try background(Tool.jacktap, ["--inputs", "1", "--midi-notes", "--duration", "6", "--quiet"],
                                     server: server, stderrPath: errOut)
        try waitForPort("jacktap:notes", server: server)
        _ = try Tool.runJackClient("jack_connect", ["jacktap:notes", "notedump:input"], environment: server.environment)
        try play(path, server: server, into: "jacktap:in_1")
        XCTAssertEqual(jacktap.wait(timeout: 4 * eventTimeout), 0,
                       (try? String(contentsOfFile: errOut, encoding: .utf8)) ?? "")
        // Lines such as "  91904: 90 3c 60 note on  (channel  0): pitch  60, velocity  96".
        var notes = [(on: Bool, pitch: Int, velocity: Int)]()
        _ = waitFor(timeout: 10) {
            let text = (try? String(contentsOfFile: dumpOut, encoding: .utf8)) ?? ""
            notes = text.split(separator: "\n").compactMap { line in
                let fields = line.split(separator: ":").dropFirst().first?.split(separator: " ") ?? []
                guard fields.count >= 3, let status = UInt8(fields[0], radix: 16), let pitch = Int(fields[1], radix: 16),
                      let velocity = Int(fields[2], radix: 16) else { return nil }
                return (status == 0x90, pitch, velocity)
            }
            return notes.filter(\.on).count >= 5 && notes.count % 2 == 0
        }
        XCTAssertEqual(notes.filter(\.on).map(\.pitch), [60, 64, 67, 67, 72])
        XCTAssertTrue(notes.filter(\.on).allSatisfy { (1...127).contains($0.velocity) })
        // On, off, on, off…: each note ends before the next, and the last is ended.
        XCTAssertEqual(notes.map(\.on), Array([Bool]([true, false]).repeated(notes.count / 2)))
        XCTAssertEqual(notes.filter { !$0.on }.map(\.pitch), notes.filter(\.on).map(\.pitch))
    }
}

private extension Array {
    func repeated(_ times: Int) -> [Element] { (0..<times).flatMap { _ in self } }
}
