import Testing
@testable import Lighting

/// ArtDmx, ArtPoll and ArtPollReply against the field tables of "Art-Net 4 Protocol Release V1.4".
struct ArtNetPacketTests {
    @Test func artDmxHeaderAndPortAddressSplit() {
        var packet = ArtNetPacket.dmxTemplate(portAddress: 0x1234)
        ArtNetPacket.update(&packet, sequence: 9, slots: [UInt8](repeating: 0xAB, count: 512))
        #expect(packet.count == 530)
        #expect(Array(packet[0..<8]) == Array("Art-Net".utf8) + [0])
        #expect(packet[8] == 0x00 && packet[9] == 0x50)  // OpDmx 0x5000, low byte first
        #expect(packet[10] == 0 && packet[11] == 14)
        #expect(packet[12] == 9)
        #expect(packet[13] == 0)
        #expect(packet[14] == 0x34)  // SubUni: sub-net 3, universe 4
        #expect(packet[15] == 0x12)  // Net
        #expect(packet[16] == 0x02 && packet[17] == 0x00)  // 512, high byte first
        #expect(packet[18...].allSatisfy { $0 == 0xAB })
    }

    @Test func netKeepsSevenBits() {
        let packet = ArtNetPacket.dmxTemplate(portAddress: 32767)
        #expect(packet[14] == 0xFF && packet[15] == 0x7F)
    }

    @Test func sequenceRunsFromOneTo255AndSkipsZero() {
        #expect(ArtNetPacket.next(sequence: 1) == 2)
        #expect(ArtNetPacket.next(sequence: 255) == 1)
    }

    @Test func recognisesArtPollOnly() {
        var poll = Array("Art-Net".utf8) + [0, 0x00, 0x20, 0, 14, 0x02, 0]
        #expect(poll.withUnsafeBytes { ArtNetPacket.isPoll($0) })
        poll[9] = 0x50
        #expect(!poll.withUnsafeBytes { ArtNetPacket.isPoll($0) })
        #expect(!Array("Art-Net".utf8).withUnsafeBytes { ArtNetPacket.isPoll($0) })
    }

    @Test func pollReplyFields() {
        let reply = ArtNetPacket.pollReply(address: [192, 0, 2, 1], portAddress: 0x0123, bindIndex: 2,
                                           clientName: "stage", pollCount: 7, frames: 30)
        #expect(reply.count == 239)
        #expect(reply[8] == 0x00 && reply[9] == 0x21)
        #expect(Array(reply[10..<14]) == [192, 0, 2, 1])
        #expect(reply[14] == 0x36 && reply[15] == 0x19)  // 6454, low byte first
        #expect(reply[18] == 0x01 && reply[19] == 0x02)  // NetSwitch, SubSwitch
        #expect(Array(reply[26..<33]) == Array("jacktap".utf8) && reply[33] == 0)
        #expect(String(decoding: reply[108..<172].prefix { $0 != 0 }, as: UTF8.self) == "#0001 [0007] jacktap sending 30 frames")
        #expect(reply[172] == 0 && reply[173] == 1)
        #expect(reply[174] == 0x40)
        #expect(reply[186] == 0x03)  // SwIn: the universe nibble
        #expect(reply[200] == 0x01)  // StController
        #expect(Array(reply[207..<211]) == [192, 0, 2, 1] && reply[211] == 2)
        #expect(reply[212] & 0x08 != 0)
    }
}
