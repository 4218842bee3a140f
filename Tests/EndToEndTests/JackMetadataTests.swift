import Foundation
import ToolSupport
import XCTest

/// JACK metadata: jacktap names each input after its source's pretty name ("in_1 ← Drums L"), as set by
/// jackd2's own jack_property, and its control query reports the state and each source's pretty name.
final class JackMetadataTests: XCTestCase {
    static let prettyKey = "http://jackaudio.org/metadata/pretty-name"

    func testInputsArePrettyNamedAfterTheirSourcesAndQueryReportsStateAndSources() throws {
        let server = try PrivateJackServer(rate: 48_000, period: 256)
        defer { server.stop() }
        let generator = try BackgroundJacktap(["generate", "--tone", "440", "--name", "drums"],
                                              environment: server.environment)
        defer { generator.stop() }
        try generator.waitForStderr(generatorPlaying)
        try Tool.runJackClient("jack_property", ["--port", "-s", "drums:out_1", Self.prettyKey, "Drums L"],
                     environment: server.environment)

        let control = Tool.freeUDPPort()
        let tap = try BackgroundJacktap(["--connect", "drums:*", "--listen", String(control)],
                                        environment: server.environment)
        defer { tap.stop() }
        try tap.waitForStderr("drums:out_1 → jacktap:in_1")
        // The follower names the input right after connecting it; jack_property reads what JACK holds.
        let deadline = Date().addingTimeInterval(60)
        var pretty = ""
        while Date() < deadline {
            pretty = (try? Tool.runJackClient("jack_property", ["--port", "-l", "jacktap:in_1", Self.prettyKey],
                                    environment: server.environment, allowFailure: true)) ?? ""
            if pretty.contains("←") { break }
            usleep(50_000)
        }
        XCTAssertTrue(pretty.contains("in_1 ← Drums L"), pretty)

        let query = try Tool.capture("python3", [Tool.repositoryPath("Tests/tools/osc_command.py"), String(control), "/jacktap/query"])
        XCTAssertEqual(query.status, 0, query.stderr)
        let items = query.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any])?.map { "\($0)" }
        }
        let status = try XCTUnwrap(items.first { $0.count > 1 && $0[1] == "status" })
        XCTAssertEqual(status.count, 5, "\(status)")
        XCTAssertEqual(status[2], "running")
        XCTAssertNotNil(Int(status[3]), "xruns")
        XCTAssertNotNil(Int(status[4]), "overruns")
        XCTAssertTrue(items.contains(["/jacktap/query", "source", "jacktap:in_1", "drums:out_1", "Drums L"]), "\(items)")
    }

    func testSixtyFourNamedInputsLeaveWithoutTheServerWaitingOnJacktap() throws {
        // jackd2 announces the removal of every port's properties to every client while a client closes, the
        // closing one too; before jacktap removed its inputs' names itself, 48 named inputs were enough for the
        // server to wait on its full socket until the 10 s teardown watchdog gave up.
        let server = try privateServer()
        try backgroundGenerator(["--tone", "440", "--outputs", "64", "--name", "src"], server: server)
        let run = try Tool.capture(Tool.jacktap, ["--inputs", "64", "--connect", "src:out_*", "--music", "none",
                                                  "--json", "--duration", "2"], environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stderr.components(separatedBy: " → jacktap:in_").count - 1, 64, run.stderr)
        XCTAssertFalse(run.stderr.contains("did not let jacktap close"), run.stderr)
    }
}
