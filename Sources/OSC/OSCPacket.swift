/// The unit of OSC transmission (OSC 1.0, "OSC Packets"): a message or a bundle; one packet is the
/// whole content of one UDP datagram.
public indirect enum OSCPacket: Sendable, Equatable {
    /// A single message.
    case message(OSCMessage)
    /// A bundle of messages and bundles sharing a time tag.
    case bundle(OSCBundle)

    /// How deep the decoder lets bundles nest in bundles, and arrays in arrays (each counted on its
    /// own); deeper input is an ``OSCDecodeError/nestingTooDeep(limit:)`` rather than deep recursion.
    public static let maximumNestingDepth = 8

    /// Decodes one datagram (OSC 1.0). Never traps, whatever the bytes; anything that is not a
    /// well-formed packet throws the ``OSCDecodeError`` that says why.
    ///
    /// Strict where OSC 1.0 and liblo are: the length and every bundle element size are multiples of 4,
    /// strings end in a NUL with NUL padding, blobs are NUL-padded, a message ends with its last argument.
    /// Strings (address, `s`, `S`) must be valid UTF-8 so that a decoded packet encodes back to the same
    /// bytes. A message with nothing after its address is accepted with no arguments (OSC 1.0's
    /// "missing type tag string" of older senders). Nested bundles' time tags are not compared with the
    /// enclosing bundle's.
    public init(decoding bytes: UnsafeRawBufferPointer) throws(OSCDecodeError) {
        self = try OSCDecoder.packet(bytes)
    }

    /// Decodes one datagram held in an array; see ``init(decoding:)-(UnsafeRawBufferPointer)``.
    public init(decoding bytes: [UInt8]) throws(OSCDecodeError) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(OSCDecodeError) in try OSCDecoder.packet(raw) } }
        self = try result.get()
    }

    /// Decodes one datagram from any byte collection (e.g. an `ArraySlice` of a receive buffer); see
    /// ``init(decoding:)-(UnsafeRawBufferPointer)``.
    public init<Bytes: Collection<UInt8>>(decoding bytes: Bytes) throws(OSCDecodeError) {
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(OSCDecodeError) in try OSCDecoder.packet(UnsafeRawBufferPointer(buffer)) }
        }
        if let contiguous {
            self = try contiguous.get()
        } else {
            try self.init(decoding: Array(bytes))
        }
    }

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

    /// Every message in the packet, in order, with the time tag of the innermost bundle around it
    /// (`timetag` for a bare message): how a receiver schedules them (OSC 1.0, "Temporal Semantics").
    public func messages(timetag: OSCTimetag = .immediately) -> [(timetag: OSCTimetag, message: OSCMessage)] {
        var result: [(timetag: OSCTimetag, message: OSCMessage)] = []
        appendMessages(timetag: timetag, to: &result)
        return result
    }

    private func appendMessages(timetag: OSCTimetag, to result: inout [(timetag: OSCTimetag, message: OSCMessage)]) {
        switch self {
        case .message(let message): result.append((timetag, message))
        case .bundle(let bundle):
            for element in bundle.elements {
                element.appendMessages(timetag: bundle.timetag, to: &result)
            }
        }
    }
}
