/// Art-Net 4 packets (Artistic Licence, "Art-Net 4 Protocol Release V1.4"): ArtDmx carries a universe's slots,
/// ArtPoll asks who is there and ArtPollReply answers, so that nodes and consoles list jacktap. Every packet
/// starts with `Art-Net` and a NUL, then the OpCode, little-endian; the other fields are big-endian or bytes.
public enum ArtNetPacket {
    public static let port: UInt16 = 6454
    /// The 15-bit port-address: net (7 bits), sub-net (4) and universe (4).
    public static let portAddresses = 0...32767
    static let opDmx: UInt16 = 0x5000
    static let opPoll: UInt16 = 0x2000
    static let opPollReply: UInt16 = 0x2100
    static let protocolVersion: UInt8 = 14
    public static let dmxSize = 18 + 512
    public static let pollReplySize = 239

    /// An ArtDmx packet for `portAddress` with 512 slots; ``update`` writes the sequence and the slots.
    ///
    /// | offset | field |
    /// |---:|---|
    /// | 0 | `Art-Net`, NUL |
    /// | 8 | OpCode 0x5000, little-endian |
    /// | 10 | ProtVerHi 0, ProtVerLo 14 |
    /// | 12 | Sequence: 1–255, wrapping to 1 (0 would turn reordering off) |
    /// | 13 | Physical: 0 |
    /// | 14 | SubUni: sub-net and universe, the port-address's low byte |
    /// | 15 | Net: the port-address's bits 14–8 |
    /// | 16 | Length, big-endian: 512 (even, 2–512) |
    /// | 18 | the slots |
    public static func dmxTemplate(portAddress: Int) -> [UInt8] {
        var packet = header(opCode: opDmx, size: dmxSize)
        packet[10] = 0
        packet[11] = protocolVersion
        packet[14] = UInt8(portAddress & 0xFF)
        packet[15] = UInt8((portAddress >> 8) & 0x7F)
        packet[16] = 0x02
        packet[17] = 0x00
        return packet
    }

    /// Writes a frame's sequence number and 512 slots into a packet made by ``dmxTemplate``.
    public static func update(_ packet: inout [UInt8], sequence: UInt8, slots: [UInt8]) {
        precondition(slots.count == 512)
        packet[12] = sequence
        packet.withUnsafeMutableBufferPointer { out in
            slots.withUnsafeBufferPointer { source in
                out.baseAddress!.advanced(by: 18).update(from: source.baseAddress!, count: 512)
            }
        }
    }

    /// The sequence number after `sequence`: 1…255, never 0.
    public static func next(sequence: UInt8) -> UInt8 { sequence == 255 ? 1 : sequence + 1 }

    /// Whether a datagram is an ArtPoll (at least the 12 bytes up to ProtVerLo, which Art-Net 4 asks a node to
    /// accept from every earlier version).
    public static func isPoll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 12 else { return false }
        let id = Array("Art-Net".utf8) + [0]
        for i in 0..<8 where bytes[i] != id[i] { return false }
        return UInt16(bytes[8]) | UInt16(bytes[9]) << 8 == opPoll
    }

    /// An ArtPollReply for one port that inputs `portAddress` onto the network (one reply per universe, each
    /// with its BindIndex, as the standard asks of a node with more than four ports). `address` is jacktap's
    /// IPv4 address as the poller reaches it.
    ///
    /// | offset | field | jacktap's |
    /// |---:|---|---|
    /// | 10 | IP address, port 0x1936 little-endian | its address toward the poller, 6454 |
    /// | 16 | VersInfo | 1 |
    /// | 18 | NetSwitch, SubSwitch | the port-address's net and sub-net |
    /// | 20 | Oem | 0x00FF: OemUnknown |
    /// | 23 | Status1 | 0xD0: indicators normal, addresses set by the node |
    /// | 24 | ESTA manufacturer, little-endian | 0x7FF0: the code ESTA keeps for prototypes |
    /// | 26 | ShortName (18), LongName (64) | `jacktap`, `jacktap CLIENT (sACN/Art-Net from JACK audio analysis)` |
    /// | 108 | NodeReport (64) | `#0001 [count] jacktap sending N frames` |
    /// | 172 | NumPorts, big-endian | 1 |
    /// | 174 | PortTypes[0] | 0x40: inputs DMX512 onto the network |
    /// | 178 | GoodInput[0] | 0x80: data received |
    /// | 186 | SwIn[0] | the port-address's universe |
    /// | 200 | Style | 0x01: StController |
    /// | 207 | BindIp, BindIndex | its address, 1… |
    /// | 212 | Status2 | 0x08: 15-bit port-addresses |
    public static func pollReply(address: [UInt8], portAddress: Int, bindIndex: Int, clientName: String,
                                 pollCount: Int, frames: Int) -> [UInt8] {
        var packet = header(opCode: opPollReply, size: pollReplySize)
        if address.count == 4 {
            packet.replaceSubrange(10..<14, with: address)
            packet.replaceSubrange(207..<211, with: address)
        }
        packet[14] = UInt8(port & 0xFF)
        packet[15] = UInt8(port >> 8)
        packet[16] = 0
        packet[17] = 1
        packet[18] = UInt8((portAddress >> 8) & 0x7F)
        packet[19] = UInt8((portAddress >> 4) & 0x0F)
        packet[20] = 0x00
        packet[21] = 0xFF
        packet[23] = 0xD0
        packet[24] = 0xF0
        packet[25] = 0x7F
        text("jacktap", at: 26, size: 18, in: &packet)
        text("jacktap \(clientName) (sACN/Art-Net from JACK audio analysis)", at: 44, size: 64, in: &packet)
        let counter = String(pollCount % 10_000)
        text("#0001 [\(String(repeating: "0", count: 4 - counter.count) + counter)] jacktap sending \(frames) frames",
             at: 108, size: 64, in: &packet)
        packet[172] = 0
        packet[173] = 1
        packet[174] = 0x40
        packet[178] = 0x80
        packet[186] = UInt8(portAddress & 0x0F)
        packet[200] = 0x01
        packet[211] = UInt8(min(max(bindIndex, 1), 255))
        packet[212] = 0x08
        return packet
    }

    static func header(opCode: UInt16, size: Int) -> [UInt8] {
        var packet = [UInt8](repeating: 0, count: size)
        for (i, byte) in "Art-Net".utf8.enumerated() { packet[i] = byte }
        packet[8] = UInt8(opCode & 0xFF)
        packet[9] = UInt8(opCode >> 8)
        return packet
    }

    /// ASCII text in a NUL-terminated field of `size` bytes.
    static func text(_ string: String, at offset: Int, size: Int, in packet: inout [UInt8]) {
        let bytes = string.utf8.filter { $0 < 0x80 }.prefix(size - 1)
        packet.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
    }
}
