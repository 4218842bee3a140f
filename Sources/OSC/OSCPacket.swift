/// The unit of OSC transmission (OSC 1.0, "OSC Packets"): a message or a bundle; one packet is the
/// whole content of one UDP datagram.
public indirect enum OSCPacket: Sendable, Equatable {
    /// A single message.
    case message(OSCMessage)
    /// A bundle of messages and bundles sharing a time tag.
    case bundle(OSCBundle)

    /// Appends the packet in OSC 1.0 binary form to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        switch self {
        case .message(let message): message.encode(into: &buffer)
        case .bundle(let bundle): bundle.encode(into: &buffer)
        }
    }

    /// The packet in OSC 1.0 binary form, ready to be one UDP datagram.
    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }
}
