import Dispatch
import Foundation
import OSC
import Output
import Spawn
import Synchronization

/// `--dmx`: the mapped figures as DMX universes over sACN (E1.31) and Art-Net, sent by a thread of its own.
///
/// The analysis thread only hands figures over (``FigureFollower``: a short lock around the targets); the
/// sending thread builds each universe's 512 slots at its `rate`, smoothing each value (attack/release), and
/// sends a frame when the slots changed; when they did not, three more frames and then one every 0.9 s (E1.31
/// section 6.6.1: keep-alives between 800 ms and 1 s; receivers drop a source after 2.5 s). A flash starts and
/// ends at its instant (a beat's predicted time), with a frame of its own between the rate's frames; a flash
/// whose whole hold passed while the thread was not running (a loaded machine) is still carried by one frame, late,
/// rather than lost. A
/// receiver that is down costs a failed non-blocking send. At stop, every sACN universe sends three packets
/// marked stream-terminated (E1.31 section 6.2.6), so receivers let go at once. With Art-Net universes it
/// answers ArtPoll on UDP 6454, so nodes and consoles list jacktap.
public final class DMXOutput: FigureFollower, @unchecked Sendable {
    public let universes: [DMXUniverseMap]
    /// Seconds between the frames of unchanged slots, after the first three.
    public static let keepAlive = 0.9
    /// An instant this close ahead counts as now (a semaphore's wait may end a little early).
    static let slack = 1e-4

    private struct Channel {
        let universe: Int
        let map: DMXChannelMap
    }

    /// What the analysis hands over: each channel's target levels, and the instants of events not yet taken.
    private struct Inputs {
        var targets: [[Double]]
        var events: [[Double]]
    }

    private let channels: [Channel]
    /// Address → indices into `channels`, for the figures and for the events.
    private let figureChannels: [String: [Int]]
    private let eventChannels: [String: [Int]]
    private let inputs: Mutex<Inputs>
    private let wake = DispatchSemaphore(value: 0)
    private let worker = WorkerThread(name: "jacktap-dmx")
    private let senders: [UDPSender]
    private var packets: [[UInt8]]
    private let say: @Sendable (String) -> Void
    private let clientName: String
    private let sentCounts: Mutex<[Int]>
    private var poll: (endpoint: UDPEndpoint, loop: UDPReceiveLoop)?
    private let pollCount = Atomic<Int>(0)
    private let clock: @Sendable () -> Double

    // The sending thread's own state.
    private var levels: [[Double]]
    /// Each channel's flashes not yet over, and whether a frame has carried each.
    private var flashes: [[(start: Double, end: Double, carried: Bool)]]
    private var toggles: [(on: Bool, pending: [Double])]
    private var slots: [[UInt8]]
    private var lastSlots: [[UInt8]]
    private var sequences: [UInt8]
    private var nextDue: [Double]
    private var lastSent: [Double]
    private var unchangedSent: [Int]
    private var lastLevelTime: Double = 0

    /// Opens a socket per universe (`clientName` names jacktap in sACN's source name and CID and in
    /// ArtPollReply); `say` reports what the user should know. `clock` gives Unix seconds (tests may give another).
    public init(universes: [DMXUniverseMap], clientName: String, say: @escaping @Sendable (String) -> Void,
                clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) throws(OSCDestinationError) {
        self.universes = universes
        self.clientName = clientName
        self.say = say
        self.clock = clock
        var channels = [Channel]()
        for (u, universe) in universes.enumerated() {
            for map in universe.channels { channels.append(Channel(universe: u, map: map)) }
        }
        self.channels = channels
        var figures = [String: [Int]](), events = [String: [Int]]()
        for (i, channel) in channels.enumerated() {
            switch channel.map.source {
            case .figure(let address, _, _): figures[address, default: []].append(i)
            case .event(let address, _, _): events[address, default: []].append(i)
            }
        }
        figureChannels = figures
        eventChannels = events
        let rest = channels.map { channel -> [Double] in
            if case .event = channel.map.source { return [channel.map.off] }
            return Array(repeating: 0, count: channel.map.count)
        }
        inputs = Mutex(Inputs(targets: rest, events: channels.map { _ in [] }))
        levels = rest
        flashes = channels.map { _ in [] }
        toggles = channels.map { _ in (false, []) }
        var senders = [UDPSender]()
        for universe in universes {
            senders.append(try UDPSender(destinations: [universe.destination]))
        }
        self.senders = senders
        let cid = SACNPacket.cid(clientName: clientName)
        packets = universes.map { universe in
            universe.protocol == .sacn
                ? SACNPacket.template(cid: cid, sourceName: "jacktap \(clientName)", priority: UInt8(universe.priority),
                                      universe: UInt16(universe.universe))
                : ArtNetPacket.dmxTemplate(portAddress: universe.universe)
        }
        slots = universes.map { _ in [UInt8](repeating: 0, count: 512) }
        lastSlots = slots
        sequences = universes.map { $0.protocol == .sacn ? 0 : 1 }
        nextDue = universes.map { _ in 0 }
        lastSent = universes.map { _ in -.infinity }
        unchangedSent = universes.map { _ in 0 }
        sentCounts = Mutex(universes.map { _ in 0 })
    }

    /// Frames sent so far, per universe (in the order of ``universes``).
    public var sent: [Int] { sentCounts.withLock { $0 } }

    /// ArtPolls answered so far.
    public var pollsAnswered: Int { pollCount.load(ordering: .relaxed) }

    /// Starts the sending thread, and the ArtPoll answers when an Art-Net universe is mapped.
    public func start() {
        if universes.contains(where: { $0.protocol == .artnet }) { listenForPolls() }
        lastLevelTime = clock()
        worker.start { [self] in run() }
    }

    /// Stops sending: every sACN universe's last frame goes out three times marked stream-terminated.
    public func stop() {
        worker.stop { wake.signal() }
        poll?.loop.stop()
        poll = nil
        for (u, universe) in universes.enumerated() where universe.protocol == .sacn {
            for _ in 0..<3 { send(u, options: SACNPacket.streamTerminated) }
        }
    }

    // MARK: FigureFollower (the analysis thread)

    public func follow(tick messages: [OSCMessage]) {
        take(values: messages)
    }

    public func follow(change message: OSCMessage) {
        take(values: [message])
        note(message, instant: nil)
    }

    public func follow(event messages: [OSCMessage], instant: Double?) {
        take(values: messages)
        for message in messages { note(message, instant: instant) }
    }

    /// The levels the messages give the figure channels that follow their addresses, stored under the lock.
    private func take(values messages: [OSCMessage]) {
        guard !figureChannels.isEmpty else { return }
        var updates = [(Int, Int, Double)]()
        for message in messages {
            guard let indices = figureChannels[message.address] else { continue }
            for i in indices { collect(message, channel: i, into: &updates) }
        }
        guard !updates.isEmpty else { return }
        inputs.withLock { state in
            for (i, index, level) in updates { state.targets[i][index] = level }
        }
    }

    private func note(_ message: OSCMessage, instant: Double?) {
        guard let indices = eventChannels[message.address] else { return }
        let at = instant ?? clock()
        inputs.withLock { state in
            for i in indices { state.events[i].append(at) }
        }
        wake.signal()
    }

    /// The levels a message gives a figure channel's values.
    private func collect(_ message: OSCMessage, channel i: Int, into updates: inout [(Int, Int, Double)]) {
        let map = channels[i].map
        guard case .figure(_, let argument, let repeated) = map.source else { return }
        for index in 0..<(repeated ? 1 : map.count) {
            let position = argument + index
            guard position < message.arguments.count else { continue }
            let value: Double
            switch message.arguments[position] {
            case .float32(let v): value = Double(v)
            case .int32(let v): value = Double(v)
            default: continue
            }
            updates.append((i, index, map.level(value)))
        }
    }

    // MARK: The sending thread

    private func run() {
        while !worker.isStopping {
            let now = clock()
            takeEvents()
            let due = upcoming(after: now)
            updateLevels(now: now)
            for u in universes.indices {
                let forced = due.forced.contains(u)
                guard now >= nextDue[u] || forced else { continue }
                fill(u)
                markCarried(u, now: now)
                let changed = slots[u] != lastSlots[u] || lastSent[u] == -.infinity
                if changed || unchangedSent[u] < 3 || now - lastSent[u] >= Self.keepAlive {
                    unchangedSent[u] = changed ? 0 : unchangedSent[u] + 1
                    send(u, options: 0)
                    lastSent[u] = now
                    lastSlots[u] = slots[u]
                }
                if now >= nextDue[u] {
                    nextDue[u] += 1 / universes[u].rate
                    if nextDue[u] <= now { nextDue[u] = now + 1 / universes[u].rate }
                }
            }
            // The next edge after now is still due.time: updateLevels dropped only edges already passed.
            let next = min(nextDue.min() ?? now + 1, due.time)
            let wait = max(0, next - clock())
            if wait > 0 { _ = wake.wait(timeout: .now() + wait) }
        }
    }

    /// Moves the events handed over into the flashes and toggles.
    private func takeEvents() {
        let events = inputs.withLock { state -> [[Double]] in
            let taken = state.events
            for i in state.events.indices where !state.events[i].isEmpty { state.events[i].removeAll(keepingCapacity: true) }
            return taken
        }
        for (i, instants) in events.enumerated() where !instants.isEmpty {
            guard case .event(_, let toggle, let hold) = channels[i].map.source else { continue }
            for instant in instants {
                if toggle { toggles[i].pending.append(instant) } else { flashes[i].append((instant, instant + hold, false)) }
            }
        }
    }

    /// The earliest flash start or end, or toggle, after `now`, and the universes with one that passed since
    /// their last frame (they send a frame now).
    private func upcoming(after now: Double) -> (time: Double, forced: Set<Int>) {
        var time = Double.infinity
        var forced = Set<Int>()
        for (i, channel) in channels.enumerated() {
            for edge in flashes[i].flatMap({ [$0.start, $0.end] }) + toggles[i].pending {
                if edge > now + Self.slack {
                    time = min(time, edge)
                } else if edge > lastSent[channel.universe] {
                    forced.insert(channel.universe)
                }
            }
        }
        return (time, forced)
    }

    /// Each channel's level at `now`: targets (and flashes, toggles) through the attack/release smoothing.
    private func updateLevels(now: Double) {
        let targets = inputs.withLock { $0.targets }
        let elapsed = max(0, now - lastLevelTime)
        lastLevelTime = now
        for (i, channel) in channels.enumerated() {
            let map = channel.map
            var target = targets[i]
            if case .event(_, let toggle, _) = map.source {
                if toggle {
                    while let first = toggles[i].pending.first, first <= now + Self.slack {
                        toggles[i].on.toggle()
                        toggles[i].pending.removeFirst()
                    }
                    target = [toggles[i].on ? map.on : map.off]
                } else {
                    // A flash is lit through its hold, and past it until a frame has carried it.
                    let lit = flashes[i].contains { $0.start <= now + Self.slack && (now + Self.slack < $0.end || !$0.carried) }
                    flashes[i].removeAll { $0.end <= now + Self.slack && $0.carried }
                    target = [lit ? map.on : map.off]
                }
            }
            for index in levels[i].indices {
                levels[i][index] = map.smoothed(levels[i][index], toward: target[min(index, target.count - 1)], over: elapsed)
            }
        }
    }

    /// The flashes of universe `u` lit in the slots just filled: the frame carries them (or, unchanged, the
    /// receiver already holds them).
    private func markCarried(_ u: Int, now: Double) {
        for (i, channel) in channels.enumerated() where channel.universe == u {
            for k in flashes[i].indices where flashes[i][k].start <= now + Self.slack { flashes[i][k].carried = true }
        }
    }

    /// Writes universe `u`'s slots from the channels' levels.
    private func fill(_ u: Int) {
        for (i, channel) in channels.enumerated() where channel.universe == u {
            let map = channel.map
            for index in 0..<map.count {
                map.write(levels[i][min(index, levels[i].count - 1)], index: index, into: &slots[u])
            }
        }
    }

    /// Sends universe `u`'s slots with the next sequence number.
    private func send(_ u: Int, options: UInt8) {
        switch universes[u].protocol {
        case .sacn:
            SACNPacket.update(&packets[u], sequence: sequences[u], options: options, slots: slots[u])
            sequences[u] &+= 1
        case .artnet:
            ArtNetPacket.update(&packets[u], sequence: sequences[u], slots: slots[u])
            sequences[u] = ArtNetPacket.next(sequence: sequences[u])
        }
        senders[u].send(packets[u])
        sentCounts.withLock { $0[u] += 1 }
    }

    // MARK: ArtPoll

    private func listenForPolls() {
        let endpoint: UDPEndpoint
        do {
            endpoint = try UDPEndpoint(host: "0.0.0.0", port: ArtNetPacket.port, receiveTimeout: 0.25, sharedPort: true)
        } catch {
            say("Art-Net: ArtPoll goes unanswered, nodes will not list jacktap (\(error))")
            return
        }
        let loop = UDPReceiveLoop(endpoint: endpoint, threadName: "jacktap-artpoll")
        let artnet = universes.enumerated().filter { $0.element.protocol == .artnet }
        let name = clientName
        loop.start { [self] bytes, sender in
            guard let bytes, ArtNetPacket.isPoll(bytes) else { return }
            let count = pollCount.add(1, ordering: .relaxed).newValue
            let address = UDPEndpoint.localIPv4(toward: sender) ?? [0, 0, 0, 0]
            let frames = sent
            for (bind, (u, universe)) in artnet.enumerated() {
                endpoint.send(ArtNetPacket.pollReply(address: address, portAddress: universe.universe, bindIndex: bind + 1,
                                                     clientName: name, pollCount: count, frames: frames[u]), to: sender)
            }
        }
        poll = (endpoint, loop)
    }
}
