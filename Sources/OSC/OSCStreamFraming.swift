/// How OSC packets go over a stream (TCP), where nothing marks where one ends: OSC 1.0 puts each packet's size
/// before it as a big-endian int32; OSC 1.1 frames each with SLIP (RFC 1055), END bytes before and after
/// ("double-ended", so a receiver that joins mid-stream resynchronises at the next END).
public enum OSCStreamFraming: String, Sendable, CaseIterable {
    /// OSC 1.0: int32 size, big-endian, then the packet.
    case size
    /// OSC 1.1: SLIP, END (0xC0) before and after; END and ESC (0xDB) inside escaped as ESC 0xDC and ESC 0xDD.
    case slip

    static let end: UInt8 = 0xC0
    static let escape: UInt8 = 0xDB
    static let escapedEnd: UInt8 = 0xDC
    static let escapedEscape: UInt8 = 0xDD

    /// Appends `packet`, framed, to `out`.
    public func frame(_ packet: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        switch self {
        case .size:
            let count = UInt32(packet.count)
            out.append(contentsOf: [UInt8(count >> 24), UInt8((count >> 16) & 0xFF), UInt8((count >> 8) & 0xFF),
                                    UInt8(count & 0xFF)])
            out.append(contentsOf: packet)
        case .slip:
            out.append(Self.end)
            for byte in packet {
                switch byte {
                case Self.end: out.append(contentsOf: [Self.escape, Self.escapedEnd])
                case Self.escape: out.append(contentsOf: [Self.escape, Self.escapedEscape])
                default: out.append(byte)
                }
            }
            out.append(Self.end)
        }
    }
}
