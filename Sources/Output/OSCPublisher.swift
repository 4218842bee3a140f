import Analysis
import OSC

/// Turns a snapshot into the v1 OSC contract (design.md): per port, `<prefix>/<port>/peak f`, `/rms f`,
/// `/level f`, `/bands f×N`, `/pitch f f` and, when a note is named, `/note s i f`.
///
/// The broadcast meters add `/truepeak`, `/vu`, `/ppm`, `/k`, `/hold` (f) and `/clip` (i) per port,
/// `<prefix>/<programme>/loudness/{momentary,shortterm,integrated,range,max_momentary,max_shortterm}` and
/// `<prefix>/<pair>/correlation`.
///
/// Band groups for consoles: `/bands4 f×4`, `/bands7 f×7`, and `/bass`, `/lowmid`, `/mid`, `/high` (f, 0…1).
/// Musical analysis adds `/tempo f` and `/phase f` per tick once the beat tracker has locked, and the events
/// `/onset f`, `/beat i f`, `/bar i i` and `/downbeat i`. `/pitch` and `/note` are sent only for voiced
/// estimates: an unvoiced frame or silence is a missing message, not a made-up one. Only the tags
/// i f s are used: every console jacktap targets accepts them (ecosystem.md).
public struct OSCPublisher: Sendable {
    /// Address prefix, "/jacktap" by default. ``OSCRouter`` builds its publisher with "" and puts each
    /// destination's own prefix in front (``DestinationSettings/prefix``, from `--prefix` or `prefix=`).
    public let prefix: String
    /// Whether ``packets(for:maxSize:)`` makes bundles with an immediate timetag (default) or plain messages.
    /// ``OSCRouter`` does not use it: each destination's ``DestinationSettings/bundles`` (`--no-bundles`,
    /// `bundles=`) decides there.
    public let bundles: Bool

    /// A publisher with `prefix` ("/jacktap") and bundle mode.
    public init(prefix: String = "/jacktap", bundles: Bool = true) {
        self.prefix = DestinationSettings.normalisedPrefix(prefix)
        self.bundles = bundles
    }

    /// The names of the four band groups, each also sent as a one-value path (`/jacktap/in_1/bass`) that a
    /// console can bind to a fader.
    public static let bandGroupNames = ["bass", "lowmid", "mid", "high"]

    /// The messages of one tick, port by port.
    public func messages(for snapshot: Snapshot) -> [OSCMessage] {
        var messages = [OSCMessage]()
        messages.reserveCapacity(snapshot.ports.count * 6)
        for port in snapshot.ports {
            let base = prefix + "/" + OSCAddress.sanitizedPart(port.name)
            messages.append(OSCMessage(base + "/peak", [.float32(port.peakDB)]))
            messages.append(OSCMessage(base + "/rms", [.float32(port.rmsDB)]))
            messages.append(OSCMessage(base + "/level", [.float32(port.level)]))
            messages.append(OSCMessage(base + "/bands", port.bands.map { .float32($0) }))
            if port.bands4.count == 4 {
                messages.append(OSCMessage(base + "/bands4", port.bands4.map { .float32($0) }))
                for (name, value) in zip(Self.bandGroupNames, port.bands4) {
                    messages.append(OSCMessage(base + "/" + name, [.float32(value)]))
                }
            }
            if !port.bands7.isEmpty { messages.append(OSCMessage(base + "/bands7", port.bands7.map { .float32($0) })) }
            if let pitch = port.pitch, pitch.voiced {
                messages.append(OSCMessage(base + "/pitch", [.float32(Float(pitch.frequency)), .float32(pitch.confidence)]))
            }
            if let note = port.note {
                messages.append(OSCMessage(base + "/note", [.string(note.name), .int32(Int32(note.midi)),
                                                            .float32(note.cents)]))
            }
            if let tempo = port.tempo { messages.append(OSCMessage(base + "/tempo", [.float32(tempo)])) }
            if let phase = port.phase { messages.append(OSCMessage(base + "/phase", [.float32(phase)])) }
            let m = port.meters
            if let v = m.truePeakDB { messages.append(OSCMessage(base + "/truepeak", [.float32(v)])) }
            if let v = m.vu { messages.append(OSCMessage(base + "/vu", [.float32(v)])) }
            if let v = m.ppm { messages.append(OSCMessage(base + "/ppm", [.float32(v)])) }
            if let v = m.k { messages.append(OSCMessage(base + "/k", [.float32(v)])) }
            if let v = m.holdDB { messages.append(OSCMessage(base + "/hold", [.float32(v)])) }
            if let v = m.clips { messages.append(OSCMessage(base + "/clip", [.int32(Int32(clamping: v))])) }
        }
        for programme in snapshot.programmes {
            let base = prefix + "/" + OSCAddress.sanitizedPart(programme.name) + "/loudness/"
            for (name, value) in ProgrammeReading.fields(programme) {
                messages.append(OSCMessage(base + name, [.float32(value)]))
            }
        }
        for pair in snapshot.pairs {
            messages.append(OSCMessage(prefix + "/" + OSCAddress.sanitizedPart(pair.name) + "/correlation",
                                       [.float32(pair.correlation)]))
        }
        return messages
    }

    /// The messages of one event: `<prefix>/<port>/onset f` (strength); for a beat `<prefix>/<port>/beat i f`
    /// (count, BPM: the contract consoles are bound to), then `<prefix>/<port>/bar i i` (bar counter, beat in
    /// the bar 1…N) and, on beat 1, `<prefix>/<port>/downbeat i` (bar counter), so a chase can step on the one.
    public func messages(for event: AnalysisEvent) -> [OSCMessage] {
        let base = prefix + "/" + OSCAddress.sanitizedPart(event.port)
        switch event.kind {
        case .onset(let strength): return [OSCMessage(base + "/onset", [.float32(strength)])]
        case .beat(let count, let bpm, let position):
            let bar = Int32(clamping: position.bar)
            var out = [OSCMessage(base + "/beat", [.int32(Int32(clamping: count)), .float32(bpm)]),
                       OSCMessage(base + "/bar", [.int32(bar), .int32(Int32(clamping: position.beat))])]
            if position.beat == 1 { out.append(OSCMessage(base + "/downbeat", [.int32(bar)])) }
            return out
        }
    }

    /// The datagrams of one tick: bundles with an immediate timetag, each at most `maxSize` bytes (as many as
    /// needed; a message too big for any bundle gets one of its own), or one datagram per message.
    public func packets(for snapshot: Snapshot, maxSize: Int = 1400) -> [OSCPacket] {
        let messages = messages(for: snapshot)
        guard bundles else { return messages.map { .message($0) } }
        let groups = DatagramPacker.bundleGroups(sizes: messages.map { $0.encoded.count }, maxSize: maxSize)
        return groups.map { group in .bundle(OSCBundle(timetag: .immediately, messages[group].map { .message($0) })) }
    }
}

extension ProgrammeReading {
    /// The figures under the names the OSC paths and JSON keys use, in that order.
    public static func fields(_ p: ProgrammeReading) -> [(String, Float)] {
        [("momentary", p.momentary), ("shortterm", p.shortTerm), ("integrated", p.integrated), ("range", p.range),
         ("max_momentary", p.maxMomentary), ("max_shortterm", p.maxShortTerm)]
    }
}
