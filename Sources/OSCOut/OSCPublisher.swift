import Analysis
import OSC
import Schema

/// Turns a snapshot, an event or the run's news into OSC messages at the addresses ``FigureSchema`` declares
/// (docs/osc-reference.md lists them): per port `<prefix>/<port>/peak f`, `/rms f`, … and the events, per programme
/// `<prefix>/<programme>/loudness/…`, per pair `<prefix>/<pair>/correlation`, and `<prefix>/status` and
/// `/restarted`.
///
/// `/pitch` and `/note` are sent only for voiced estimates: an unvoiced frame or silence is a missing message, not
/// a made-up one. Only the tags i f s are used: every console jacktap targets accepts them.
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

    /// The messages of one tick, port by port.
    public func messages(for snapshot: Snapshot) -> [OSCMessage] {
        typealias F = FigureSchema
        var messages = [OSCMessage]()
        messages.reserveCapacity(snapshot.ports.count * 6)
        for port in snapshot.ports {
            let base = prefix + "/" + OSCAddress.sanitizedPart(port.name)
            messages.append(OSCMessage(base + F.peak.suffix, [.float32(port.peakDB)]))
            messages.append(OSCMessage(base + F.rms.suffix, [.float32(port.rmsDB)]))
            messages.append(OSCMessage(base + F.level.suffix, [.float32(port.level)]))
            messages.append(OSCMessage(base + F.bands.suffix, port.bands.map { .float32($0) }))
            if port.bands4.count == 4 {
                messages.append(OSCMessage(base + F.bands4.suffix, port.bands4.map { .float32($0) }))
                for (figure, value) in zip(F.bandGroups, port.bands4) {
                    messages.append(OSCMessage(base + figure.suffix, [.float32(value)]))
                }
            }
            if !port.bands7.isEmpty { messages.append(OSCMessage(base + F.bands7.suffix, port.bands7.map { .float32($0) })) }
            if let pitch = port.pitch, pitch.voiced {
                messages.append(OSCMessage(base + F.pitch.suffix, [.float32(Float(pitch.frequency)), .float32(pitch.confidence)]))
            }
            if let note = port.note {
                messages.append(OSCMessage(base + F.note.suffix, [.string(note.name), .int32(Int32(note.midi)),
                                                                  .float32(note.cents)]))
            }
            if let tempo = port.tempo { messages.append(OSCMessage(base + F.tempo.suffix, [.float32(tempo)])) }
            if let phase = port.phase { messages.append(OSCMessage(base + F.phase.suffix, [.float32(phase)])) }
            let m = port.meters
            if let v = m.truePeakDB { messages.append(OSCMessage(base + F.truePeak.suffix, [.float32(v)])) }
            if let v = m.vu { messages.append(OSCMessage(base + F.vu.suffix, [.float32(v)])) }
            if let v = m.ppm { messages.append(OSCMessage(base + F.ppm.suffix, [.float32(v)])) }
            if let v = m.k { messages.append(OSCMessage(base + F.k.suffix, [.float32(v)])) }
            if let v = m.holdDB { messages.append(OSCMessage(base + F.hold.suffix, [.float32(v)])) }
            if let v = m.clips { messages.append(OSCMessage(base + F.clip.suffix, [.int32(Int32(clamping: v))])) }
        }
        for programme in snapshot.programmes {
            let base = prefix + "/" + OSCAddress.sanitizedPart(programme.name)
            for (figure, value) in ProgrammeReading.fields(programme) {
                messages.append(OSCMessage(base + figure.suffix, [.float32(value)]))
            }
        }
        for pair in snapshot.pairs {
            messages.append(OSCMessage(prefix + "/" + OSCAddress.sanitizedPart(pair.name) + F.correlation.suffix,
                                       [.float32(pair.correlation)]))
        }
        return messages
    }

    /// The messages of one event: `<prefix>/<port>/onset f` (strength); for a beat `<prefix>/<port>/beat i f`
    /// (count, BPM: the contract consoles are bound to), then `<prefix>/<port>/bar i i` (bar counter, beat in
    /// the bar 1…N) and, on beat 1, `<prefix>/<port>/downbeat i` (bar counter), so a chase can step on the one.
    public func messages(for event: AnalysisEvent) -> [OSCMessage] {
        typealias F = FigureSchema
        let base = prefix + "/" + OSCAddress.sanitizedPart(event.port)
        switch event.kind {
        case .onset(let strength): return [OSCMessage(base + F.onset.suffix, [.float32(strength)])]
        case .beat(let count, let bpm, let position):
            let bar = Int32(clamping: position.bar)
            var out = [OSCMessage(base + F.beat.suffix, [.int32(Int32(clamping: count)), .float32(bpm)]),
                       OSCMessage(base + F.bar.suffix, [.int32(bar), .int32(Int32(clamping: position.beat))])]
            if position.beat == 1 { out.append(OSCMessage(base + F.downbeat.suffix, [.int32(bar)])) }
            return out
        case .alarm(let kind, let on):
            return [OSCMessage(base + F.alarm.suffix, [.string(kind.rawValue), .int32(on ? 1 : 0)])]
        }
    }

    /// `<prefix>/status s:state i:xruns i:overruns`: the JACK connection and its counts over the run.
    public func statusMessage(state: String, xruns: Int, overruns: Int) -> OSCMessage {
        OSCMessage(prefix + FigureSchema.status.suffix,
                   [.string(state), .int32(Int32(clamping: xruns)), .int32(Int32(clamping: overruns))])
    }

    /// `<prefix>/<programme>/loudness/paused i:1|0`: the programme's integration was paused or resumed.
    public func pausedMessage(programme: String, paused: Bool) -> OSCMessage {
        OSCMessage(prefix + "/" + OSCAddress.sanitizedPart(programme) + FigureSchema.paused.suffix,
                   [.int32(paused ? 1 : 0)])
    }

    /// `<prefix>/restarted s:reason i:samplerate i:period`: the analysis started (again).
    public func restartedMessage(reason: String, sampleRate: Int, period: Int) -> OSCMessage {
        OSCMessage(prefix + FigureSchema.restarted.suffix,
                   [.string(reason), .int32(Int32(clamping: sampleRate)), .int32(Int32(clamping: period))])
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
