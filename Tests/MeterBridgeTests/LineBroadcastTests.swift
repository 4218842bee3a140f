@testable import MeterBridge
import Testing

/// The handoff from the analysis thread to the viewers: order, the newest first for a new viewer, and a stalled
/// viewer that loses its oldest frames without holding anything up.
struct LineBroadcastTests {
    static func take(_ count: Int, from frames: AsyncStream<String>) async -> [String] {
        var taken = [String]()
        for await frame in frames {
            taken.append(frame)
            if taken.count == count { break }
        }
        return taken
    }

    @Test func aNewViewerGetsTheStatusAndTheNewestTickThenEveryLineInOrder() async {
        let broadcast = LineBroadcast()
        #expect(broadcast.latestTick == nil)
        broadcast.tick("{\"t\": 1.0}")
        broadcast.status("{\"status\": {\"state\": \"running\", \"xruns\": 0, \"overruns\": 0}}")
        broadcast.tick("{\"t\": 2.0}")
        let viewer = broadcast.addViewer()
        broadcast.event("{\"t\": 2.01, \"port\": \"in_1\", \"event\": \"onset\"}")
        broadcast.tick("{\"t\": 3.0}")
        let frames = await Self.take(4, from: viewer.lines)
        #expect((frames) == [
            "{\"status\": {\"state\": \"running\", \"xruns\": 0, \"overruns\": 0}}",
            "{\"t\": 2.0}",
            "{\"t\": 2.01, \"port\": \"in_1\", \"event\": \"onset\"}",
            "{\"t\": 3.0}",
        ])
        #expect(broadcast.latestTick == "{\"t\": 3.0}")
        #expect(broadcast.viewerCount == 1)
        viewer.continuation.finish()
        #expect(broadcast.viewerCount == 0, "a finished viewer is forgotten")
    }

    @Test func aViewerWhoComesWhileAnAlarmIsOnIsToldOfIt() async {
        let broadcast = LineBroadcast()
        let silence = "{\"t\": 11.0, \"programme\": \"main\", \"event\": \"alarm\", \"kind\": \"silence\", \"on\": true}"
        let peakOn = "{\"t\": 12.0, \"programme\": \"main\", \"event\": \"alarm\", \"kind\": \"true_peak\", \"on\": true}"
        let peakOff = "{\"t\": 13.0, \"programme\": \"main\", \"event\": \"alarm\", \"kind\": \"true_peak\", \"on\": false}"
        broadcast.alarm(silence, key: "main/silence", on: true)
        broadcast.alarm(peakOn, key: "main/true_peak", on: true)
        broadcast.alarm(peakOff, key: "main/true_peak", on: false)
        broadcast.tick("{\"t\": 13.5}")
        let viewer = broadcast.addViewer()
        broadcast.tick("{\"t\": 14.0}")
        #expect((await Self.take(3, from: viewer.lines)) == [silence, "{\"t\": 13.5}", "{\"t\": 14.0}"],
                "the alarm still on, not the one that ended")
        viewer.continuation.finish()
    }

    @Test func anUnchangedStatusIsNotSentAgain() async {
        let broadcast = LineBroadcast()
        let viewer = broadcast.addViewer()
        let running = "{\"status\": {\"state\": \"running\", \"xruns\": 0, \"overruns\": 0}}"
        let xrun = "{\"status\": {\"state\": \"running\", \"xruns\": 1, \"overruns\": 0}}"
        broadcast.status(running)
        broadcast.status(running)
        broadcast.status(xrun)
        broadcast.tick("{\"t\": 1.0}")
        #expect((await Self.take(3, from: viewer.lines)) == [running, xrun, "{\"t\": 1.0}"])
        viewer.continuation.finish()
    }

    @Test func aStalledViewerKeepsTheNewestFramesAndTheOthersGetEveryOne() async {
        let broadcast = LineBroadcast()
        let stalled = broadcast.addViewer()
        let reading = broadcast.addViewer()
        let ticks = LineBroadcast.backlog * 20
        // The reading viewer takes each line as it comes; the stalled one never reads.
        var frames = reading.lines.makeAsyncIterator()
        var received = [String]()
        for i in 0..<ticks {
            broadcast.tick("{\"t\": \(i)}")
            if let line = await frames.next() { received.append(line) }
        }
        #expect(received == (0..<ticks).map { "{\"t\": \($0)}" })
        #expect(broadcast.dropped == ticks - LineBroadcast.backlog, "only the stalled viewer lost frames")
        stalled.continuation.finish()
        let kept = await Self.take(ticks, from: stalled.lines)
        #expect((kept) == (ticks - LineBroadcast.backlog..<ticks).map { "{\"t\": \($0)}" },
                "the stalled viewer's queue holds the newest frames, in order")
        reading.continuation.finish()
    }
}
