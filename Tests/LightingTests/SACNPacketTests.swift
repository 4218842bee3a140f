import Testing
@testable import Lighting

/// The E1.31 data packet against the standard's table 4-1 (ANSI E1.31-2018, section 4): every fixed field at its
/// offset with the value the standard gives.
struct SACNPacketTests {
    let cid = SACNPacket.cid(clientName: "jacktap")

    func field(_ packet: [UInt8], _ offset: Int, _ count: Int) -> [UInt8] { Array(packet[offset..<(offset + count)]) }

    @Test func fixedFieldsAreTheStandards() {
        var packet = SACNPacket.template(cid: cid, sourceName: "jacktap stage", priority: 150, universe: 0x1234)
        SACNPacket.update(&packet, sequence: 7, options: 0, slots: (0..<512).map { UInt8($0 & 0xFF) })
        #expect(packet.count == 638)
        #expect(field(packet, 0, 4) == [0x00, 0x10, 0x00, 0x00])
        #expect(field(packet, 4, 12) == Array("ASC-E1.17".utf8) + [0, 0, 0])
        #expect(field(packet, 16, 2) == [0x72, 0x6E])  // 0x7000 | 622
        #expect(field(packet, 18, 4) == [0, 0, 0, 4])
        #expect(field(packet, 22, 16) == cid)
        #expect(field(packet, 38, 2) == [0x72, 0x58])  // 0x7000 | 600
        #expect(field(packet, 40, 4) == [0, 0, 0, 2])
        #expect(field(packet, 44, 13) == Array("jacktap stage".utf8))
        #expect(packet[57..<108].allSatisfy { $0 == 0 })
        #expect(packet[108] == 150)
        #expect(field(packet, 109, 2) == [0, 0])
        #expect(packet[111] == 7)
        #expect(packet[112] == 0)
        #expect(field(packet, 113, 2) == [0x12, 0x34])
        #expect(field(packet, 115, 2) == [0x72, 0x0B])  // 0x7000 | 523
        #expect(packet[117] == 0x02)
        #expect(packet[118] == 0xA1)
        #expect(field(packet, 119, 6) == [0, 0, 0, 1, 0x02, 0x01])
        #expect(packet[125] == 0)
        #expect(packet[126] == 0 && packet[127] == 1 && packet[637] == 0xFF)
    }

    @Test func streamTerminationSetsOptionsBitSix() {
        var packet = SACNPacket.template(cid: cid, sourceName: "x", priority: 100, universe: 1)
        SACNPacket.update(&packet, sequence: 0, options: SACNPacket.streamTerminated, slots: [UInt8](repeating: 0, count: 512))
        #expect(packet[112] == 0b0100_0000)
    }

    @Test func sourceNameEndsWithANulAndKeepsWholeCharacters() {
        let long = String(repeating: "é", count: 40)  // 80 bytes of UTF-8
        let packet = SACNPacket.template(cid: cid, sourceName: long, priority: 100, universe: 1)
        #expect(field(packet, 44, 62) == Array(String(repeating: "é", count: 31).utf8))
        #expect(packet[106] == 0 && packet[107] == 0)
    }

    @Test func cidIsTheSameForAClientNameAndAVersionEightUUID() {
        #expect(SACNPacket.cid(clientName: "jacktap") == cid)
        #expect(SACNPacket.cid(clientName: "jacktap-2") != cid)
        #expect(cid[6] >> 4 == 8)
        #expect(cid[8] >> 6 == 0b10)
    }

    @Test func multicastGroupIsTheUniversesHighAndLowByte() {
        #expect(SACNPacket.group(universe: 1) == "239.255.0.1")
        #expect(SACNPacket.group(universe: 63999) == "239.255.249.255")
    }
}
