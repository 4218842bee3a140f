import Analysis
import Foundation
import OSC
import OSCOut

extension SnapshotSinks {
    /// Publishes one poll's ticks and events in stream order, each at once.
    ///
    /// Live (`clock` given): a tick's bundle carries the wall-clock time of the tick, a pitch's that of its
    /// window centre, and an event's bundle carries the wall-clock time of the instant it describes, found
    /// from the stream position the engine has analysed up to (`clock.stream`, "now" in the audio) and the time
    /// of that wake-up (`clock.wall`, Unix seconds): a beat announced 20 ms ahead is timetagged 20 ms in the
    /// future, so receivers that honour timetags act on the beat. A file has no wall clock: immediate.
    public func publish(_ outputs: [AnalysisOutput], clock: StreamClock? = nil) {
        for output in outputs {
            switch output {
            case .snapshot(let snapshot):
                publish(snapshot, clock: clock)
            case .event(let event):
                publish(event, timetag: clock?.timetag(at: event.time) ?? .immediately,
                        instant: clock.map { $0.wall + event.time - $0.stream })
            }
        }
    }
}
