/// Turns one datagram into an ``OSCPacket`` (OSC 1.0), rejecting anything malformed with an
/// ``OSCDecodeError``. Recursion is bounded by ``OSCPacket/maximumNestingDepth`` for bundles and for
/// arrays, so hostile nesting cannot exhaust the stack.
enum OSCDecoder {
    /// "#bundle" and its NUL, the first 8 bytes of every bundle.
    static let bundleHeader: [UInt8] = Array("#bundle".utf8) + [0]

    static func packet(_ bytes: UnsafeRawBufferPointer) throws(OSCDecodeError) -> OSCPacket {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count % 4 == 0 else { throw .lengthNotMultipleOfFour(length: bytes.count) }
        var reader = OSCByteReader(bytes, from: 0, to: bytes.count)
        return try packet(&reader, bundleDepth: 0)
    }

    /// Decodes the packet filling `reader` (a datagram or a bundle element) to its end.
    static func packet(_ reader: inout OSCByteReader, bundleDepth: Int) throws(OSCDecodeError) -> OSCPacket {
        try reader.require(4)
        let start = reader.position
        if reader.bytes[start] == UInt8(ascii: "/") {
            return .message(try message(&reader))
        }
        guard reader.remaining >= 8, bundleHeader.indices.allSatisfy({ reader.bytes[start + $0] == bundleHeader[$0] })
        else { throw .notAMessageOrBundle(offset: start) }
        guard bundleDepth < OSCPacket.maximumNestingDepth else {
            throw .nestingTooDeep(limit: OSCPacket.maximumNestingDepth)
        }
        reader.position += 8
        return .bundle(try bundle(&reader, bundleDepth: bundleDepth + 1))
    }

    /// Decodes a bundle after its "#bundle" header: time tag, then int32-sized elements to the end.
    static func bundle(_ reader: inout OSCByteReader, bundleDepth: Int) throws(OSCDecodeError) -> OSCBundle {
        let timetag = OSCTimetag(rawValue: try reader.readUInt64())
        var elements: [OSCPacket] = []
        while reader.remaining > 0 {
            let sizeOffset = reader.position
            let size = Int32(bitPattern: try reader.readUInt32())
            guard size > 0, size % 4 == 0, Int(size) <= reader.remaining else {
                throw .bundleElementSizeOutOfRange(size: size, offset: sizeOffset, remaining: reader.remaining)
            }
            let elementEnd = reader.position + Int(size)
            var elementReader = OSCByteReader(reader.bytes, from: reader.position, to: elementEnd)
            elements.append(try packet(&elementReader, bundleDepth: bundleDepth))
            reader.position = elementEnd
        }
        return OSCBundle(timetag: timetag, elements)
    }

    /// Decodes a message: address, type tag string, arguments, and nothing after them.
    ///
    /// A message that ends right after its address has no arguments: OSC 1.0 asks receivers to be robust
    /// to older senders that omit the type tag string. If anything else follows the address, it must be
    /// a type tag string, since without one the arguments' layout is unknown.
    static func message(_ reader: inout OSCByteReader) throws(OSCDecodeError) -> OSCMessage {
        let address = try reader.readString()
        guard reader.remaining > 0 else { return OSCMessage(address) }
        let tagsOffset = reader.position
        guard reader.bytes[tagsOffset] == UInt8(ascii: ",") else { throw .missingTypeTagString(offset: tagsOffset) }
        let tags = try reader.readStringBytes()
        var tagIndex = tags.lowerBound + 1
        let arguments = try arguments(&reader, tagIndex: &tagIndex, tagEnd: tags.upperBound, arrayDepth: 0)
        guard reader.remaining == 0 else { throw .trailingBytes(offset: reader.position) }
        return OSCMessage(address, arguments)
    }

    /// Reads the arguments announced by the tags from `tagIndex` to `tagEnd`; inside an array
    /// (`arrayDepth` > 0) it stops after the matching "]".
    static func arguments(
        _ reader: inout OSCByteReader, tagIndex: inout Int, tagEnd: Int, arrayDepth: Int
    ) throws(OSCDecodeError) -> [OSCArgument] {
        let openingOffset = tagIndex - 1
        var arguments: [OSCArgument] = []
        while tagIndex < tagEnd {
            let tagOffset = tagIndex
            let tag = reader.bytes[tagIndex]
            tagIndex += 1
            switch tag {
            case UInt8(ascii: "i"): arguments.append(.int32(Int32(bitPattern: try reader.readUInt32())))
            case UInt8(ascii: "f"): arguments.append(.float32(Float(bitPattern: try reader.readUInt32())))
            case UInt8(ascii: "s"): arguments.append(.string(try reader.readString()))
            case UInt8(ascii: "b"): arguments.append(.blob(try reader.readBlob()))
            case UInt8(ascii: "h"): arguments.append(.int64(Int64(bitPattern: try reader.readUInt64())))
            case UInt8(ascii: "t"): arguments.append(.timetag(OSCTimetag(rawValue: try reader.readUInt64())))
            case UInt8(ascii: "d"): arguments.append(.double(Double(bitPattern: try reader.readUInt64())))
            case UInt8(ascii: "S"): arguments.append(.symbol(try reader.readString()))
            case UInt8(ascii: "c"): arguments.append(.character(UInt8(truncatingIfNeeded: try reader.readUInt32())))
            case UInt8(ascii: "r"): arguments.append(.rgba(try reader.readUInt32()))
            case UInt8(ascii: "m"):
                let word = try reader.readUInt32()
                arguments.append(
                    .midi(
                        OSCMIDIMessage(
                            port: UInt8(truncatingIfNeeded: word >> 24), status: UInt8(truncatingIfNeeded: word >> 16),
                            data1: UInt8(truncatingIfNeeded: word >> 8), data2: UInt8(truncatingIfNeeded: word))))
            case UInt8(ascii: "T"): arguments.append(.bool(true))
            case UInt8(ascii: "F"): arguments.append(.bool(false))
            case UInt8(ascii: "N"): arguments.append(.nil)
            case UInt8(ascii: "I"): arguments.append(.impulse)
            case UInt8(ascii: "["):
                guard arrayDepth < OSCPacket.maximumNestingDepth else {
                    throw .nestingTooDeep(limit: OSCPacket.maximumNestingDepth)
                }
                arguments.append(
                    .array(try Self.arguments(&reader, tagIndex: &tagIndex, tagEnd: tagEnd, arrayDepth: arrayDepth + 1)))
            case UInt8(ascii: "]"):
                guard arrayDepth > 0 else { throw .unbalancedArray(offset: tagOffset) }
                return arguments
            default:
                throw .unknownTypeTag(tag: tag, offset: tagOffset)
            }
        }
        guard arrayDepth == 0 else { throw .unbalancedArray(offset: openingOffset) }
        return arguments
    }
}
