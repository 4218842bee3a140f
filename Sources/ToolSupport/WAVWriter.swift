import Foundation

/// Writes 32-bit float WAV files (RIFF, format 3), so tests can hand jacktap exactly the samples they made.
public enum WAVWriter {
    /// Writes `channels` (equal lengths) at `sampleRate` to `path`.
    public static func write(_ path: String, sampleRate: Int, channels: [[Float]]) throws {
        let frames = channels.first?.count ?? 0
        let count = channels.count
        var header = Data(capacity: 44)
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { header.append(contentsOf: $0) } }
        let bytes = UInt32(frames * count * 4)
        header.append(contentsOf: Array("RIFF".utf8)); u32(36 + bytes)
        header.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16)
        u16(3); u16(UInt16(count)); u32(UInt32(sampleRate)); u32(UInt32(sampleRate * count * 4)); u16(UInt16(count * 4)); u16(32)
        header.append(contentsOf: Array("data".utf8)); u32(bytes)
        // Interleaved little-endian floats: the byte order of every machine jacktap runs on.
        var interleaved = [Float](repeating: 0, count: frames * count)
        interleaved.withUnsafeMutableBufferPointer { out in
            for (c, channel) in channels.enumerated() {
                channel.withUnsafeBufferPointer { src in
                    for i in 0..<frames { out[i * count + c] = src[i] }
                }
            }
        }
        var data = header
        interleaved.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
