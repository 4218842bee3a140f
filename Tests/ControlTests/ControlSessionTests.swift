import Control
import OSC
import OSCOut
import Synchronization
import XCTest

/// What each command does to the router, the graph and the reset, and what it answers.
final class ControlSessionTests: XCTestCase {
    var graph: FakeGraph!
    var router: OSCRouter!
    var session: ControlSession!
    let resets = ResetCounter()

    override func setUpWithError() throws {
        graph = FakeGraph(inputs: 2, sources: ["sys:out_1", "sys:out_2", "sys:out_3"])
        let fixed = try DestinationSettings(parsing: "127.0.0.1:9000")
        router = try OSCRouter([fixed], analysisRate: 30)
        session = ControlSession(router: router, graph: graph, prefix: "/jacktap", bundles: true, version: "1.2.3",
                                 subscriptionLimit: 4, requestReset: { [resets] in resets.count.add(1, ordering: .relaxed) })
    }

    func perform(_ command: ControlCommand) -> [OSCMessage] {
        session.perform(command, counts: ControlCounts(), listening: "127.0.0.1:9100")
    }

    func status(_ replies: [OSCMessage]) -> String? {
        guard replies.count == 1, replies[0].address == "/reply", replies[0].arguments.count >= 2,
              case .string(let word) = replies[0].arguments[1] else { return nil }
        return word
    }

    func testResetAsksTheEngineAndRepliesOk() {
        let replies = perform(.reset)
        XCTAssertEqual(replies, [OSCMessage("/reply", [.string("/jacktap/reset"), .string("ok")])])
        XCTAssertEqual(resets.count.load(ordering: .relaxed), 1)
    }

    func testSubscribeAddsADestinationWithThePatternAsItsFilterOnce() throws {
        let filter = try OSCAddressPattern("/jacktap/*/level")
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9001, filters: [filter]))), "ok")
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9001, filters: [filter]))), "ok")
        let added = router.destinations.filter { $0.destination.port == 9001 }
        XCTAssertEqual(added.count, 1, "a repeated subscribe does not add a second destination")
        XCTAssertEqual(added[0].filters, [filter])
        XCTAssertEqual(added[0].prefix, "/jacktap")
        XCTAssertEqual(session.subscriptions.map(\.description), ["127.0.0.1:9001"])
    }

    func testARepeatedSubscribeReplacesThePattern() throws {
        _ = perform(.subscribe(host: "127.0.0.1", port: 9001, filters: [try OSCAddressPattern("/a")]))
        _ = perform(.subscribe(host: "127.0.0.1", port: 9001, filters: [try OSCAddressPattern("/b")]))
        XCTAssertEqual(router.destinations.first { $0.destination.port == 9001 }?.filters.map(\.pattern), ["/b"])
    }

    func testSubscriptionsStopAtTheLimit() {
        for port in 9001...9004 {
            XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: UInt16(port), filters: []))), "ok")
        }
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9005, filters: []))), "error")
        XCTAssertEqual(router.destinations.count, 5, "the command-line destination and four subscriptions")
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9004, filters: []))), "ok",
                       "a destination already subscribed may still be updated at the limit")
        XCTAssertEqual(status(perform(.unsubscribe(host: "127.0.0.1", port: 9001))), "ok")
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9005, filters: []))), "ok")
    }

    func testCommandLineDestinationsCanBeNeitherReplacedNorRemoved() throws {
        XCTAssertEqual(status(perform(.subscribe(host: "127.0.0.1", port: 9000, filters: [try OSCAddressPattern("/x")]))), "error")
        XCTAssertEqual(status(perform(.unsubscribe(host: "127.0.0.1", port: 9000))), "error")
        XCTAssertEqual(router.destinations.map(\.destination.description), ["127.0.0.1:9000"])
        XCTAssertEqual(router.destinations[0].filters, [])
    }

    func testUnsubscribeRemovesOnlyThatSubscription() {
        _ = perform(.subscribe(host: "127.0.0.1", port: 9001, filters: []))
        _ = perform(.subscribe(host: "127.0.0.1", port: 9002, filters: []))
        XCTAssertEqual(status(perform(.unsubscribe(host: "127.0.0.1", port: 9001))), "ok")
        XCTAssertEqual(router.destinations.map(\.destination.port), [9000, 9002])
        XCTAssertEqual(status(perform(.unsubscribe(host: "127.0.0.1", port: 9001))), "error", "already gone")
    }

    func testSubscribingAGroupOrTheBroadcastAddressIsRefused() {
        for host in ["239.1.2.3", "255.255.255.255", "0.0.0.0", "ff02::1"] {
            XCTAssertEqual(status(perform(.subscribe(host: host, port: 9001, filters: []))), "error", host)
        }
        XCTAssertEqual(router.destinations.count, 1)
    }

    func testConnectTakesTheFirstFreeInputOrTheNamedOne() {
        XCTAssertEqual(perform(.connect(source: "sys:out_1", input: nil)),
                       [OSCMessage("/reply", [.string("/jacktap/connect"), .string("ok"), .string("jt:in_1")])])
        XCTAssertEqual(perform(.connect(source: "sys:out_2", input: nil)).first?.arguments.last, .string("jt:in_2"))
        XCTAssertEqual(status(perform(.connect(source: "sys:out_3", input: nil))), "error", "no free input left")
        XCTAssertEqual(perform(.connect(source: "sys:out_3", input: "in_1")).first?.arguments.last, .string("jt:in_1"))
        XCTAssertEqual(graph.inputs().map(\.connections), [["sys:out_1", "sys:out_3"], ["sys:out_2"]])
    }

    func testConnectRefusesMissingPortsAndInputs() {
        XCTAssertEqual(status(perform(.connect(source: "nope:out", input: nil))), "error")
        XCTAssertEqual(status(perform(.connect(source: "sys:out_1", input: "in_9"))), "error")
        XCTAssertEqual(graph.inputs().map(\.connections), [[], []])
    }

    func testDisconnectRemovesTheSourceFromEveryInputItFeeds() {
        _ = perform(.connect(source: "sys:out_1", input: "in_1"))
        _ = perform(.connect(source: "sys:out_1", input: "jt:in_2"))
        XCTAssertEqual(perform(.disconnect(source: "sys:out_1")),
                       [OSCMessage("/reply", [.string("/jacktap/disconnect"), .string("ok"), .string("jt:in_1"), .string("jt:in_2")])])
        XCTAssertEqual(graph.inputs().map(\.connections), [[], []])
        XCTAssertEqual(status(perform(.disconnect(source: "sys:out_1"))), "error", "not connected any more")
    }

    func testQueryListsConfigurationInputsDestinationsAndCounts() throws {
        _ = perform(.connect(source: "sys:out_2", input: "in_2"))
        _ = perform(.subscribe(host: "127.0.0.1", port: 9001, filters: [try OSCAddressPattern("//level")]))
        var counts = ControlCounts()
        counts.packets = 7
        counts.malformed = 2
        let replies = session.perform(.query, counts: counts, listening: "127.0.0.1:9100")
        XCTAssertTrue(replies.allSatisfy { $0.address == "/reply" && $0.arguments.first == .string("/jacktap/query") })
        let items = replies.map { Array($0.arguments.dropFirst()) }
        XCTAssertTrue(items.contains([.string("version"), .string("1.2.3")]))
        XCTAssertTrue(items.contains([.string("client"), .string("jt")]))
        XCTAssertTrue(items.contains([.string("samplerate"), .int32(48_000)]))
        XCTAssertTrue(items.contains([.string("listen"), .string("127.0.0.1:9100")]))
        XCTAssertTrue(items.contains([.string("input"), .string("jt:in_1")]))
        XCTAssertTrue(items.contains([.string("input"), .string("jt:in_2"), .string("sys:out_2")]))
        XCTAssertTrue(items.contains([.string("destination"), .string("127.0.0.1:9000"), .string("fixed")]))
        XCTAssertTrue(items.contains([.string("destination"), .string("127.0.0.1:9001"), .string("subscribed"), .string("//level")]))
        XCTAssertTrue(items.contains([.string("packets"), .int32(7), .int32(0), .int32(2), .int32(0), .int32(0)]))
        XCTAssertEqual(items.last, [.string("end"), .int32(Int32(replies.count - 1))])
    }

    func testAnotherPrefixMovesTheReplyAddressesAndTheSubscribedPrefix() {
        let rig = ControlSession(router: router, graph: graph, prefix: "rig/", bundles: false, version: "x",
                                 requestReset: {})
        XCTAssertEqual(rig.prefix, "/rig")
        XCTAssertEqual(rig.perform(.reset, counts: ControlCounts(), listening: "").first?.arguments.first, .string("/rig/reset"))
        _ = rig.perform(.subscribe(host: "127.0.0.1", port: 9009, filters: []), counts: ControlCounts(), listening: "")
        let added = router.destinations.first { $0.destination.port == 9009 }
        XCTAssertEqual(added?.prefix, "/rig")
        XCTAssertEqual(added?.bundles, false)
    }
}

/// How many resets were asked for (shared with the session's closure).
final class ResetCounter: Sendable {
    let count = Atomic<Int>(0)
}
