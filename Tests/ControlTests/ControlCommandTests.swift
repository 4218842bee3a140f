import Control
import OSC
import XCTest

/// Parsing control messages into commands: addresses under the prefix, argument types and limits.
final class ControlCommandTests: XCTestCase {
    func command(_ address: String, _ arguments: [OSCArgument] = [], prefix: String = "/jacktap") throws -> ControlCommand {
        try ControlCommand(OSCMessage(address, arguments), prefix: prefix)
    }

    func error(_ address: String, _ arguments: [OSCArgument] = [], prefix: String = "/jacktap") -> ControlCommandError? {
        do {
            _ = try ControlCommand(OSCMessage(address, arguments), prefix: prefix)
            return nil
        } catch {
            return error
        }
    }

    func testEachVerbParsesWithItsArguments() throws {
        XCTAssertEqual(try command("/jacktap/reset"), .reset)
        XCTAssertEqual(try command("/jacktap/query"), .query)
        XCTAssertEqual(try command("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000)]),
                       .subscribe(host: "127.0.0.1", port: 9000, filters: []))
        XCTAssertEqual(try command("/jacktap/unsubscribe", [.string("::1"), .int32(9000)]),
                       .unsubscribe(host: "::1", port: 9000))
        XCTAssertEqual(try command("/jacktap/connect", [.string("system:capture_1")]),
                       .connect(source: "system:capture_1", input: nil))
        XCTAssertEqual(try command("/jacktap/connect", [.string("system:capture_1"), .string("in_2")]),
                       .connect(source: "system:capture_1", input: "in_2"))
        XCTAssertEqual(try command("/jacktap/disconnect", [.string("system:capture_1")]), .disconnect(source: "system:capture_1"))
    }

    func testSubscribePatternSplitsAtBarsIntoFilters() throws {
        let parsed = try command("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000), .string("/jacktap/*/level|//clip")])
        guard case .subscribe(_, _, let filters) = parsed else { return XCTFail("\(parsed)") }
        XCTAssertEqual(filters.map(\.pattern), ["/jacktap/*/level", "//clip"])
        XCTAssertTrue(filters[0].matches("/jacktap/in_1/level"))
        XCTAssertTrue(filters[1].matches("/jacktap/in_3/clip"))
    }

    func testSymbolsAndWholeFloatsAreAcceptedAsPureDataSendsThem() throws {
        XCTAssertEqual(try command("/jacktap/subscribe", [.symbol("127.0.0.1"), .float32(9000)]),
                       .subscribe(host: "127.0.0.1", port: 9000, filters: []))
        XCTAssertEqual(try command("/jacktap/unsubscribe", [.string("127.0.0.1"), .double(9000)]),
                       .unsubscribe(host: "127.0.0.1", port: 9000))
        XCTAssertNotNil(error("/jacktap/subscribe", [.string("127.0.0.1"), .float32(9000.5)]))
    }

    func testAddressesFollowThePrefix() throws {
        XCTAssertEqual(try command("/rig/reset", prefix: "/rig"), .reset)
        XCTAssertEqual(error("/jacktap/reset", prefix: "/rig"), .unknownAddress("/jacktap/reset"))
        XCTAssertEqual(try command("/query", prefix: ""), .query)
        XCTAssertEqual(ControlCommand.reset.address(prefix: "/rig"), "/rig/reset")
    }

    func testUnknownAddressesAndWildcardsAreNotCommands() {
        XCTAssertEqual(error("/jacktap/shutdown"), .unknownAddress("/jacktap/shutdown"))
        XCTAssertEqual(error("/jacktap/in_1/level", [.float32(1)]), .unknownAddress("/jacktap/in_1/level"))
        // A pattern would run every command it matches; control addresses are literal.
        XCTAssertEqual(error("/jacktap/*"), .unknownAddress("/jacktap/*"))
        XCTAssertEqual(error("/jacktap/re?et"), .unknownAddress("/jacktap/re?et"))
        XCTAssertEqual(error("/jacktapreset"), .unknownAddress("/jacktapreset"))
        XCTAssertEqual(error("/jacktap/reset/now"), .unknownAddress("/jacktap/reset/now"))
    }

    func testArgumentsThatDoNotFitAreRejectedWithTheAddress() {
        func rejected(_ address: String, _ arguments: [OSCArgument]) -> Bool {
            if case .badArguments(let at, _)? = error(address, arguments) { return at == address }
            return false
        }
        XCTAssertTrue(rejected("/jacktap/reset", [.int32(1)]))
        XCTAssertTrue(rejected("/jacktap/query", [.string("x")]))
        XCTAssertTrue(rejected("/jacktap/subscribe", []))
        XCTAssertTrue(rejected("/jacktap/subscribe", [.int32(9000), .string("127.0.0.1")]))
        XCTAssertTrue(rejected("/jacktap/subscribe", [.string("127.0.0.1"), .int32(0)]))
        XCTAssertTrue(rejected("/jacktap/subscribe", [.string("127.0.0.1"), .int32(65536)]))
        XCTAssertTrue(rejected("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000), .string("no-slash")]))
        XCTAssertTrue(rejected("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000), .string("/a"), .string("/b")]))
        XCTAssertTrue(rejected("/jacktap/unsubscribe", [.string("127.0.0.1"), .int32(9000), .string("/a")]))
        XCTAssertTrue(rejected("/jacktap/connect", []))
        XCTAssertTrue(rejected("/jacktap/connect", [.string("")]))
        XCTAssertTrue(rejected("/jacktap/connect", [.string("a:b\n")]))
        XCTAssertTrue(rejected("/jacktap/connect", [.blob([1, 2, 3])]))
        XCTAssertTrue(rejected("/jacktap/disconnect", [.string("a:b"), .string("in_1")]))
    }

    func testHostNamesAreRefusedSoNoPacketCanStartADNSLookup() {
        XCTAssertNotNil(error("/jacktap/subscribe", [.string("example.com"), .int32(9000)]))
        XCTAssertNotNil(error("/jacktap/subscribe", [.string(""), .int32(9000)]))
        XCTAssertNotNil(error("/jacktap/subscribe", [.string("127.0.0.1; rm -rf /"), .int32(9000)]))
        XCTAssertNoThrow(try command("/jacktap/subscribe", [.string("localhost"), .int32(9000)]))
        XCTAssertNoThrow(try command("/jacktap/subscribe", [.string("fe80::1"), .int32(9000)]))
    }

    func testPatternsAreBoundedInLengthAndNumber() {
        let long = "/" + String(repeating: "a", count: ControlCommand.maximumPatternLength)
        XCTAssertNotNil(error("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000), .string(long)]))
        let many = Array(repeating: "/a", count: ControlCommand.maximumPatternCount + 1).joined(separator: "|")
        XCTAssertNotNil(error("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9000), .string(many)]))
        let longPort = String(repeating: "p", count: ControlCommand.maximumPortNameLength + 1)
        XCTAssertNotNil(error("/jacktap/connect", [.string(longPort)]))
    }

    func testListenAddressTakesHostPortBracketedIPv6AndABarePortOnLoopback() throws {
        XCTAssertEqual(try ListenAddress(parsing: "9100"), ListenAddress(host: "127.0.0.1", port: 9100))
        XCTAssertEqual(try ListenAddress(parsing: "0.0.0.0:9100"), ListenAddress(host: "0.0.0.0", port: 9100))
        XCTAssertEqual(try ListenAddress(parsing: "[::1]:9100"), ListenAddress(host: "::1", port: 9100))
        XCTAssertEqual(try ListenAddress(parsing: "[::1]:9100").description, "[::1]:9100")
        for bad in ["", ":9100", "host:", "host:70000", "::1:9100", "[::1]9100", "host:-1", "host:9x"] {
            XCTAssertThrowsError(try ListenAddress(parsing: bad), bad)
        }
    }
}
