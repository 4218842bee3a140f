import Analysis
import DSP
import OSC
import OSCOut
import Schema
import XCTest

/// Nothing is sent that the schema does not declare: every message the publisher makes, for a tick with every
/// figure present, for each kind of event and for the run's news, is at a declared address with the declared
/// type tags, and every declared figure is sent by one of them.
final class OSCPublisherSchemaTests: XCTestCase {
    func typeTags(_ message: OSCMessage) -> String {
        String(message.arguments.map { argument -> Character in
            switch argument {
            case .int32: "i"
            case .float32: "f"
            case .string: "s"
            default: "?"
            }
        })
    }

    /// A tick with every optional figure present, on two ports, two programmes and a pair.
    func fullSnapshot() -> Snapshot {
        var meters = MeterReading()
        meters.truePeakDB = -1
        meters.vu = 0
        meters.ppm = -3
        meters.k = -2
        meters.holdDB = -1.5
        meters.clips = 2
        let ports = ["in_1", "kick drum"].map { name in
            PortReading(name: name, peakDB: -6, rmsDB: -9, level: 0.8, bands: Array(repeating: 0.5, count: 48),
                        pitch: PitchReading(frequency: 440, confidence: 0.9, voiced: true, time: 1),
                        note: MusicalNote(frequency: 440), meters: meters, tempo: 120, phase: 0.25,
                        bands4: [0.1, 0.2, 0.3, 0.4], bands7: Array(repeating: 0.3, count: 7))
        }
        let loudness = ["main", "stems"].map {
            ProgrammeReading(name: $0, momentary: -23, shortTerm: -23, integrated: -23, range: 5, maxMomentary: -20,
                             maxShortTerm: -21)
        }
        return Snapshot(time: 1, ports: ports, overruns: 0, programmes: loudness,
                        pairs: [PairReading(name: "in_1+in_2", correlation: 0.9)])
    }

    func allMessages(prefix: String) -> [OSCMessage] {
        let publisher = OSCPublisher(prefix: prefix)
        typealias Bar = AnalysisEvent.BarPosition
        let events = [
            AnalysisEvent(port: "in_1", kind: .onset(strength: 0.5), time: 1, reported: 1),
            AnalysisEvent(port: "in_1", kind: .beat(count: 9, bpm: 120, bar: Bar(bar: 3, beat: 1)), time: 1, reported: 1),
            AnalysisEvent(port: "in_1", kind: .beat(count: 10, bpm: 120, bar: Bar(bar: 3, beat: 2)), time: 1.5,
                          reported: 1.5),
            AnalysisEvent(port: "main", kind: .alarm(.silence, on: true), time: 2, reported: 2),
        ]
        return publisher.messages(for: fullSnapshot()) + events.flatMap { publisher.messages(for: $0) }
            + [publisher.statusMessage(state: "running", xruns: 1, overruns: 0),
               publisher.restartedMessage(reason: "start", sampleRate: 48_000, period: 256),
               publisher.pausedMessage(programme: "main", paused: true)]
    }

    func testEveryMessageSentIsDeclaredWithItsTypeTags() {
        for prefix in ["/jacktap", "", "/stage/left"] {
            for message in allMessages(prefix: prefix) {
                XCTAssertTrue(FigureSchema.declares(address: message.address, typeTags: typeTags(message)),
                              "\(message.address) \(typeTags(message)) is sent but the schema does not declare it")
            }
        }
    }

    func testEveryDeclaredFigureIsSent() {
        let sent = Set(allMessages(prefix: "/jacktap").compactMap { FigureSchema.figure(at: $0.address)?.path })
        XCTAssertEqual(Set(FigureSchema.all.map(\.path)).subtracting(sent), [], "declared but never sent")
    }

    func testTheSchemaCatchesAnUndeclaredMessage() {
        // What the test above would report if the publisher grew a path or changed a type without the schema.
        XCTAssertFalse(FigureSchema.declares(address: "/jacktap/in_1/loudness", typeTags: "f"))
        XCTAssertFalse(FigureSchema.declares(address: "/jacktap/in_1/peak", typeTags: "i"))
    }
}
