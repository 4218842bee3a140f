import ArgumentParser
import Sync

/// Tempo for the lighting world: the beat tracker's beats as MIDI beat clock (`--midi-clock`), for consoles,
/// drum machines and effect units that follow a clock rather than OSC, and as OS2L beat messages (`--os2l`).
struct SyncOptions: ParsableArguments {
    @Flag(name: .customLong("midi-clock"), help: ArgumentHelp("""
        Register a JACK MIDI output jacktap:clock and send MIDI beat clock on it: 24 clocks per beat, the first \
        of each beat on the beat --beat-source's tracker predicts, placed to the sample; Start when the tracker \
        locks, Stop once when it loses the beat. QLC+ and other ALSA MIDI programs reach it through a2jmidid or \
        PipeWire's MIDI bridge.
        """))
    var midiClock = false

    @Option(name: .customLong("beat-source"), help: ArgumentHelp(
        "The input whose beats drive the clock and OS2L (it needs rhythm analysis, see --music).", valueName: "in_N"))
    var beatSource = "in_1"

    @Flag(name: .customLong("midi-notes"), help: ArgumentHelp("""
        Register a JACK MIDI output jacktap:notes and play the melody --note-source's pitch tracker hears on \
        it (channel 1): note on when a voiced note starts with an onset, note off when it ends, velocity from \
        the level (-60 dBFS is 1, 0 dBFS 127).
        """))
    var midiNotes = false

    @Option(name: .customLong("note-source"), help: ArgumentHelp(
        "The input whose notes --midi-notes plays (it needs pitch analysis, see --music).", valueName: "in_N"))
    var noteSource = "in_1"

    @Option(name: .customLong("os2l"), help: ArgumentHelp("""
        Send OS2L beat messages over TCP to HOST:PORT, one per beat of --beat-source: \
        {"evt":"beat","change":…,"pos":N,"bpm":B,"strength":S}. For QLC+'s OS2L input (port 9996) and \
        DJ-lighting software; reconnects when the receiver restarts.
        """, valueName: "host:port"))
    var os2l: String?

    @Flag(name: .customLong("link"), help: ArgumentHelp("""
        Join the Ableton Link session on the network and lead it: on every beat of --beat-source, the \
        session takes the tracker's tempo and the beat, placed in --link-quantum as the beat is in its bar.
        """))
    var link = false

    @Flag(name: .customLong("link-follow"), help: ArgumentHelp("""
        Join the Link session but change nothing: report its tempo and peers (for rigs where another peer \
        stays in charge). Implies --link.
        """))
    var linkFollow = false

    @Option(name: .customLong("link-quantum"), help: "Beats per Link quantum (bar) for --link.")
    var linkQuantum = 4.0

    func validate() throws {
        guard linkQuantum >= 1, linkQuantum <= 16 else { throw ValidationError("--link-quantum must be between 1 and 16") }
        if let os2l, Self.hostAndPort(os2l) == nil {
            throw ValidationError("--os2l must be HOST:PORT with a port from 1 to 65535 (got '\(os2l)')")
        }
        guard beatSourceIndex != nil else {
            throw ValidationError("--beat-source must name an input, in_1, in_2, … (got '\(beatSource)')")
        }
        guard noteSourceIndex != nil else {
            throw ValidationError("--note-source must name an input, in_1, in_2, … (got '\(noteSource)')")
        }
    }

    /// The 0-based input indices --beat-source and --note-source name.
    var beatSourceIndex: Int? { Self.inputIndex(beatSource) }
    var noteSourceIndex: Int? { Self.inputIndex(noteSource) }

    static func inputIndex(_ name: String) -> Int? {
        guard name.hasPrefix("in_"), let n = Int(name.dropFirst(3)), n >= 1 else { return nil }
        return n - 1
    }

    /// "host:port", "[v6]:port" → (host, port); nil when malformed.
    static func hostAndPort(_ text: String) -> (host: String, port: UInt16)? {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]), port > 0
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    /// The MIDI outputs these options need.
    var midiOutputs: [String] {
        (midiClock ? [MidiClockOutput.portName] : []) + (midiNotes ? [MidiNotesOutput.portName] : [])
    }
}
