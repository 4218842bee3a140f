import Analysis
import OSC
import OSCOut
import Synchronization

/// Carries out control commands on a live session: the router's destinations, the JACK graph around
/// jacktap's inputs, the analysis reset. Returns the replies; ``ControlServer`` sends them.
///
/// Only destinations added by `subscribe` can be removed by `unsubscribe` or replaced by a later `subscribe`;
/// those from the command line or the configuration file stay as they are. At most ``subscriptionLimit``
/// subscriptions exist at once, so the network cannot make jacktap hold unbounded state or send unbounded
/// traffic.
public final class ControlSession: Sendable {
    let router: OSCRouter
    let graph: any ControlGraph
    let requestReset: @Sendable () -> Void
    /// Pauses, resumes or resets a programme's loudness (every programme for nil); false when there is no
    /// programme of that name.
    let requestLoudness: @Sendable (LoudnessCommand, String?) -> Bool
    /// The control addresses' prefix and subscribed destinations' address prefix (`--prefix`).
    public let prefix: String
    let bundles: Bool
    let version: String
    /// Most destinations `subscribe` may add.
    public let subscriptionLimit: Int
    /// Destinations that were in the router before any command (command line, configuration file; replaced
    /// when the configuration is reread).
    private let fixedList: Mutex<[OSCDestination]>
    var fixed: [OSCDestination] { fixedList.withLock { $0 } }
    let subscribed = Mutex<[OSCDestination]>([])

    /// A session acting on `router`, `graph` and `requestReset` (`AnalysisEngine.requestReset`, thread-safe).
    /// Subscribed destinations use `prefix` and `bundles` like a `--osc` destination without settings.
    public init(router: OSCRouter, graph: any ControlGraph, prefix: String, bundles: Bool, version: String,
                subscriptionLimit: Int = 16, requestReset: @escaping @Sendable () -> Void,
                requestLoudness: @escaping @Sendable (LoudnessCommand, String?) -> Bool = { _, _ in false }) {
        self.requestLoudness = requestLoudness
        self.router = router
        self.graph = graph
        self.prefix = DestinationSettings.normalisedPrefix(prefix)
        self.bundles = bundles
        self.version = version
        self.subscriptionLimit = subscriptionLimit
        self.requestReset = requestReset
        fixedList = Mutex(router.destinations.map(\.destination))
    }

    /// Records the destinations a reread configuration gives (they cannot be unsubscribed).
    public func replaceFixed(_ destinations: [OSCDestination]) { fixedList.withLock { $0 = destinations } }

    /// The destinations added by `subscribe`, in order.
    public var subscriptions: [OSCDestination] { subscribed.withLock { $0 } }

    /// Carries out `command`; `counts` and `listening` go into a query's answer.
    public func perform(_ command: ControlCommand, counts: ControlCounts, listening: String) -> [OSCMessage] {
        let address = command.address(prefix: prefix)
        switch command {
        case .reset:
            requestReset()
            return [ControlReply.ok(address)]
        case .subscribe(let host, let port, let filters):
            return [subscribe(host: host, port: port, filters: filters, address: address)]
        case .unsubscribe(let host, let port):
            let removed = subscribed.withLock { list -> Bool in
                guard let index = list.firstIndex(where: { $0.host == host && $0.port == port }) else { return false }
                list.remove(at: index)
                return true
            }
            guard removed else {
                let reason = fixed.contains { $0.host == host && $0.port == port }
                    ? "\(host):\(port) was given on the command line; only subscribed destinations can be removed"
                    : "\(host):\(port) is not subscribed"
                return [ControlReply.error(address, reason)]
            }
            router.remove(host: host, port: port)
            return [ControlReply.ok(address)]
        case .connect(let source, let input):
            return [connect(source: source, input: input, address: address)]
        case .disconnect(let source):
            let fed = graph.inputs().filter { $0.connections.contains(source) }.map(\.name)
            guard !fed.isEmpty else { return [ControlReply.error(address, "\(source) is not connected to \(graph.clientName)")] }
            let done = fed.filter { graph.disconnect(source, from: $0) }
            guard !done.isEmpty else { return [ControlReply.error(address, "JACK could not disconnect \(source)")] }
            return [ControlReply.ok(address, done.map { .string($0) })]
        case .query:
            return query(address: address, counts: counts, listening: listening)
        case .loudness(let command, let programme):
            guard requestLoudness(command, programme) else {
                return [ControlReply.error(address, programme.map { "no loudness programme named '\($0)'" }
                                                    ?? "no loudness programme: --meters leaves loudness out")]
            }
            return [ControlReply.ok(address, programme.map { [.string($0)] } ?? [])]
        }
    }

    private func subscribe(host: String, port: UInt16, filters: [OSCAddressPattern], address: String) -> OSCMessage {
        let destination: OSCDestination
        do { destination = try OSCDestination(host: host, port: port) } catch {
            return ControlReply.error(address, "\(error)")
        }
        // A subscriber asks for its own data: a group or the whole subnet would turn one packet into
        // traffic for every host on it.
        if destination.isMulticast || destination.isLimitedBroadcast || ["0.0.0.0", "::"].contains(destination.ipv4Text ?? host) {
            return ControlReply.error(address, "\(destination) is not a single host (multicast, broadcast or unspecified)")
        }
        if fixed.contains(destination) {
            return ControlReply.error(address, "\(destination) was given on the command line; its settings stay")
        }
        var settings = DestinationSettings(destination: destination, prefix: prefix, bundles: bundles)
        settings.filters = filters
        return subscribed.withLock { list in
            let known = list.contains(destination)
            guard known || list.count < subscriptionLimit else {
                return ControlReply.error(address, "already \(subscriptionLimit) subscriptions; unsubscribe one first")
            }
            do { try router.add(settings) } catch { return ControlReply.error(address, "\(error)") }
            if !known { list.append(destination) }
            return ControlReply.ok(address)
        }
    }

    private func connect(source: String, input: String?, address: String) -> OSCMessage {
        guard graph.isSourcePort(source) else { return ControlReply.error(address, "no audio output port named \(source)") }
        let inputs = graph.inputs()
        let chosen: String
        if let input {
            let full = input.contains(":") ? input : graph.clientName + ":" + input
            guard inputs.contains(where: { $0.name == full }) else {
                return ControlReply.error(address, "\(graph.clientName) has no input \(input) (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
            }
            chosen = full
        } else {
            if let already = inputs.first(where: { $0.connections.contains(source) }) {
                return ControlReply.ok(address, [.string(already.name)])
            }
            guard let free = inputs.first(where: { $0.connections.isEmpty }) else {
                return ControlReply.error(address, "every input of \(graph.clientName) is connected; name one")
            }
            chosen = free.name
        }
        if let failure = graph.connect(source, to: chosen) { return ControlReply.error(address, failure) }
        return ControlReply.ok(address, [.string(chosen)])
    }

    private func query(address: String, counts: ControlCounts, listening: String) -> [OSCMessage] {
        var items: [OSCMessage] = [
            ControlReply.item(address, "version", [.string(version)]),
            ControlReply.item(address, "client", [.string(graph.clientName)]),
            ControlReply.item(address, "samplerate", [.int32(Int32(clamping: graph.sampleRate))]),
            ControlReply.item(address, "period", [.int32(Int32(clamping: graph.periodFrames))]),
            ControlReply.item(address, "prefix", [.string(prefix)]),
            ControlReply.item(address, "listen", [.string(listening)]),
        ]
        if let status = graph.status() {
            items.append(ControlReply.item(address, "status", status.arguments))
        }
        for input in graph.inputs() {
            items.append(ControlReply.item(address, "input", [.string(input.name)] + input.connections.map { .string($0) }))
            // Each source with its JACK pretty name ("Drums L"), or its port name when it has none.
            for source in input.connections {
                let pretty = graph.prettyName(ofPort: source) ?? source
                items.append(ControlReply.item(address, "source", [.string(input.name), .string(source), .string(pretty)]))
            }
        }
        let mine = subscriptions
        for settings in router.destinations {
            let origin = mine.contains(settings.destination) ? "subscribed" : "fixed"
            items.append(ControlReply.item(address, "destination", [.string(settings.destination.description),
                                                                    .string(origin)] + settings.filters.map { .string($0.pattern) }))
        }
        items.append(ControlReply.item(address, "packets", [counts.packets, counts.commands, counts.malformed,
                                                            counts.unknown, counts.rejected].map { .int32(Int32(clamping: $0)) }))
        items.append(ControlReply.item(address, "end", [.int32(Int32(items.count))]))
        return items
    }
}
