import ArgumentParser

/// Tempo for the lighting world: the beat tracker's beats as MIDI beat clock (`--midi-clock`), for consoles,
/// drum machines and effect units that follow a clock rather than OSC.
struct SyncOptions: ParsableArguments {
    @Flag(name: .customLong("midi-clock"), help: ArgumentHelp("""
        Register a JACK MIDI output jacktap:clock and send MIDI beat clock on it: 24 clocks per beat, the first \
        of each beat on the beat --beat-source's tracker predicts, placed to the sample; Start when the tracker \
        locks, Stop once when it loses the beat. QLC+ and other ALSA MIDI programs reach it through a2jmidid or \
        PipeWire's MIDI bridge.
        """))
    var midiClock = false

    @Option(name: .customLong("beat-source"), help: ArgumentHelp(
        "The input whose beats drive the clock (it needs rhythm analysis, see --music).", valueName: "in_N"))
    var beatSource = "in_1"

    func validate() throws {
        guard beatSourceIndex != nil else {
            throw ValidationError("--beat-source must name an input, in_1, in_2, … (got '\(beatSource)')")
        }
    }

    /// The 0-based input index --beat-source names.
    var beatSourceIndex: Int? {
        guard beatSource.hasPrefix("in_"), let n = Int(beatSource.dropFirst(3)), n >= 1 else { return nil }
        return n - 1
    }

    /// The MIDI outputs these options need.
    var midiOutputs: [String] { midiClock ? [MidiClockOutput.portName] : [] }
}
