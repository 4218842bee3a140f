import Analysis
import OSC
import Schema
import Spawn
import Synchronization

/// Sends each tick and event to every destination the way that destination wants it (``DestinationSettings``):
/// its filter, prefix, rate, scale, smoothing, bundles or plain messages, datagram limit.
///
/// The analysis thread calls ``publish(_:)-(Snapshot)`` and ``publish(_:timetag:)``; any other thread (a
/// control input's `subscribe`) may call ``add(_:)`` and ``remove(host:port:)`` at the same time: the
/// destinations sit behind a mutex, never taken on the JACK real-time thread.
public final class OSCRouter: Sendable {
    /// Builds the messages once per tick without a prefix; each destination puts its own in front.
    private let publisher = OSCPublisher(prefix: "")
    /// The address endings of the figures whose instant is the pitch window's (`/pitch`, `/note`), from the schema.
    private static let pitchWindowSuffixes = FigureSchema.all.filter { $0.instant == .pitchWindow }.map(\.suffix)
    private let analysisRate: Double
    private let routes: Mutex<[DestinationRoute]>
    /// Reports OSC-over-TCP connections and losses.
    private let say: @Sendable (String) -> Void

    /// Opens a socket per destination. `analysisRate` (ticks per second of audio) caps each destination's
    /// rate and sets how early a tick may fall and still count as due.
    /// `say` reports what happens to OSC-over-TCP connections (stderr by default).
    public init(_ destinations: [DestinationSettings], analysisRate: Double,
                say: @escaping @Sendable (String) -> Void = { StandardOutput.error("jacktap: \($0)\n") })
        throws(OSCDestinationError) {
        self.analysisRate = analysisRate
        self.say = say
        var opened = [DestinationRoute]()
        for settings in destinations {
            opened.removeAll { $0.settings.destination == settings.destination }
            opened.append(try DestinationRoute(settings, analysisRate: analysisRate, say: say))
        }
        routes = Mutex(opened)
    }

    /// Adds a destination, replacing one with the same host and port (so a repeated subscribe updates it).
    public func add(_ settings: DestinationSettings) throws(OSCDestinationError) {
        let route = try DestinationRoute(settings, analysisRate: analysisRate, say: say)
        routes.withLock { routes in
            routes.removeAll { $0.settings.destination == settings.destination }
            routes.append(route)
        }
    }

    /// Removes the destination with this host text and port; returns whether there was one.
    @discardableResult
    public func remove(host: String, port: UInt16) -> Bool {
        routes.withLock { routes in
            let before = routes.count
            routes.removeAll { $0.settings.destination.host == host && $0.settings.destination.port == port }
            return routes.count != before
        }
    }

    /// The destinations, in the order they were added.
    /// Each TCP destination's packets sent and dropped so far (the oldest, while its receiver was away or slow).
    public var streamCounts: [(destination: OSCDestination, sent: Int, dropped: Int)] {
        routes.withLock { routes in
            routes.compactMap { route in route.stream.map { (route.settings.destination, $0.sent, $0.dropped) } }
        }
    }

    public var destinations: [DestinationSettings] {
        routes.withLock { $0.map(\.settings) }
    }

    /// Sends one tick to every destination that is due.
    ///
    /// With a `clock` (live), every timed value's bundle says which instant it describes: the tick's own
    /// messages carry the tick's wall-clock time, and each port's `/pitch` and `/note` travel in a bundle of
    /// their own timetagged with the centre of the pitch window. Without one (a file), timetags are immediate.
    public func publish(_ snapshot: Snapshot, clock: StreamClock? = nil) {
        let messages = publisher.messages(for: snapshot)
        var instants = [OSCTimetag?](repeating: nil, count: messages.count)
        if let clock {
            var pitchTimes = [String: Double]()
            for port in snapshot.ports {
                if let pitch = port.pitch { pitchTimes["/" + OSCAddress.sanitizedPart(port.name)] = pitch.time }
            }
            for (index, message) in messages.enumerated()
            where Self.pitchWindowSuffixes.contains(where: { message.address.hasSuffix($0) }) {
                let portPath = String(message.address[..<message.address.lastIndex(of: "/")!])
                instants[index] = pitchTimes[portPath].map { clock.timetag(at: $0) }
            }
        }
        let tickTag = clock?.timetag(at: snapshot.time) ?? .immediately
        routes.withLock { routes in
            for route in routes { route.publish(messages, time: snapshot.time, timetag: tickTag, instants: instants) }
        }
    }

    /// Sends one event at once to every destination whose filter takes it; in bundle mode the bundle
    /// carries `timetag` (a beat's predicted instant).
    public func publish(_ event: AnalysisEvent, timetag: OSCTimetag = .immediately) {
        for message in publisher.messages(for: event) { publish(immediate: message, timetag: timetag) }
    }

    /// Sends one message (its address without prefix, e.g. `/status`) at once to every destination whose
    /// filter takes it, under that destination's prefix: the session's own news (status, restarts).
    public func publish(immediate message: OSCMessage, timetag: OSCTimetag = .immediately) {
        routes.withLock { routes in
            for route in routes { route.publish(event: message, timetag: timetag) }
        }
    }
}
