import OSC
import Schema

/// One destination's path from the shared messages of a tick to its datagrams: filter, prefix, scale,
/// smoothing, rate, packing.
///
/// `@unchecked Sendable`: a route is made on any thread, then handed to ``OSCRouter``'s mutex and touched
/// only under it from then on.
final class DestinationRoute: @unchecked Sendable {
    let settings: DestinationSettings
    /// Where the packets go: a UDP socket, or a TCP connection kept by a thread of its own (OSC over TCP).
    let sender: UDPSender?
    let stream: StreamSender?
    /// A framed packet, kept between packets.
    private var framed: [UInt8] = []

    /// Seconds of audio between two sent ticks, and the half analysis period a tick may be early by.
    private let period: Double?
    private let tolerance: Double
    /// Audio time at which the next tick is due; nil before the first.
    private var nextDue: Double?
    /// Per unprefixed address: whether it passes the filter, its full address and its kind (computed once).
    private var routes: [String: (passes: Bool, address: String, kind: ValueKind)] = [:]
    /// The route of the tick's message at each index, with its address: a tick's messages come in the same order
    /// tick after tick, so comparing the address is all a message costs while the ports stay the same.
    private var routesByIndex: [(key: String, route: (passes: Bool, address: String, kind: ValueKind))] = []
    private var smoother: ValueSmoother
    /// Scratch storage, kept between ticks so that steady state reuses capacity.
    private var outgoing: [OSCMessage] = []
    private var timed: [(message: OSCMessage, timetag: OSCTimetag)] = []
    /// The tick's messages encoded one after another, and where each one lies.
    private var encoded: [UInt8] = []
    private var spans: [Range<Int>] = []
    private var sizes: [Int] = []
    private var values: [Double] = []
    private var datagram: [UInt8] = []

    /// Opens the destination's socket, or starts connecting to it over TCP; `say` reports the connection.
    init(_ settings: DestinationSettings, analysisRate: Double,
         say: @escaping @Sendable (String) -> Void = { _ in }) throws(OSCDestinationError) {
        self.settings = settings
        if let framing = settings.framing {
            var stream = StreamSender.Settings(label: "OSC over TCP (\(framing == .slip ? "SLIP" : "size-prefixed"))")
            // A receiver that restarts is found again within a second or two; what waits for it is about four
            // seconds of ticks, and a slow one loses the oldest packets.
            stream.retry = 0.25
            stream.maxRetry = 2
            stream.capacity = 128
            self.stream = StreamSender(host: settings.destination.host, port: settings.destination.port,
                                       settings: stream, say: say)
            self.stream?.start()
            sender = nil
        } else {
            let options = UDPSender.Options(broadcast: settings.broadcast, multicastTTL: settings.ttl,
                                            multicastInterface: settings.interface)
            sender = try UDPSender(destinations: [settings.destination], options: options)
            stream = nil
        }
        period = settings.rate.map { 1 / min($0, analysisRate) }
        tolerance = 0.5 / analysisRate
        smoother = ValueSmoother(attack: settings.attack, release: settings.release)
        datagram.reserveCapacity(settings.maxSize)
    }

    /// Routes one tick's messages (addresses without prefix) at audio `time`. The tick goes out with `timetag`;
    /// a message with an instant of its own (`instants[i]`, a pitch's window centre) goes in a bundle with it.
    func publish(_ messages: [OSCMessage], time: Double, timetag: OSCTimetag = .immediately,
                 instants: [OSCTimetag?] = []) {
        let due = isDue(time)
        guard due || smoother.isActive else { return }
        outgoing.removeAll(keepingCapacity: true)
        timed.removeAll(keepingCapacity: true)
        for (index, message) in messages.enumerated() {
            let route: (passes: Bool, address: String, kind: ValueKind)
            if index < routesByIndex.count, routesByIndex[index].key == message.address {
                route = routesByIndex[index].route
            } else {
                route = self.route(message.address)
                if index < routesByIndex.count {
                    routesByIndex[index] = (message.address, route)
                } else if index == routesByIndex.count {
                    routesByIndex.append((message.address, route))
                }
            }
            guard route.passes else { continue }
            let routed = scaled(message, address: route.address, kind: route.kind, time: time)
            if index < instants.count, let instant = instants[index] {
                timed.append((routed, instant))
            } else {
                outgoing.append(routed)
            }
        }
        guard due else { return }
        send(outgoing, timetag: timetag)
        var start = 0
        while start < timed.count {
            var end = start + 1
            while end < timed.count, timed[end].timetag == timed[start].timetag { end += 1 }
            send(timed[start..<end].map(\.message), timetag: timed[start].timetag)
            start = end
        }
    }

    /// Sends one event's message at once, filtered, prefixed and scaled but never smoothed or rate-limited.
    func publish(event message: OSCMessage, timetag: OSCTimetag) {
        let route = route(message.address)
        guard route.passes else { return }
        send([scaled(message, address: route.address, kind: route.kind, time: nil)], timetag: timetag)
    }

    /// Whether a tick at `time` is sent, by audio time (not wall time, so files and live agree).
    private func isDue(_ time: Double) -> Bool {
        guard let period else { return true }
        if let nextDue, time + tolerance < nextDue { return false }
        let next = (nextDue ?? time) + period
        // After a gap (a reset, a stall) start again from this tick rather than sending a burst.
        nextDue = next <= time ? time + period : next
        return true
    }

    private func route(_ address: String) -> (passes: Bool, address: String, kind: ValueKind) {
        if let known = routes[address] { return known }
        let full = settings.prefix + address
        let passes = settings.filters.isEmpty || settings.filters.contains { $0.matches(full) }
        let route = (passes, settings.addressMap[full] ?? full, ValueKind.of(address: address))
        routes[address] = route
        return route
    }

    /// The message under its full address with its float arguments on the destination's scale (and,
    /// for a tick, smoothed). Integer and string arguments are left alone.
    private func scaled(_ message: OSCMessage, address: String, kind: ValueKind, time: Double?) -> OSCMessage {
        let settings = settings
        // Only levels are smoothed: a smoothed pitch, tempo or count would report values never measured.
        let smooth = time != nil && smoother.isActive && (kind == .decibels || kind == .unit)
        guard settings.scale != .db || smooth else { return OSCMessage(address, message.arguments) }
        values.removeAll(keepingCapacity: true)
        for argument in message.arguments {
            if case .float32(let value) = argument {
                values.append(settings.scale.map(Double(value), kind: kind, floor: settings.floorDB, ceiling: settings.ceilingDB))
            }
        }
        if smooth, let time { smoother.smooth(&values, address: address, time: time) }
        let integer = settings.scale.sendsInteger(kind)
        var next = 0
        var arguments = message.arguments
        for index in arguments.indices {
            guard case .float32 = arguments[index] else { continue }
            let value = values[next]
            next += 1
            arguments[index] = integer ? .int32(Int32(value.rounded())) : .float32(Float(value))
        }
        return OSCMessage(address, arguments)
    }

    /// Sends `messages` as bundles that fit `maxSize` (each with `timetag`), or one message per datagram. Each
    /// message is encoded once, into one buffer kept between ticks.
    private func send(_ messages: [OSCMessage], timetag: OSCTimetag) {
        guard !messages.isEmpty else { return }
        encoded.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        sizes.removeAll(keepingCapacity: true)
        for message in messages {
            let start = encoded.count
            message.encode(into: &encoded)
            spans.append(start..<encoded.count)
            sizes.append(encoded.count - start)
        }
        if !settings.bundles {
            encoded.withUnsafeBytes { bytes in
                for span in spans { send(UnsafeRawBufferPointer(rebasing: bytes[span])) }
            }
            return
        }
        for group in DatagramPacker.bundleGroups(sizes: sizes, maxSize: settings.maxSize) {
            datagram.removeAll(keepingCapacity: true)
            OSCBundle.encode(timetag: timetag, encoded: encoded, spans: spans, group, into: &datagram)
            datagram.withUnsafeBytes { send($0) }
        }
    }

    /// One OSC packet: a datagram, or framed onto the TCP stream.
    private func send(_ packet: UnsafeRawBufferPointer) {
        if let sender {
            sender.send(packet, to: 0)
        } else if let stream, let framing = settings.framing {
            framed.removeAll(keepingCapacity: true)
            framing.frame(packet, into: &framed)
            stream.send(framed)
        }
    }

    deinit { stream?.stop() }
}
