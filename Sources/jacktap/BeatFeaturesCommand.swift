import Analysis
import ArgumentParser
import AudioFile
import Foundation
import Live

/// `jacktap beat-features FILE OUT`: the learned beat activation's input, frame by frame, as the rhythm
/// tracker computes it on the file's first channel, for `eval/train-beat-network` (hidden from the help: a
/// tool of the evaluation, not of a rig).
struct BeatFeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beat-features",
        abstract: "Write the beat network's input features of an audio file (for eval/train-beat-network).",
        discussion: """
            OUT gets a UInt32 (little-endian) W, then one row of W Float32 per 8.7 ms model frame: the \
            instant the frame describes (s), the learned activation (-1 with --beat-activation onsets), then \
            the features.
            """,
        shouldDisplay: false
    )

    @Argument(help: "The audio file (its first channel is read).")
    var file: String

    @Argument(help: "Where to write the features.")
    var out: String

    @OptionGroup(title: "Musical analysis") var music: MusicOptions

    func run() throws {
        let reader: SoundFileReader
        do { reader = try SoundFileReader(path: file) } catch {
            Failure(description: error.description, code: Failure.badFile).exit()
        }
        var analysis = AnalysisConfig()
        music.apply(to: &analysis)
        let tracker = RhythmTracker(config: analysis.rhythm, sampleRate: reader.sampleRate)
        tracker.recordFeatures()
        let block = 4096
        let planes = (0..<reader.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { planes.forEach { $0.deallocate() } }
        var width = UInt32(tracker.featureRecordWidth).littleEndian
        var data = Data(bytes: &width, count: 4)
        while true {
            let n = reader.read(count: block, into: planes)
            if n <= 0 { break }
            tracker.process(planes[0], count: n)
            tracker.takeFeatureRecord().withUnsafeBytes { data.append(contentsOf: $0) }
        }
        guard FileManager.default.createFile(atPath: out, contents: data) else {
            Failure(description: "cannot write \(out)", code: Failure.badFile).exit()
        }
    }
}
