import ArgumentParser

/// `jacktap`: meter and analyse JACK ports, send what is measured as OSC.
struct Jacktap: ParsableCommand {
    /// The version a control query and /metrics report.
    static var versionText: String { configuration.version.isEmpty ? "unreleased" : configuration.version }

    static let configuration = CommandConfiguration(
        commandName: "jacktap",
        abstract: "Meter and analyse JACK audio ports; send levels, bands, loudness, pitch, onsets and beats as OSC.",
        discussion: """
            Without a subcommand, jacktap taps the named JACK source ports (or
            every port --connect matches), shows a live terminal view and sends
            OSC to each --osc destination:

              jacktap system:capture_1 system:capture_2 --osc 127.0.0.1:9000
              jacktap --connect 'mixer:out_*' --osc 9000 --json > levels.jsonl
              jacktap --inputs 4    (unconnected inputs to patch in qjackctl)
              jacktap --config examples/rig.yaml   (a rig's routing in one YAML file)
              jacktap run --help    (all options of the live tap)

            OSC (v1), per input port <port> (in_1, in_2, ...), --rate per second:
              /jacktap/<port>/peak f     sample peak since the last tick, dBFS
              /jacktap/<port>/rms f      RMS over the last 300 ms, dBFS
              /jacktap/<port>/level f    RMS from --floor..0 dBFS as 0..1
              /jacktap/<port>/bands f..  --bands bands 60 Hz-18 kHz, 0..1
              /jacktap/<port>/bands4 f×4, /bands7 f×7, /bass /lowmid /mid /high f
              /jacktap/<port>/pitch f f  fundamental Hz, confidence (voiced only)
              /jacktap/<port>/note s i f note, MIDI number, cents (voiced only)
              /jacktap/<port>/tempo f, /phase f   BPM, 0..1 in the beat (locked)
              /jacktap/<port>/onset f    sent at once, strength 0..1
              /jacktap/<port>/beat i f   counter, BPM; sent ahead of the beat,
                                         its bundle timetagged with the beat
            Broadcast meters (--meters; default all):
              /jacktap/<port>/truepeak f dBTP since the last tick
              /jacktap/<port>/vu f, /ppm f, /k f, /hold f, /clip i
              /jacktap/<programme>/loudness/momentary f (also shortterm,
                integrated, range, max_momentary, max_shortterm)
              /jacktap/<pair>/correlation f
            Session (every destination):
              /jacktap/status s i i      running|disconnected, xruns, overruns;
                                         once a second and at each change
              /jacktap/restarted s i i   start|reconnect|samplerate|inputs,
                                         rate, period: loudness, maxima and
                                         tempo start again
            dB values are floored at -200, never -inf. Each --osc destination
            has its own filter, prefix, rate, scale and smoothing
            (HOST:PORT,key=value...; see jacktap run --help). --listen PORT
            takes OSC commands (reset, subscribe, connect, query); --http PORT
            serves a live meter bridge to any browser (read-only). SIGUSR1
            resets the loudness, the maxima, the holds and the clip counts;
            with --config, SIGHUP rereads the file (destinations, sources,
            globs). Globs follow ports as they come and go; when the server
            goes away jacktap waits for it and carries on (--reconnect). With
            NSM_URL set it joins a New Session Manager session.

            Exit status: 0 done; 64 bad command line; 65 a named source port
            that does not exist (without --wait); 66 an unreadable or
            unsupported audio file; 69 no JACK server (without --wait); 74
            the JACK server stopped under jacktap (with --no-reconnect).
            """,
        subcommands: [Run.self, Analyze.self, Demo.self, Ports.self, Generate.self, Figures.self, BeatFeaturesCommand.self],
        defaultSubcommand: Run.self
    )
}
