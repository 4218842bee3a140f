import Testing

@testable import OSC

/// What a destination's address says about how to send to it.
@Suite struct OSCDestinationRoutingTests {
    @Test(arguments: [
        ("224.0.0.1:9000", true), ("239.255.255.250:9000", true), ("223.255.255.255:9000", false),
        ("240.0.0.1:9000", false), ("127.0.0.1:9000", false), ("[ff02::1]:9000", true), ("[::1]:9000", false),
    ])
    func multicastIsTheClassDRangeOrFF00(text: String, multicast: Bool) throws {
        #expect(try OSCDestination(parsing: text).isMulticast == multicast)
    }

    @Test func limitedBroadcastAndDottedText() throws {
        #expect(try OSCDestination(parsing: "255.255.255.255:7700").isLimitedBroadcast)
        #expect(!(try OSCDestination(parsing: "192.168.1.255:7700").isLimitedBroadcast))
        #expect(try OSCDestination(parsing: "10.1.2.3:7700").ipv4Text == "10.1.2.3")
        #expect(try OSCDestination(parsing: "[::1]:7700").ipv4Text == nil)
    }
}
