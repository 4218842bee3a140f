import Testing

@testable import OSC

/// Per-destination sends and the socket options routing needs (multicast, broadcast, interface).
@Suite struct UDPSenderRoutingTests {
    @Test func sendToOneIndexReachesOnlyThatDestination() throws {
        let first = LoopbackReceiver()
        let second = LoopbackReceiver()
        let sender = try UDPSender(destinations: [
            try OSCDestination(parsing: "127.0.0.1:\(first.port)"),
            try OSCDestination(parsing: "127.0.0.1:\(second.port)"),
        ])
        let datagram = OSCMessage("/only/second", [.int32(2)]).encoded
        datagram.withUnsafeBytes { sender.send($0, to: 1) }
        #expect(second.receive() == datagram)
        #expect(first.receive(timeout: 0.2) == nil)
        #expect(sender.sentCounts == [0, 1])
    }

    @Test func sendToAnIndexOutOfRangeDoesNothing() throws {
        let sender = try UDPSender(destinations: [])
        [UInt8](repeating: 0, count: 4).withUnsafeBytes { sender.send($0, to: 3) }
        #expect(sender.sentCounts.isEmpty)
    }

    @Test func multicastOptionsAreAcceptedForAGroup() throws {
        let group = try OSCDestination(parsing: "239.255.0.1:9000")
        #expect(group.isMulticast)
        _ = try UDPSender(destinations: [group], options: UDPSender.Options(multicastTTL: 2, multicastInterface: "127.0.0.1"))
    }

    @Test func anInterfaceThatIsNotAnAddressIsRefused() throws {
        let group = try OSCDestination(parsing: "239.255.0.1:9000")
        #expect(throws: OSCDestinationError.notAnInterfaceAddress(text: "no-such-interface.invalid")) {
            try UDPSender(destinations: [group], options: UDPSender.Options(multicastInterface: "no-such-interface.invalid"))
        }
    }

    @Test func requiredBroadcastIsGrantedOnIPv4() throws {
        let destination = try OSCDestination(parsing: "255.255.255.255:9000")
        #expect(destination.isLimitedBroadcast)
        _ = try UDPSender(destinations: [destination], options: UDPSender.Options(broadcast: true))
    }
}
