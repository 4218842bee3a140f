import OSC
import Testing
@testable import Lighting

/// The `dmx:` list: the example reads as written, defaults follow the standards, and each mapping that
/// cannot work is refused with its line.
struct DMXMapParserTests {
    static let example = """
        name: rig
        dmx:
          - protocol: sacn          # E1.31; or artnet
            universe: 1
            to: 192.0.2.50
            priority: 100
            rate: 30
            channels:
              1: /jacktap/in_1/level
              2: {path: /jacktap/in_1/bands7, arg: 0, curve: gamma}
              3-4: {path: /jacktap/main/loudness/momentary, width: 16, from: -40, to: 0}
              5: {event: /jacktap/in_1/beat, value: 255, hold: 0.05}
          - protocol: artnet
            universe: 4660
            channels:
              1-7: /jacktap/in_1/bands7
              8-10: {path: /jacktap/in_1/tempo, from: 60, to: 180, curve: log, attack: 0.1, release: 0.5}
              11: {event: /jacktap/in_1/downbeat, mode: toggle, value: 200, off: 10}
        """

    func parse(_ text: String) throws(DMXMapError) -> [DMXUniverseMap] {
        try DMXMapParser.parse(text, file: "rig.yaml")
    }

    func error(_ text: String) -> DMXMapError? {
        do { _ = try parse(text) } catch { return error }
        return nil
    }

    @Test func theExampleReadsAsWritten() throws {
        let universes = try parse(Self.example)
        #expect(universes.count == 2)
        let sacn = universes[0]
        #expect(sacn.protocol == .sacn && sacn.universe == 1 && sacn.priority == 100 && sacn.rate == 30)
        #expect(sacn.destination.description == "192.0.2.50:5568")
        #expect(sacn.channels.map(\.first) == [1, 2, 3, 5])
        #expect(sacn.channels[0].source == .figure(address: "/in_1/level", argument: 0, repeated: false))
        #expect(sacn.channels[1].curve == .gamma(2.2))
        #expect(sacn.channels[2].bits == 16 && sacn.channels[2].count == 1 && sacn.channels[2].slots == 3...4)
        #expect(sacn.channels[2].source == .figure(address: "/main/loudness/momentary", argument: 0, repeated: false))
        #expect(sacn.channels[3].source == .event(address: "/in_1/beat", toggle: false, hold: 0.05))
        #expect(sacn.channels[3].line == 12)
        let artnet = universes[1]
        #expect(artnet.destination.description == "255.255.255.255:6454")
        #expect(artnet.channels[0].count == 7 && artnet.channels[0].source == .figure(address: "/in_1/bands7", argument: 0, repeated: false))
        #expect(artnet.channels[1].count == 3 && artnet.channels[1].source == .figure(address: "/in_1/tempo", argument: 0, repeated: true))
        #expect(artnet.channels[1].curve == .log && artnet.channels[1].attack == 0.1 && artnet.channels[1].release == 0.5)
        #expect(artnet.channels[2].source == .event(address: "/in_1/downbeat", toggle: true, hold: 0.1))
        #expect(abs(artnet.channels[2].on - 200.0 / 255) < 1e-12 && abs(artnet.channels[2].off - 10.0 / 255) < 1e-12)
    }

    @Test func sACNDefaultsToItsUniversesGroupAndAFileMayBeTheListAlone() throws {
        let universes = try parse("- universe: 258\n  channels: {1: /jacktap/in_1/level}\n")
        #expect(universes[0].destination.description == "239.255.1.2:5568")
        #expect(universes[0].rate == 30 && universes[0].priority == 100)
    }

    @Test(arguments: [
        ("1: /jacktap/in_1/levle", 4, "'/jacktap/in_1/levle' is no figure jacktap sends"),
        ("513: /jacktap/in_1/level", 4, "slot 513 is out of range (1-512)"),
        ("0: /jacktap/in_1/level", 4, "slot 0 is out of range (1-512)"),
        ("510-513: /jacktap/in_1/bands7", 4, "slot 513 is over 512"),
        ("512: {path: /jacktap/in_1/level, width: 16}", 4, "a 16-bit channel at slot 512 needs slot 513"),
        ("1-3: {path: /jacktap/in_1/level, width: 16}", 4, "16-bit values take two slots each: 1-3 covers 3"),
        ("1: /jacktap/in_1/peak", 4, "'/jacktap/in_1/peak' is in dBFS, not 0..1: give from and to"),
        ("1: {path: /jacktap/in_1/note}", 4, "argument 0 of '/jacktap/in_1/note' (note name (A4)) is not a number"),
        ("1: {path: /jacktap/in_1/bands4, arg: 4}", 4, "there is no argument 4"),
        ("1-8: /jacktap/in_1/bands7", 4, "there is no argument 7"),
        ("1: {path: /jacktap/in_1/level, width: 12}", 4, "width is 8 or 16 (bits), not 12"),
        ("1: {event: /jacktap/in_1/level}", 4, "is sent every tick, not as an event"),
        ("1: {event: /jacktap/in_1/beat, from: 0, to: 1}", 4, "`from` is for `path:` channels"),
        ("1: {path: /jacktap/in_1/tempo, from: 0, to: 200, curve: log}", 4, "a log curve needs from and to above 0"),
        ("1: /jacktap/status", 4, "is about the run"),
        ("1: {path: /jacktap/in_1/level, colour: red}", 4, "unknown key 'colour'"),
        ("1: /jacktap/in_1/level\n    2: /jacktap/in_1/rms", 5, "'/jacktap/in_1/rms' is in dBFS"),
        ("1-4: /jacktap/in_1/bands4\n    3: /jacktap/in_1/level", 5, "slot 3 is already mapped on line 4"),
    ])
    func aChannelThatCannotWorkIsRefusedWithItsLine(channel: String, line: Int, message: String) throws {
        let text = "- universe: 1\n  to: 127.0.0.1\n  channels:\n    " + channel + "\n"
        let refused = try #require(error(text))
        #expect(refused.line == line)
        #expect(refused.message.contains(message), "\(refused)")
        #expect(refused.description.hasPrefix("'rig.yaml', line \(line): "))
    }

    @Test func universesOutOfRangeAndDuplicatesAreRefused() throws {
        #expect(error("- universe: 0\n  channels: {1: /jacktap/in_1/level}")?.message == "sACN universe 0 is out of range (1-63999)")
        #expect(error("- {protocol: artnet, universe: 32768, channels: {1: /jacktap/in_1/level}}")?.message
                == "Art-Net universe 32768 is out of range (0-32767)")
        #expect(error("- {protocol: dmx, universe: 1, channels: {1: /jacktap/in_1/level}}")?.message
                == "protocol 'dmx' is neither sacn nor artnet")
        #expect(error("- {universe: 1, priority: 201, channels: {1: /jacktap/in_1/level}}")?.message == "priority 201 is out of range (0-200)")
        #expect(error("- {protocol: artnet, universe: 1, priority: 100, channels: {1: /jacktap/in_1/level}}")?.message
                == "priority is sACN's; Art-Net has none")
        #expect(error("- {universe: 1, rate: 45, channels: {1: /jacktap/in_1/level}}")?.message
                == "rate 45 is out of range (1-44 frames a second)")
        #expect(error("- {universe: 1}")?.message.hasPrefix("a universe needs `channels:`") == true)
        let twice = error("- {universe: 1, channels: {1: /jacktap/in_1/level}}\n- {universe: 1, channels: {2: /jacktap/in_1/level}}")
        #expect(twice?.line == 2 && twice?.message == "sACN universe 1 to 239.255.0.1:5568 is already mapped on line 1")
        #expect(error("name: rig\n")?.message == "no `dmx:` list")
    }

    @Test func aHostThatDoesNotResolveIsRefusedWithItsLine() {
        // `.invalid` never resolves (RFC 6761).
        let refused = error("- universe: 1\n  to: node.invalid\n  channels: {1: /jacktap/in_1/level}")
        #expect(refused?.line == 2)
        #expect(refused?.message.hasPrefix("host 'node.invalid' does not resolve") == true)
    }
}
