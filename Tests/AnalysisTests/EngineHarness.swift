import Analysis
import DSP
import Foundation

/// Runs samples through the tap and the engine in periods, as the file driver and the JACK callback do.
func analyse(_ channels: [[Float]], sampleRate: Double, period: Int = 256, config: AnalysisConfig = AnalysisConfig())
    -> (snapshots: [Snapshot], summary: RunSummary) {
    let run = analyseWithEvents(channels, sampleRate: sampleRate, period: period, config: config)
    return (run.outputs.compactMap { if case .snapshot(let s) = $0 { s } else { nil } }, run.summary)
}

/// Like `analyse`, keeping the events between the ticks, in the order the engine produced them.
func analyseOutputs(_ channels: [[Float]], sampleRate: Double, period: Int = 256,
                    config: AnalysisConfig = AnalysisConfig()) -> [AnalysisOutput] {
    analyseWithEvents(channels, sampleRate: sampleRate, period: period, config: config).outputs
}

/// Like `analyse`, keeping the events, and calling `afterPoll` with the engine and that poll's outputs after
/// every period (as the live analysis thread drives the MIDI clock and notes).
func analyseWithEvents(_ channels: [[Float]], sampleRate: Double, period: Int, config: AnalysisConfig,
                       afterPoll: (AnalysisEngine, [AnalysisOutput]) -> Void = { _, _ in })
    -> (outputs: [AnalysisOutput], summary: RunSummary) {
    let frames = channels[0].count
    let tap = Tap.allocate(channels: channels.count, ringFrames: 8 * period)
    defer { tap.deallocate() }
    let engine = AnalysisEngine(tap: tap, sampleRate: sampleRate,
                                portNames: (1...channels.count).map { "in_\($0)" }, config: config)
    var outputs = [AnalysisOutput]()
    var start = 0
    while start < frames {
        let n = min(period, frames - start)
        let copy = tap.beginPeriod(frames: n)
        for (c, samples) in channels.enumerated() {
            samples.withUnsafeBufferPointer { tap.process(channel: c, samples: $0.baseAddress! + start, count: n, copy: copy) }
        }
        tap.endPeriod(frames: n, copied: copy)
        let polled = engine.pollOutputs()
        outputs += polled
        afterPoll(engine, polled)
        start += n
    }
    outputs += engine.finishOutputs()
    return (outputs, engine.summary())
}

/// A sine of `frequency` Hz with peak `amplitude`, `seconds` long.
func sine(_ frequency: Double, amplitude: Double = 0.5, seconds: Double = 1, sampleRate: Double) -> [Float] {
    (0..<Int(seconds * sampleRate)).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / sampleRate)) }
}
