import DSP
import Foundation
import XCTest

/// Test signals of Tech 3341 / 3342, rendered in the test: runs of a sine (or silence) at a level per channel.
struct ToneBuilder {
    let sampleRate: Double
    let frequency: Double
    private(set) var samples: [Float] = []

    init(sampleRate: Double = 48_000, frequency: Double = 1_000) {
        self.sampleRate = sampleRate
        self.frequency = frequency
    }

    /// Appends `seconds` of the sine at peak level `dBFS` (nil: silence). The phase runs on across runs.
    mutating func add(_ seconds: Double, _ dBFS: Double?) {
        let count = Int((seconds * sampleRate).rounded())
        let start = samples.count
        samples.reserveCapacity(start + count)
        guard let dBFS else {
            samples.append(contentsOf: repeatElement(0, count: count))
            return
        }
        let amplitude = pow(10, dBFS / 20)
        let step = frequency / sampleRate
        for i in start..<(start + count) {
            let cycles = Double(i) * step
            samples.append(Float(amplitude * sin(2 * .pi * (cycles - cycles.rounded(.down)))))
        }
    }

    static func render(sampleRate: Double = 48_000, frequency: Double = 1_000, _ runs: [(Double, Double?)])
        -> [Float]
    {
        var builder = ToneBuilder(sampleRate: sampleRate, frequency: frequency)
        for (seconds, level) in runs { builder.add(seconds, level) }
        return builder.samples
    }
}

/// Everything a meter reads, compared bit for bit across block sizes.
struct LoudnessReadings: Equatable, CustomStringConvertible {
    var momentary, shortTerm, integrated, range, maxMomentary, maxShortTerm: Float

    init(_ meter: LoudnessMeter) {
        momentary = meter.momentary
        shortTerm = meter.shortTerm
        integrated = meter.integrated
        range = meter.range
        maxMomentary = meter.maxMomentary
        maxShortTerm = meter.maxShortTerm
    }

    var description: String {
        String(format: "M %.3f S %.3f I %.3f LRA %.3f maxM %.3f maxS %.3f", momentary, shortTerm, integrated,
               range, maxMomentary, maxShortTerm)
    }
}

/// Feeds planar `channels` to `meter` in blocks of `blockSize` frames (cut short at every `checkpoints` frame,
/// where `observe` is called, and called after every block with the frames fed so far).
func feed(
    _ meter: LoudnessMeter, _ channels: [[Float]], blockSize: Int, checkpoints: [Int] = [],
    observe: (Int) -> Void = { _ in }, atCheckpoint: (Int) -> Void = { _ in }
) {
    let frames = channels.map(\.count).min() ?? 0
    var stops = checkpoints.filter { $0 > 0 && $0 <= frames }.sorted()[...]
    let pointers = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: max(channels.count, 1))
    defer { pointers.deallocate() }
    let buffers = channels.map { channel -> UnsafeMutablePointer<Float> in
        let p = UnsafeMutablePointer<Float>.allocate(capacity: max(channel.count, 1))
        channel.withUnsafeBufferPointer { p.initialize(from: $0.baseAddress!, count: channel.count) }
        return p
    }
    defer { buffers.forEach { $0.deallocate() } }
    var done = 0
    while done < frames {
        var n = min(blockSize, frames - done)
        if let stop = stops.first, stop < done + n { n = stop - done }
        for (c, buffer) in buffers.enumerated() { pointers[c] = UnsafePointer(buffer + done) }
        meter.process(UnsafePointer(pointers), count: n)
        done += n
        observe(done)
        if let stop = stops.first, stop == done {
            stops.removeFirst()
            atCheckpoint(done)
        }
    }
}

/// The three JACK-like block sizes every standard case is fed in.
let standardBlockSizes = [64, 256, 1024]

/// Measures `channels` in blocks of 64, 256 and 1024, asserts that every reading is bit-identical across the
/// three, and returns them.
func measureAtEveryBlockSize(
    _ channels: [[Float]], roles: [ChannelRole], sampleRate: Double = 48_000, label: String,
    file: StaticString = #filePath, line: UInt = #line
) -> LoudnessReadings {
    var results: [LoudnessReadings] = []
    for blockSize in standardBlockSizes {
        let meter = LoudnessMeter(sampleRate: sampleRate, roles: roles)
        feed(meter, channels, blockSize: blockSize)
        results.append(LoudnessReadings(meter))
    }
    for (blockSize, result) in zip(standardBlockSizes, results).dropFirst() {
        XCTAssertEqual(result, results[0], "\(label): blocks of \(blockSize) differ from blocks of 64",
                       file: file, line: line)
    }
    print("[loudness] \(label): \(results[0])")
    return results[0]
}

/// Asserts `value` within `tolerance` of `expected`, naming the case.
func assertReading(
    _ value: Float, _ expected: Double, _ tolerance: Double, _ what: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertFalse(value.isNaN, "\(what) is NaN", file: file, line: line)
    XCTAssertEqual(Double(value), expected, accuracy: tolerance, "\(what)", file: file, line: line)
}
