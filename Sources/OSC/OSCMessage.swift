/// An OSC 1.0 message: an address pattern, a type tag string and the arguments.
public struct OSCMessage: Sendable, Equatable {
    /// The OSC address, e.g. `/jacktap/level/in_1`; sent as given (see ``OSCAddress`` to build safe parts).
    public var address: String
    /// The arguments, in the order they are sent.
    public var arguments: [OSCArgument]

    /// Creates a message for `address` carrying `arguments`.
    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// Appends the message in OSC 1.0 binary form to `buffer`.
    ///
    /// The type tag string is always written, even with no arguments (",\0\0\0"): OSC 1.0 lets older
    /// implementations omit it, but it says senders should include it, and receivers such as liblo and
    /// python-osc expect it.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendOSCString(address)
        let typeTagStart = buffer.count
        // The type tag string is an OSC-string that starts with "," (OSC 1.0, "OSC Type Tag String").
        buffer.append(UInt8(ascii: ","))
        for argument in arguments {
            argument.appendTypeTags(into: &buffer)
        }
        buffer.append(0)
        buffer.padToFourBytes(from: typeTagStart)
        for argument in arguments {
            argument.encode(into: &buffer)
        }
    }

    /// The message in OSC 1.0 binary form, ready to be one UDP datagram.
    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }
}
