/// Reads OSC 1.0 atomic data types from untrusted bytes. Every read checks the bytes left before it
/// touches them and throws instead of trapping; sizes from the data are compared with what is left
/// before anything is allocated.
struct OSCByteReader {
    /// The whole datagram; offsets in errors are indices into it.
    let bytes: UnsafeRawBufferPointer
    /// The next byte to read; always a multiple of 4 because every item is.
    var position: Int
    /// One past the last byte this reader may read (the end of the packet or bundle element).
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, from position: Int, to end: Int) {
        self.bytes = bytes
        self.position = position
        self.end = end
    }

    /// Bytes left before `end`.
    var remaining: Int { end - position }

    /// Throws unless `count` more bytes are there.
    func require(_ count: Int) throws(OSCDecodeError) {
        guard count <= remaining else { throw .truncated(offset: position, needed: count - remaining) }
    }

    /// Reads a big-endian 32-bit word.
    mutating func readUInt32() throws(OSCDecodeError) -> UInt32 {
        try require(4)
        let value =
            UInt32(bytes[position]) << 24 | UInt32(bytes[position + 1]) << 16 | UInt32(bytes[position + 2]) << 8
            | UInt32(bytes[position + 3])
        position += 4
        return value
    }

    /// Reads a big-endian 64-bit word (int64, double, time tag).
    mutating func readUInt64() throws(OSCDecodeError) -> UInt64 {
        try require(8)
        let high = try readUInt32()
        let low = try readUInt32()
        return UInt64(high) << 32 | UInt64(low)
    }

    /// Reads an OSC-string and returns the range of its bytes (without the NUL). Checks that a NUL comes
    /// before `end` and that the padding to the next multiple of 4 is all NULs, as liblo does.
    mutating func readStringBytes() throws(OSCDecodeError) -> Range<Int> {
        let start = position
        var terminator = start
        while terminator < end, bytes[terminator] != 0 {
            terminator += 1
        }
        guard terminator < end else { throw .unterminatedString(offset: start) }
        // The NUL and its padding end on the next multiple of 4 (end is one, so this stays inside).
        let next = (terminator + 4) & ~3
        for index in (terminator + 1)..<next where bytes[index] != 0 {
            throw .nonZeroPadding(offset: index)
        }
        position = next
        return start..<terminator
    }

    /// Reads an OSC-string that must be valid UTF-8.
    mutating func readString() throws(OSCDecodeError) -> String {
        let range = try readStringBytes()
        guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw .invalidUTF8(offset: range.lowerBound)
        }
        return text
    }

    /// Reads an OSC-blob: an int32 count, that many bytes, NUL padding to a multiple of 4.
    mutating func readBlob() throws(OSCDecodeError) -> [UInt8] {
        let sizeOffset = position
        let size = Int32(bitPattern: try readUInt32())
        guard size >= 0, Int(size) <= remaining else { throw .blobSizeOutOfRange(size: size, offset: sizeOffset) }
        let start = position
        let dataEnd = start + Int(size)
        // remaining is a multiple of 4, so the padded end is inside too.
        let next = (dataEnd + 3) & ~3
        for index in dataEnd..<next where bytes[index] != 0 {
            throw .nonZeroPadding(offset: index)
        }
        position = next
        return Array(UnsafeRawBufferPointer(rebasing: bytes[start..<dataEnd]))
    }
}
