/// An OSC 1.0 bundle: a time tag and elements that are messages or further bundles, meant to be applied
/// together (OSC 1.0 requires a receiver to apply a bundle's messages atomically).
///
/// Not every receiver takes bundles: grandMA3 rejects them and QLC+ ignores nested ones, so offer plain
/// messages too.
public struct OSCBundle: Sendable, Equatable {
    /// When the receiver should act on the elements; ``OSCTimetag/immediately`` for "on arrival".
    public var timetag: OSCTimetag
    /// The contents, sent in this order.
    public var elements: [OSCPacket]

    /// Creates a bundle; the time tag defaults to ``OSCTimetag/immediately``.
    public init(timetag: OSCTimetag = .immediately, _ elements: [OSCPacket] = []) {
        self.timetag = timetag
        self.elements = elements
    }

    /// Appends the bundle in OSC 1.0 binary form: the OSC-string "#bundle", the 8-byte time tag, then each
    /// element as an int32 size followed by that many bytes.
    public func encode(into buffer: inout [UInt8]) {
        Self.appendHeader(timetag, into: &buffer)
        for element in elements {
            let sizePosition = buffer.reserveSizePrefix()
            element.encode(into: &buffer)
            buffer.fillSizePrefix(at: sizePosition)
        }
    }

    /// Appends a bundle of elements already encoded one after another in `encoded`, each at its span of `spans`
    /// (those of `range`, in order): the same bytes as a bundle of the decoded elements, for a sender that
    /// encoded each message once to measure it and packs them into datagrams by size.
    public static func encode(timetag: OSCTimetag, encoded: [UInt8], spans: [Range<Int>], _ range: Range<Int>,
                              into buffer: inout [UInt8]) {
        appendHeader(timetag, into: &buffer)
        encoded.withUnsafeBufferPointer { bytes in
            for index in range {
                let span = spans[index]
                buffer.appendBigEndian(UInt32(span.count))
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[span]))
            }
        }
    }

    /// The OSC-string "#bundle" and the 8-byte time tag.
    private static func appendHeader(_ timetag: OSCTimetag, into buffer: inout [UInt8]) {
        buffer.appendOSCString("#bundle")
        buffer.appendBigEndian(timetag.rawValue)
    }

    /// The bundle in OSC 1.0 binary form, ready to be one UDP datagram.
    public var encoded: [UInt8] {
        var buffer: [UInt8] = []
        encode(into: &buffer)
        return buffer
    }
}
