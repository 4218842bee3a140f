import Foundation
import ToolSupport
import XCTest

/// jacktap in an NSM session, driven by Tests/tools/nsm_peer.py, an NSM server written from the NSM API
/// document (no NSM server is packaged in Debian 12). What the peer covers: announce, open, save, an
/// out-of-order save and a second open, the server disappearing; not session directories or the launching
/// of clients (the test starts jacktap itself, with NSM_URL set, as nsmd would).
final class NSMSessionTests: XCTestCase {
    var server: PrivateJackServer!
    var peer: NSMPeer!
    var started: [BackgroundJacktap] = []
    var directory = ""

    override func setUpWithError() throws {
        server = try PrivateJackServer(rate: 48_000, period: 256)
        peer = try NSMPeer()
        directory = Tool.temporaryPath("nsm-\(UInt32.random(in: 0...UInt32.max))")
    }

    override func tearDown() {
        for process in started { process.stop() }
        peer.stop()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func startJacktap() throws -> BackgroundJacktap {
        var environment = server.environment
        environment["NSM_URL"] = peer.url
        let process = try BackgroundJacktap([], environment: environment)
        started.append(process)
        return process
    }

    /// The next message the peer received with this address (others, such as progress, skipped).
    func next(_ address: String) throws -> NSMPeer.Message {
        while let message = peer.nextMessage(timeout: 60) {
            if message.address == address { return message }
        }
        throw Tool.Failed(description: "the NSM peer received no \(address)")
    }

    func ports() throws -> [String] {
        try Tool.runJackClient("jack_lsp", [], environment: server.environment).split(separator: "\n").map(String.init)
    }

    func command(_ port: UInt16, _ arguments: [String]) throws -> [String] {
        let run = try Tool.capture("python3", [Tool.repositoryPath("Tests/tools/osc_command.py"), String(port)] + arguments)
        XCTAssertEqual(run.status, 0, run.stderr)
        let line = run.stdout.split(separator: "\n").first.map(String.init) ?? "[]"
        return ((try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any]) ?? []).map { "\($0)" }
    }

    func testAnnounceOpenSaveQuitAndReopenWithTheSavedConnectionsAndSubscriptions() throws {
        let path = directory + "/jacktap.nTEST"
        let state = path + ".yaml"

        // Announce before JACK: no port yet, and a save before the open is refused.
        let first = try startJacktap()
        let announce = try next("/nsm/server/announce")
        XCTAssertEqual(announce.arguments.first, .string("jacktap"))
        XCTAssertEqual(announce.arguments.count, 6, "\(announce.arguments)")
        XCTAssertEqual(announce.arguments.last, .int(Int(first.process.pid)))
        XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap") }, "nothing registered before open")
        peer.command("save")
        let early = try next("/error")
        XCTAssertEqual(early.arguments.first, .string("/nsm/client/save"))

        // Open: the client id names the JACK client; a default state is created (two unconnected inputs,
        // OSC to 127.0.0.1:9000).
        peer.command("open \(path) demo jacktap.nTEST")
        let opened = try next("/reply")
        XCTAssertEqual(opened.arguments.first, .string("/nsm/client/open"))
        try waitForPort("jacktap.nTEST:in_2", server: server, timeout: 60)
        let defaults = try String(contentsOfFile: state, encoding: .utf8)
        XCTAssertTrue(defaults.contains("inputs: 2") && defaults.contains("127.0.0.1:9000"), defaults)
        peer.command("open \(path) demo jacktap.nTEST")
        XCTAssertEqual(try next("/error").arguments.first, .string("/nsm/client/open"), "a second open is refused")
        XCTAssertEqual(first.stop(), 0, "SIGTERM quits cleanly: \(first.stderr)")
        XCTAssertFalse(try ports().contains { $0.hasPrefix("jacktap.nTEST:") }, "ports gone with the client")

        // A state with a control input: a connection and a subscription made through it are saved.
        let control = Tool.freeUDPPort()
        let subscriber = try OSCLog()
        defer { subscriber.stop() }
        try "inputs: 1\nlisten: \(control)\nosc: 127.0.0.1:9000\n".write(toFile: state, atomically: true, encoding: .utf8)
        let generator = try BackgroundJacktap(["generate", "--tone", "440", "--level", "-6.0206", "--name", "gen"],
                                              environment: server.environment)
        started.append(generator)
        try generator.waitForStderr(generatorPlaying)
        let second = try startJacktap()
        _ = try next("/nsm/server/announce")
        peer.command("open \(path) demo jacktap.nTEST")
        _ = try next("/reply")
        try second.waitForStderr("OSC control on")
        XCTAssertEqual(try command(control, ["/jacktap/connect", "gen:out_1"]), ["/jacktap/connect", "ok", "jacktap.nTEST:in_1"])
        XCTAssertEqual(try command(control, ["/jacktap/subscribe", "127.0.0.1", String(subscriber.port), "/jacktap/in_1/peak"]),
                       ["/jacktap/subscribe", "ok"])
        peer.command("save")
        let saved = try next("/reply")
        XCTAssertEqual(saved.arguments.first, .string("/nsm/client/save"))
        let text = try String(contentsOfFile: state, encoding: .utf8)
        XCTAssertTrue(text.contains("gen:out_1"), text)
        XCTAssertTrue(text.contains("127.0.0.1:\(subscriber.port),filter=/jacktap/in_1/peak"), text)
        XCTAssertTrue(text.contains("listen: \(control)"), text)
        XCTAssertEqual(second.stop(), 0, second.stderr)

        // Reopened from the saved state: the connection and the destination come back without a command.
        let already = subscriber.messages.count
        let third = try startJacktap()
        _ = try next("/nsm/server/announce")
        peer.command("open \(path) demo jacktap.nTEST")
        _ = try next("/reply")
        try third.waitForStderr("gen:out_1 → jacktap.nTEST:in_1")
        try subscriber.waitFor(after: already, "-6.02 dBFS peaks at the saved destination") {
            $0.address == "/jacktap/in_1/peak" && abs(($0.floats.first ?? 0) - -6.02) < 0.05
        }
        // The session manager disappears: jacktap carries on, and still quits cleanly on SIGTERM.
        peer.stop()
        let count = subscriber.messages.count
        try subscriber.waitFor(after: count, "peaks after the session manager is gone") { $0.address == "/jacktap/in_1/peak" }
        XCTAssertEqual(third.stop(), 0, third.stderr)
    }
}
