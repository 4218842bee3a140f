import Foundation
import ToolSupport
import XCTest

/// The rate always comes from JACK: a tone names the same note whatever the server runs at.
final class SampleRateTests: XCTestCase {
    func testA440NamesA4OnServersAt44100And96000Hz() throws {
        for rate in [44_100, 96_000] {
            let server = try PrivateJackServer(rate: rate, period: 512)
            defer { server.stop() }
            let tone = try startBackground(Tool.jacktap, ["generate", "--tone", "440", "--level", "-6", "--name", "sr",
                                                          "--duration", "6"], server: server)
            defer { tone.signal(); tone.wait() }
            try waitForPort("sr:out_1", server: server)
            let run = try Tool.capture(Tool.jacktap, ["sr:out_1", "--json", "--duration", "1.5"],
                                       environment: server.environment)
            XCTAssertEqual(run.status, 0, run.stderr)
            let ports = jsonLines(run.stdout).dropFirst(15).map { $0["in_1"] as! [String: Any] }
            XCTAssertFalse(ports.isEmpty)
            for port in ports {
                XCTAssertEqual((port["note"] as? [Any])?.first as? String, "A4", "at \(rate) Hz")
                XCTAssertEqual(((port["pitch"] as? [String: Any])?["hz"] as? Double)!, 440, accuracy: 1, "at \(rate) Hz")
            }
        }
    }
}
