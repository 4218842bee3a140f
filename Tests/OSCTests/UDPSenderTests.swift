import Testing

@testable import OSC

/// Sending over real loopback sockets: exact bytes out, and never blocking or throwing on a dead peer.
@Suite struct UDPSenderTests {
    @Test func twoDestinationsEachReceiveExactlyTheBytesSent() throws {
        let first = LoopbackReceiver()
        let second = LoopbackReceiver()
        let sender = try UDPSender(destinations: [
            try OSCDestination(parsing: "127.0.0.1:\(first.port)"),
            try OSCDestination(parsing: "\(second.port)"),
        ])
        let datagram = OSCMessage("/jacktap/level", [.int32(3), .float32(0.25), .string("in_1")]).encoded
        sender.send(datagram)
        #expect(first.receive() == datagram)
        #expect(second.receive() == datagram)
        #expect(sender.sentCounts == [1, 1])
        #expect(sender.errorCounts == [0, 0])
        #expect(sender.lastErrors == [nil, nil])
    }

    @Test func packetIsSentAsItsEncoding() throws {
        let receiver = LoopbackReceiver()
        let sender = try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(receiver.port)")])
        let packet = OSCPacket.bundle(OSCBundle([.message(OSCMessage("/a", [.int32(1)]))]))
        sender.send(packet)
        #expect(receiver.receive() == packet.encoded)
    }

    @Test func destinationWithNothingListeningNeverBlocksOrThrowsAndIsCounted() throws {
        let sender = try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(LoopbackReceiver.closedPort())")])
        let datagram = OSCMessage("/x", [.float32(1)]).encoded
        let start = ContinuousClock.now
        for _ in 0..<10_000 {
            sender.send(datagram)
        }
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(sender.sentCounts[0] + sender.errorCounts[0] == 10_000)
        // On loopback the ICMP port-unreachable arrives before the next send, which reports it.
        #expect(sender.errorCounts[0] > 0)
        #expect(sender.lastErrors[0] == SystemErrorMessage.connectionRefused)
    }

    @Test func deadDestinationDoesNotDisturbALiveOne() throws {
        let live = LoopbackReceiver()
        let sender = try UDPSender(destinations: [
            try OSCDestination(parsing: "127.0.0.1:\(LoopbackReceiver.closedPort())"),
            try OSCDestination(parsing: "127.0.0.1:\(live.port)"),
        ])
        for value in 0..<100 {
            sender.send(OSCMessage("/n", [.int32(Int32(value))]).encoded)
        }
        for value in 0..<100 {
            #expect(live.receive() == OSCMessage("/n", [.int32(Int32(value))]).encoded)
        }
        #expect(sender.sentCounts[1] == 100)
        #expect(sender.errorCounts[1] == 0)
        #expect(sender.sentCounts[0] + sender.errorCounts[0] == 100)
        #expect(sender.errorCounts[0] > 0)
    }

    @Test func oversizedDatagramIsCountedNotThrown() throws {
        let receiver = LoopbackReceiver()
        let sender = try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(receiver.port)")])
        sender.send([UInt8](repeating: 0, count: 70_000))
        #expect(sender.errorCounts == [1])
        #expect(sender.sentCounts == [0])
        #expect(sender.lastErrors[0] == SystemErrorMessage.messageTooLong)
    }

    @Test func sendAfterCloseDoesNothing() throws {
        let receiver = LoopbackReceiver()
        let sender = try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(receiver.port)")])
        sender.close()
        sender.send([0, 0, 0, 0])
        #expect(sender.sentCounts == [0])
        #expect(sender.errorCounts == [0])
        #expect(receiver.receive(timeout: 0.1) == nil)
    }

    @Test func noDestinationsIsAllowed() throws {
        let sender = try UDPSender(destinations: [])
        sender.send([1, 2, 3, 4])
        #expect(sender.sentCounts.isEmpty)
    }
}
