import Foundation
import OSC
import Session
import ToolSupport
import XCTest

/// The client against Tests/tools/nsm_peer.py, a server written in Python from the NSM API document: what
/// the client sends, what it makes of what the server sends, and that nothing a packet says stops it.
final class NSMClientTests: XCTestCase {
    var peer: NSMPeer!
    var client: NSMClient!
    /// Events taken from the client but not yet looked at.
    var backlog: [NSMEvent] = []

    /// Generous: a loaded CI machine with two cores, and Python starting.
    let timeout = 10.0

    override func setUpWithError() throws {
        peer = try NSMPeer()
        client = try NSMClient(url: NSMURL(parsing: peer.url))
        client.start()
    }

    override func tearDown() {
        client?.stop()
        peer?.stop()
    }

    /// The next event, waiting up to `timeout`.
    func nextEvent() -> NSMEvent? {
        if backlog.isEmpty { backlog = client.waitForEvents(timeout: timeout) }
        return backlog.isEmpty ? nil : backlog.removeFirst()
    }

    /// Announces and waits for the peer to see it and for the client to get the welcome; returns the
    /// announce as the peer saw it.
    @discardableResult
    func announce(_ capabilities: NSMCapabilities = []) throws -> NSMPeer.Message {
        client.announce(appName: "jacktap", capabilities: capabilities, executable: "jacktap", pid: 4242)
        let seen = try XCTUnwrap(peer.nextMessage())
        XCTAssertEqual(nextEvent(), .announceReply(message: "welcome", serverName: "nsm_peer",
                                                   capabilities: ":server-control:broadcast:optional-gui:"))
        return seen
    }

    func testAnnounceCarriesAppNameCapabilitiesAndPid() throws {
        client.announce(appName: "jacktap", capabilities: [.dirty, .message], executable: "/usr/bin/jacktap", pid: 4242)
        let announce = try XCTUnwrap(peer.nextMessage())
        XCTAssertEqual(announce.address, "/nsm/server/announce")
        // API 1.1.1: major 1, minor 1.
        XCTAssertEqual(announce.arguments, [.string("jacktap"), .string(":dirty:message:"), .string("/usr/bin/jacktap"),
                                            .int(1), .int(1), .int(4242)])
        XCTAssertEqual(announce.from, client.localAddress.description)
        XCTAssertEqual(nextEvent(), .announceReply(message: "welcome", serverName: "nsm_peer",
                                                   capabilities: ":server-control:broadcast:optional-gui:"))
    }

    func testAnnounceDefaultsToThisProcessAndItsPid() throws {
        client.announce(appName: "jacktap")
        let announce = try XCTUnwrap(peer.nextMessage())
        XCTAssertEqual(announce.arguments.last, .int(Int(ProcessInfo.processInfo.processIdentifier)))
        XCTAssertEqual(announce.arguments[1], .string(""))
    }

    func testOpenIsDeliveredWithPathAndClientID() throws {
        let announce = try announce()
        peer.command("open /home/u/NSM/song/jacktap.nABCD song jacktap.nABCD")
        XCTAssertEqual(nextEvent(), .open(path: "/home/u/NSM/song/jacktap.nABCD", displayName: "song", clientID: "jacktap.nABCD"))
        XCTAssertTrue(client.replyOK(to: .open, message: "opened"))
        let reply = try XCTUnwrap(peer.nextMessage())
        XCTAssertEqual(reply.address, "/reply")
        XCTAssertEqual(reply.arguments, [.string("/nsm/client/open"), .string("opened")])
        // The API: replies come from the socket that announced, as the server tells clients apart by it.
        XCTAssertEqual(reply.from, announce.from)
    }

    func testSaveIsAnsweredWithReplyOrErrorNamingTheRequest() throws {
        try announce()
        peer.command("open /tmp/s/jacktap.nX s jacktap.nX")
        XCTAssertEqual(nextEvent(), .open(path: "/tmp/s/jacktap.nX", displayName: "s", clientID: "jacktap.nX"))
        peer.command("save")
        XCTAssertEqual(nextEvent(), .save)
        client.replyOK(to: .save, message: "saved")
        XCTAssertEqual(peer.nextMessage()?.arguments, [.string("/nsm/client/save"), .string("saved")])
        peer.command("save")
        XCTAssertEqual(nextEvent(), .save)
        client.replyError(to: .save, code: .saveFailed, message: "disk full")
        let error = try XCTUnwrap(peer.nextMessage())
        XCTAssertEqual(error.address, "/error")
        XCTAssertEqual(error.arguments, [.string("/nsm/client/save"), .int(-1), .string("disk full")])
    }

    func testSaveBeforeOpenIsDeliveredForTheOwnerToRefuse() throws {
        try announce()
        peer.command("save")
        XCTAssertEqual(nextEvent(), .save)
        client.replyError(to: .save, code: .notNow, message: "no project open yet")
        XCTAssertEqual(peer.nextMessage()?.arguments, [.string("/nsm/client/save"), .int(-8), .string("no project open yet")])
    }

    func testSessionIsLoadedAndGUIRequestsAreDeliveredWithoutReply() throws {
        try announce()
        peer.command("loaded")
        peer.command("raw /nsm/client/show_optional_gui []")
        peer.command("raw /nsm/client/hide_optional_gui []")
        XCTAssertEqual(nextEvent(), .sessionIsLoaded)
        XCTAssertEqual(nextEvent(), .showOptionalGUI)
        XCTAssertEqual(nextEvent(), .hideOptionalGUI)
    }

    func testAnnounceErrorIsDeliveredWithItsCode() throws {
        try announce()
        peer.command(#"raw /error ["/nsm/server/announce", -3, "blacklisted"]"#)
        XCTAssertEqual(nextEvent(), .announceError(code: NSMErrorCode.blacklisted.rawValue, message: "blacklisted"))
    }

    func testDirtyAndMessageAreSentOnlyWhenAnnounced() throws {
        try announce([.dirty])
        XCTAssertFalse(client.sendMessage(priority: 9, text: "not announced"))
        XCTAssertFalse(client.sendProgress(0.5))
        XCTAssertTrue(client.sendDirty(true))
        XCTAssertTrue(client.sendDirty(false))
        // Loopback UDP keeps order: had the message been sent, it would come first.
        XCTAssertEqual(peer.nextMessage()?.address, "/nsm/client/is_dirty")
        XCTAssertEqual(peer.nextMessage()?.address, "/nsm/client/is_clean")
    }

    func testMessagePriorityIsClampedToTheAPIRange() throws {
        try announce([.message, .progress])
        client.sendMessage(priority: 9, text: "loud")
        client.sendProgress(2)
        XCTAssertEqual(peer.nextMessage()?.arguments, [.int(3), .string("loud")])
        XCTAssertEqual(peer.nextMessage()?.arguments, [.float(1)])
    }

    func testMalformedPacketsAreIgnored() throws {
        try announce()
        let attacker = try UDPEndpoint(host: "127.0.0.1", port: 0, receiveTimeout: 1)
        let target = client.localAddress
        attacker.send(Array("not OSC at all!!".utf8), to: target)
        attacker.send(Array(OSCMessage("/nsm/client/open", [.string("/p")]).encoded.dropLast(4)), to: target)
        attacker.send([], to: target)
        attacker.send(OSCMessage("/nsm/client/delete_everything").encoded, to: target)
        attacker.send(OSCMessage("/reply", [.string("/nsm/server/list"), .string("x")]).encoded, to: target)
        attacker.send(OSCMessage("/nsm/client/open", [.string("/p"), .int32(1), .string("c")]).encoded, to: target)
        attacker.send(OSCMessage("/nsm/client/save", [.string("extra")]).encoded, to: target)
        // Still listening, and in order: the server's save arrives after all of the above.
        peer.command("save")
        XCTAssertEqual(nextEvent(), .save)
        XCTAssertTrue(backlog.isEmpty && client.takeEvents().isEmpty)
        let counts = client.counts
        XCTAssertEqual(counts.malformed, 3)
        XCTAssertEqual(counts.unknown, 2)
        XCTAssertEqual(counts.rejected, 2)
        XCTAssertEqual(counts.events, 2)
        XCTAssertEqual(counts.packets, 9)
    }

    func testAServerThatIsGoneNeitherBlocksNorFailsTheOwner() throws {
        try announce()
        peer.stop()
        let start = Date()
        for _ in 0..<100 { client.replyOK(to: .save, message: "nobody listens") }
        XCTAssertTrue(client.takeEvents().isEmpty)
        client.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }
}
