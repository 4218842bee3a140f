/// An E1.31 (sACN, ANSI E1.31-2018) data packet: the root layer, the framing layer and the DMP layer, with the
/// start code and all 512 slots, 638 bytes. Offsets and values are the standard's (section 4, table 4-1):
///
/// | offset | field | value |
/// |---:|---|---|
/// | 0 | preamble size, postamble size | 0x0010, 0x0000 |
/// | 4 | ACN packet identifier | `ASC-E1.17` and three NULs |
/// | 16 | root flags and length | 0x7000 \| 622 |
/// | 18 | root vector | VECTOR_ROOT_E131_DATA, 4 |
/// | 22 | CID | 16 bytes, the sender's UUID |
/// | 38 | framing flags and length | 0x7000 \| 600 |
/// | 40 | framing vector | VECTOR_E131_DATA_PACKET, 2 |
/// | 44 | source name | 64 bytes of UTF-8, NUL-terminated |
/// | 108 | priority | 0–200, 100 by default |
/// | 109 | synchronization address | 0: not synchronised |
/// | 111 | sequence number | counts packets of the universe, wrapping |
/// | 112 | options | bit 6: stream terminated |
/// | 113 | universe | 1–63999 |
/// | 115 | DMP flags and length | 0x7000 \| 523 |
/// | 117 | DMP vector, address and data type | 2, 0xA1 |
/// | 119 | first property address, increment | 0, 1 |
/// | 123 | property value count | 513: the start code and 512 slots |
/// | 125 | start code, slots | 0, then the 512 slots |
public enum SACNPacket {
    public static let size = 638
    public static let port: UInt16 = 5568
    public static let universes = 1...63999
    public static let priorities = 0...200
    /// Options bit 6 (E1.31 section 6.2.6): the source stops sending this universe.
    public static let streamTerminated: UInt8 = 0x40

    /// The multicast group of `universe` (E1.31 section 9.3.1): 239.255.hi.lo.
    public static func group(universe: Int) -> String { "239.255.\(universe >> 8).\(universe & 0xFF)" }

    /// A packet with every field but the sequence, options and slots filled in; ``update`` fills those.
    public static func template(cid: [UInt8], sourceName: String, priority: UInt8, universe: UInt16) -> [UInt8] {
        precondition(cid.count == 16)
        var packet = [UInt8](repeating: 0, count: size)
        put16(0x0010, at: 0, in: &packet)
        for (i, byte) in "ASC-E1.17".utf8.enumerated() { packet[4 + i] = byte }
        put16(0x7000 | UInt16(size - 16), at: 16, in: &packet)
        put32(0x0000_0004, at: 18, in: &packet)
        packet.replaceSubrange(22..<38, with: cid)
        put16(0x7000 | UInt16(size - 38), at: 38, in: &packet)
        put32(0x0000_0002, at: 40, in: &packet)
        // 63 bytes at most, so the name always ends with a NUL; a multi-byte character is not cut in two.
        var name = [UInt8]()
        for character in sourceName {
            let bytes = Array(String(character).utf8)
            if name.count + bytes.count > 63 { break }
            name += bytes
        }
        packet.replaceSubrange(44..<(44 + name.count), with: name)
        packet[108] = priority
        put16(universe, at: 113, in: &packet)
        put16(0x7000 | UInt16(size - 115), at: 115, in: &packet)
        packet[117] = 0x02
        packet[118] = 0xA1
        put16(0x0000, at: 119, in: &packet)
        put16(0x0001, at: 121, in: &packet)
        put16(513, at: 123, in: &packet)
        packet[125] = 0  // the null start code: dimmer data
        return packet
    }

    /// Writes a frame's sequence number, options and 512 slots into a packet made by ``template``.
    public static func update(_ packet: inout [UInt8], sequence: UInt8, options: UInt8, slots: [UInt8]) {
        precondition(slots.count == 512)
        packet[111] = sequence
        packet[112] = options
        packet.withUnsafeMutableBufferPointer { out in
            slots.withUnsafeBufferPointer { source in
                out.baseAddress!.advanced(by: 126).update(from: source.baseAddress!, count: 512)
            }
        }
    }

    /// A component identifier that stays the same for a client name (E1.31 section 5.6: a source keeps its CID),
    /// so that receivers see a restarted jacktap as the same source: 128 bits from two FNV-1a hashes of the
    /// name, marked as an RFC 9562 version 8 (application-defined) UUID.
    public static func cid(clientName: String) -> [UInt8] {
        func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
            var hash = basis
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash
        }
        let high = fnv1a("jacktap sACN source " + clientName, basis: 0xCBF2_9CE4_8422_2325)
        let low = fnv1a(clientName + " jacktap sACN source", basis: 0x8422_2325_CBF2_9CE4)
        var bytes = (0..<8).map { UInt8((high >> (56 - 8 * UInt64($0))) & 0xFF) }
            + (0..<8).map { UInt8((low >> (56 - 8 * UInt64($0))) & 0xFF) }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC 9562 variant
        return bytes
    }

    static func put16(_ value: UInt16, at offset: Int, in packet: inout [UInt8]) {
        packet[offset] = UInt8(value >> 8)
        packet[offset + 1] = UInt8(value & 0xFF)
    }

    static func put32(_ value: UInt32, at offset: Int, in packet: inout [UInt8]) {
        for i in 0..<4 { packet[offset + i] = UInt8((value >> (24 - 8 * UInt32(i))) & 0xFF) }
    }
}
