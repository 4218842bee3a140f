import Foundation
import ToolSupport
import XCTest

/// The rate always comes from JACK: a tone names the same note whatever the server runs at.
final class SampleRateTests: XCTestCase {
    func testA440NamesA4OnServersAt44100And96000Hz() throws {
        for rate in [44_100, 96_000] {
            let server = try PrivateJackServer(rate: rate, period: 512)
            defer { server.stop() }
            // Plays until this rate's run is over (stopped before the server, also when the test throws).
            let tone = try startGenerator(["--tone", "440", "--level", "-6", "--name", "sr"], server: server)
            defer { stopAndReap(tone) }
            let run = try Tool.capture(Tool.jacktap, ["sr:out_1", "--json", "--duration", "1.5"],
                                       environment: server.environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            let ticks = tickLines(jsonLines(run.stdout))
            XCTAssertEqual(ticks.count, 45, "1.5 s of audio at 30 ticks per second, at \(rate) Hz")
            let ports = ticks.dropFirst(15).map { $0["in_1"] as! [String: Any] }
            for port in ports {
                XCTAssertEqual((port["note"] as? [Any])?.first as? String, "A4", "at \(rate) Hz")
                XCTAssertEqual(((port["pitch"] as? [String: Any])?["hz"] as? Double)!, 440, accuracy: 1, "at \(rate) Hz")
            }
        }
    }
}
