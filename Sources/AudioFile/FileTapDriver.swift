import DSP

/// Feeds an audio file through the real-time tap in JACK-sized periods, as fast as the machine allows, so a
/// file and a live run of the same audio pass through the same code and give the same figures.
public final class FileTapDriver {
    /// The tap the file is fed through; its channels are the file's.
    public let tap: Tap
    /// The file being read.
    public let reader: SoundFileReader
    /// Frames per period, as a JACK server would deliver them.
    public let periodFrames: Int
    let planes: [UnsafeMutablePointer<Float>]
    /// Frames fed so far.
    public private(set) var framesFed = 0

    /// A driver for `reader` in periods of `periodFrames`; the tap's ring holds `ringFrames` frames.
    public init(reader: SoundFileReader, periodFrames: Int, ringFrames: Int) {
        self.reader = reader
        self.periodFrames = periodFrames
        tap = Tap.allocate(channels: reader.channels, ringFrames: max(ringFrames, 2 * periodFrames))
        planes = (0..<reader.channels).map { _ in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: periodFrames)
            p.initialize(repeating: 0, count: periodFrames)
            return p
        }
    }

    deinit {
        planes.forEach { $0.deallocate() }
        tap.deallocate()
    }

    /// Feeds the next period; returns false at the end of the file. A short last period is fed as it is.
    public func feedPeriod() -> Bool {
        let got = reader.read(count: periodFrames, into: planes)
        guard got > 0 else { return false }
        let copy = tap.beginPeriod(frames: got)
        for c in 0..<tap.channels { tap.process(channel: c, samples: planes[c], count: got, copy: copy) }
        tap.endPeriod(frames: got, copied: copy)
        framesFed += got
        return true
    }
}
