import Foundation
import ToolSupport
import XCTest

/// Speech has syllables but no pulse: the beat tracker may lock onto the syllables for a while, but the
/// tempo-sync outputs wait for a confirmed pulse, so a rig driven by jacktap during a speech stays still. One
/// jacktap with all three outputs taps espeak-ng reading a paragraph through a private jackd, with their
/// receivers started for real: jack_midi_dump on the clock, the OS2L receiver, and a second Link peer that sets
/// the session's tempo to 97 BPM (jacktap, leading, would set it back on a beat), all but JACK inside a
/// network namespace that has only loopback.
final class TempoSyncOnSpeechTests: XCTestCase {
    func testSpeechSendsNoClockNoOS2LBeatAndLeavesTheLinkSessionAlone() throws {
        let namespace = try loopbackNamespace()
        let server = try privateServer(rate: 48_000, period: 256)
        let raw = Tool.temporaryPath("speech-raw.wav")
        let path = Tool.temporaryPath("speech-twice.wav")
        defer { unlink(raw); unlink(path) }
        _ = try Tool.run("espeak-ng", ["-w", raw, """
            Good evening and welcome. Tonight we are testing the beat tracker with speech, which has syllables \
            and pauses but no steady pulse at all. One, two, three, four. The quick brown fox jumps over the \
            lazy dog, again and again, while nobody keeps time.
            """])
        _ = try Tool.run("sox", [raw, "-r", "48000", path, "repeat", "1"])

        let dumpOut = Tool.temporaryPath("speech-clock-dump.txt")
        let os2lPortFile = Tool.temporaryPath("speech-os2l-port")
        let os2lOut = Tool.temporaryPath("speech-os2l.jsonl")
        let linkPortFile = Tool.temporaryPath("speech-link-port")
        let linkOut = Tool.temporaryPath("speech-link.json")
        defer { for file in [dumpOut, os2lPortFile, os2lOut, linkPortFile, linkOut] { unlink(file) } }
        _ = try background("jack_midi_dump", ["-a", "speechdump"], server: server, stdoutPath: dumpOut)
        try waitForPort("speechdump:input", server: server)
        _ = try background("ip", ["netns", "exec", namespace, "python3", Tool.repositoryPath("Tests/tools/os2l_receiver.py"),
                                  os2lPortFile, os2lOut])
        let seconds = 28
        let peer = try background("ip", ["netns", "exec", namespace, "python3", Tool.repositoryPath("Tests/tools/link_peer.py"),
                                         linkPortFile, String(seconds + 8), "--set-tempo-at", "4", "97"], stdoutPath: linkOut)
        var os2lPort: String?
        XCTAssertTrue(waitFor { os2lPort = try? String(contentsOfFile: os2lPortFile, encoding: .utf8); return os2lPort != nil })
        XCTAssertTrue(waitFor { FileManager.default.fileExists(atPath: linkPortFile) }, "the Link peer runs")

        let jsonOut = Tool.temporaryPath("speech.json")
        let errOut = Tool.temporaryPath("speech.err")
        defer { unlink(jsonOut); unlink(errOut) }
        let jacktap = try background("ip", ["netns", "exec", namespace, Tool.jacktap, "--inputs", "1", "--midi-clock",
                                            "--os2l", "127.0.0.1:\(os2lPort ?? "0")", "--link", "--duration", String(seconds), "--rate", "30",
                                            "--json"], server: server, stdoutPath: jsonOut, stderrPath: errOut)
        try waitForPort("jacktap:clock", server: server)
        _ = try Tool.runJackClient("jack_connect", ["jacktap:clock", "speechdump:input"], environment: server.environment)
        try play(path, server: server, into: "jacktap:in_1")
        let said = { (try? String(contentsOfFile: errOut, encoding: .utf8)) ?? "" }
        XCTAssertEqual(jacktap.wait(timeout: 4 * eventTimeout), 0, said())
        XCTAssertNotNil(peer.wait(timeout: eventTimeout), "the Link peer ends after its time")

        // jacktap ran with the receivers there: connected to the OS2L receiver, a peer in the Link session.
        XCTAssertTrue(said().contains("OS2L to 127.0.0.1:"), said())
        XCTAssertTrue(said().contains("Link: 1 other peer"), said())
        let lines = jsonLines(try String(contentsOfFile: jsonOut, encoding: .utf8))
        XCTAssertEqual(tickLines(lines).count, seconds * 30, accuracy: 1, "the whole speech was analysed")
        let onsets = lines.filter { $0["event"] as? String == "onset" }.count
        XCTAssertGreaterThan(onsets, 20, "the syllables were heard")
        let beatsAnnounced = lines.filter { $0["event"] as? String == "beat" }.count

        let dumped = MidiClockTests.parse((try? String(contentsOfFile: dumpOut, encoding: .utf8)) ?? "")
        XCTAssertEqual(dumped.map(\.byte), [], "no Start, no clock (the tracker announced \(beatsAnnounced) beats)")
        let os2l = jsonLines((try? String(contentsOfFile: os2lOut, encoding: .utf8)) ?? "")
        XCTAssertEqual(os2l.count, 0, "no OS2L beat: \(os2l.prefix(3))")
        let link = try XCTUnwrap(jsonLines(try String(contentsOfFile: linkOut, encoding: .utf8)).last)
        XCTAssertEqual(link["final_tempo"] as? Double ?? 0, 97, accuracy: 0.01, "the session kept the other peer's tempo")
        let samples = link["tempo_after_set"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(samples.count, 100)
        XCTAssertTrue(samples.allSatisfy { abs(($0["tempo"] as? Double ?? 0) - 97) < 0.01 }, "\(samples.prefix(3))")
    }
}
