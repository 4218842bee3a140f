/// The OSC 1.0 "atomic data types" as appends to a byte buffer; every item ends on a 4-byte boundary
/// because OSC 1.0 says "the size of every atomic data is a multiple of 32 bits".
extension Array where Element == UInt8 {
    /// Appends `value` most significant byte first: OSC 1.0 numbers are big-endian.
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends `value` as two big-endian 32-bit words, the layout of an OSC time tag.
    mutating func appendBigEndian(_ value: UInt64) {
        appendBigEndian(UInt32(truncatingIfNeeded: value >> 32))
        appendBigEndian(UInt32(truncatingIfNeeded: value))
    }

    /// Appends zero bytes until the bytes written since `start` are a multiple of 4 (OSC 1.0 alignment).
    /// Counted from the item's start, not the buffer's, so encoding after unaligned bytes still gives
    /// the item's own encoding.
    mutating func padToFourBytes(from start: Int) {
        while (count - start) % 4 != 0 { append(0) }
    }

    /// Appends an OSC-string: the UTF-8 bytes, a terminating NUL, then NULs to a multiple of 4 — so a
    /// string whose length is already a multiple of 4 still gets four NULs ("/abc" takes 8 bytes).
    ///
    /// Bytes from the first embedded NUL on are dropped: a receiver would end the string there and then
    /// read the rest as the next argument, misaligning the whole message.
    mutating func appendOSCString(_ string: String) {
        let start = count
        var text = string
        text.withUTF8 { bytes in
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<end]))
        }
        append(0)
        padToFourBytes(from: start)
    }

    /// Appends an OSC-blob: an int32 count of the data bytes (not counting padding), the bytes, then NULs
    /// to a multiple of 4 (OSC 1.0, "OSC-blob").
    mutating func appendOSCBlob(_ bytes: [UInt8]) {
        let start = count
        appendBigEndian(UInt32(truncatingIfNeeded: bytes.count))
        append(contentsOf: bytes)
        padToFourBytes(from: start)
    }

    /// Appends a 4-byte placeholder for a size that is only known after the content is written, and
    /// returns where it is; OSC 1.0 bundle elements are each preceded by their int32 size.
    mutating func reserveSizePrefix() -> Int {
        let position = count
        append(contentsOf: [0, 0, 0, 0])
        return position
    }

    /// Fills the placeholder at `position` with the number of bytes written after it, big-endian.
    mutating func fillSizePrefix(at position: Int) {
        let size = UInt32(truncatingIfNeeded: count - position - 4)
        self[position] = UInt8(truncatingIfNeeded: size >> 24)
        self[position + 1] = UInt8(truncatingIfNeeded: size >> 16)
        self[position + 2] = UInt8(truncatingIfNeeded: size >> 8)
        self[position + 3] = UInt8(truncatingIfNeeded: size)
    }
}
