import CSndfile

/// Why an audio file cannot be read.
public struct SoundFileError: Error, CustomStringConvertible {
    /// The message for the user: the path and libsndfile's reason.
    public let description: String
}

/// Reads an audio file (whatever libsndfile reads: WAV, FLAC, AIFF, Ogg/Vorbis, Opus, …) as planar float
/// periods. The only place jacktap calls libsndfile.
public final class SoundFileReader {
    /// The file's sample rate, Hz: analysis always takes the rate from here, never from a constant.
    public let sampleRate: Double
    /// Channels in the file.
    public let channels: Int
    /// Frames in the file (as libsndfile reports; may be 0 for a stream without a length).
    public let frames: Int
    let file: OpaquePointer
    var interleaved: [Float]

    /// Opens `path` for reading.
    public init(path: String) throws(SoundFileError) {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw SoundFileError(description: "cannot read audio file '\(path)': \(reason)")
        }
        guard info.channels > 0, info.samplerate > 0 else {
            sf_close(file)
            throw SoundFileError(description: "'\(path)' has no audio channels")
        }
        self.file = file
        sampleRate = Double(info.samplerate)
        channels = Int(info.channels)
        frames = Int(info.frames)
        interleaved = []
    }

    deinit { sf_close(file) }

    /// Reads up to `count` frames into `planes` (one buffer of at least `count` floats per channel);
    /// returns the frames read, 0 at the end of the file.
    public func read(count: Int, into planes: [UnsafeMutablePointer<Float>]) -> Int {
        if interleaved.count < count * channels { interleaved = Array(repeating: 0, count: count * channels) }
        let got = Int(interleaved.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress!, sf_count_t(count)) })
        let n = channels
        interleaved.withUnsafeBufferPointer { src in
            for c in 0..<n {
                let plane = planes[c]
                for i in 0..<got { plane[i] = src[i * n + c] }
            }
        }
        return got
    }
}
