import Foundation
import ToolSupport
import XCTest

/// `--dmx`: sACN and Art-Net with the real receivers. OLA's daemon (Debian's `ola`, run as an unprivileged user
/// in a network namespace of its own) shows the channel values the mapping gives for the `--json` figures of the
/// same run, over sACN's default multicast group and an Art-Net subnet broadcast from a second namespace joined by
/// a veth pair (OLA ignores Art-Net from its own address); the `sacn` package (PyPI) checks sequence numbers,
/// priority, source name, keep-alives and the three stream-terminated packets at exit; a beat flashes its channel
/// at the beat's instant; ArtPoll is answered; a mapping that cannot work stops jacktap at the start (exit 64),
/// naming its line.
final class DMXTests: XCTestCase {
    /// Two namespaces joined by a veth pair: `receiver` holds 192.0.2.1, `sender` 192.0.2.2, each routing
    /// multicast out of its end. Deleted when the test ends.
    func vethNamespaces() throws -> (receiver: String, sender: String) {
        let tag = "\(getpid())-\(Int.random(in: 0..<1_000_000))"
        let receiver = "jacktap-dmx-r-\(tag)", sender = "jacktap-dmx-s-\(tag)"
        for name in [receiver, sender] {
            _ = try Tool.run("ip", ["netns", "add", name])
            addTeardownBlock {
                // Whatever still runs inside (an olad that an OLA client started by itself) goes with it.
                let pids = (try? Tool.capture("ip", ["netns", "pids", name]).stdout) ?? ""
                for pid in pids.split(separator: "\n").compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
                _ = try? Tool.run("ip", ["netns", "delete", name])
            }
            _ = try Tool.run("ip", ["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        }
        func inside(_ name: String, _ arguments: [String]) throws { _ = try Tool.run("ip", ["netns", "exec", name] + arguments) }
        try inside(receiver, ["ip", "link", "add", "va", "type", "veth", "peer", "name", "vb", "netns", sender])
        try inside(receiver, ["ip", "addr", "add", "192.0.2.1/24", "dev", "va"])
        try inside(sender, ["ip", "addr", "add", "192.0.2.2/24", "dev", "vb"])
        try inside(receiver, ["ip", "link", "set", "va", "up"])
        try inside(sender, ["ip", "link", "set", "vb", "up"])
        try inside(receiver, ["ip", "route", "replace", "224.0.0.0/4", "dev", "va"])
        try inside(sender, ["ip", "route", "replace", "224.0.0.0/4", "dev", "vb"])
        return (receiver, sender)
    }

    /// olad in `namespace` as `nobody`, with only its E1.31 and Art-Net plugins, both on 192.0.2.1; the E1.31
    /// device's input port 0 patched to OLA universe `sacn`, the Art-Net device's to `artnet` (whose port then
    /// listens to Art-Net port-address `artnet`).
    func startOLA(in namespace: String, sacn: Int, artnet: Int) throws {
        let config = Tool.temporaryPath("ola-\(namespace)")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: config) }
        let others = ["dummy", "espnet", "ftdidmx", "gpio", "karate", "kinet", "milinst", "opendmx", "openpixelcontrol",
                      "osc", "pathport", "renard", "sandnet", "shownet", "spi", "stageprofi", "uartdmx", "usbdmx",
                      "usbserial", "dmx4linux", "e133", "nanoleaf", "ftdidmx", "uart"]
        for plugin in others { try "enabled = false\n".write(toFile: "\(config)/ola-\(plugin).conf", atomically: true, encoding: .utf8) }
        for plugin in ["e131", "artnet"] {
            try "enabled = true\nip = 192.0.2.1\n".write(toFile: "\(config)/ola-\(plugin).conf", atomically: true, encoding: .utf8)
        }
        _ = try Tool.run("chown", ["-R", "nobody", config])
        _ = try background("ip", ["netns", "exec", namespace, "runuser", "-u", "nobody", "--", "olad", "-c", config,
                                  "--no-register-with-dns-sd", "-l", "1"])
        // OLA's command-line clients start an olad of their own when none answers on its RPC port (9010): ask
        // only once this one does.
        let probe = "import socket; socket.create_connection(('127.0.0.1', 9010), timeout=1).close()"
        XCTAssertTrue(waitFor { (try? Tool.capture("ip", ["netns", "exec", namespace, "python3", "-c", probe]))?.status == 0 },
                      "olad listens on its RPC port")
        var devices = ""
        XCTAssertTrue(waitFor {
            devices = (try? Tool.capture("ip", ["netns", "exec", namespace, "runuser", "-u", "nobody", "--", "ola_dev_info"]).stdout) ?? ""
            return devices.contains("E1.31") && devices.contains("ArtNet")
        }, "olad lists its E1.31 and Art-Net devices: \(devices)")
        func device(_ name: String) throws -> String {
            let line = try XCTUnwrap(devices.split(separator: "\n").first { $0.hasPrefix("Device ") && $0.contains(name) })
            return String(line.dropFirst("Device ".count).prefix { $0 != ":" })
        }
        for (name, universe) in [("E1.31", sacn), ("ArtNet", artnet)] {
            _ = try Tool.run("ip", ["netns", "exec", namespace, "runuser", "-u", "nobody", "--", "ola_patch", "-d",
                                    try device(name), "-p", "0", "-i", "-u", String(universe)])
        }
    }

    /// OLA's view of `universe` (its HTTP API, `/get_dmx?u=N`): the slot values, empty before any data came.
    func olaSlots(_ universe: Int, namespace: String) -> [Int] {
        let script = "import json, urllib.request; print(json.dumps(json.load(urllib.request.urlopen("
            + "'http://127.0.0.1:9090/get_dmx?u=\(universe)', timeout=2))['dmx']))"
        guard let out = try? Tool.capture("ip", ["netns", "exec", namespace, "python3", "-c", script]), out.status == 0,
              let values = try? JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [Int] else { return [] }
        return values
    }

    func mapFile(_ text: String) throws -> String {
        let path = Tool.temporaryPath("dmx-\(UInt32.random(in: 0...UInt32.max)).yaml")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { unlink(path) }
        return path
    }

    /// jacktap run inside `namespace` (its JACK client reaches `server` outside it), in the background.
    func jacktapInside(_ namespace: String, server: PrivateJackServer, _ arguments: [String], stdout: String,
                       stderr: String? = nil) throws -> ChildProcess {
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        return try background("ip", ["netns", "exec", namespace, "env"] + environment.map { "\($0.key)=\($0.value)" }
                              + [Tool.jacktap] + arguments, stdoutPath: stdout, stderrPath: stderr)
    }

    func testOLAShowsTheChannelsTheMappingGivesTheFiguresOverSACNAndArtNet() throws {
        let (receiver, sender) = try vethNamespaces()
        try startOLA(in: receiver, sacn: 1, artnet: 2)
        let server = try privateServer()
        try playTone(on: server)
        let map = try mapFile("""
            dmx:
              - protocol: sacn          # to sACN's group for universe 1, 239.255.0.1
                universe: 1
                priority: 120
                channels:
                  1: /jacktap/in_1/level
                  2: {path: /jacktap/in_1/bands7, arg: 2, curve: gamma}
                  3-4: {path: /jacktap/main/loudness/momentary, width: 16, from: -40, to: 0}
                  5: {path: /jacktap/in_1/peak, from: -60, to: 0}
              - protocol: artnet
                universe: 2
                to: 192.0.2.255           # the subnet's broadcast
                rate: 44
                channels:
                  1: /jacktap/in_1/level
                  10-16: /jacktap/in_1/bands7
            """)
        let json = Tool.temporaryPath("dmx-ola.jsonl")
        addTeardownBlock { unlink(json) }
        _ = try jacktapInside(sender, server: server, ["e2e-tone:out_1", "--dmx", map, "--json", "--quiet"], stdout: json)
        var sacnSlots = [Int](), artnetSlots = [Int]()
        var previous = [Int]()
        // Both universes arrived, and two readings in a row agree on the level, the band and the peak: the meters
        // have settled on the steady tone, so the reading is not caught while they rise.
        XCTAssertTrue(waitFor {
            sacnSlots = olaSlots(1, namespace: receiver)
            artnetSlots = olaSlots(2, namespace: receiver)
            guard sacnSlots.count >= 5, sacnSlots[0] > 0, artnetSlots.count >= 16, artnetSlots[0] > 0 else { return false }
            let steady = [sacnSlots[0], sacnSlots[1], sacnSlots[4], artnetSlots[0]]
            defer { previous = steady }
            return steady == previous
        }, "OLA got both universes, settled: \(sacnSlots.prefix(5)) \(artnetSlots.prefix(16))")
        let ticks = jsonLines((try? String(contentsOfFile: json, encoding: .utf8)) ?? "").filter { $0["in_1"] != nil }
        let port = try XCTUnwrap(ticks.last?["in_1"] as? [String: Any])
        let main = try XCTUnwrap((ticks.last?["main"] as? [String: Any])?["loudness"] as? [String: Any])
        let level = try XCTUnwrap(port["level"] as? Double)
        let bands7 = try XCTUnwrap(port["bands7"] as? [Double])
        let peak = try XCTUnwrap(port["peak"] as? Double)
        let momentary = try XCTUnwrap(main["momentary"] as? Double)
        func byte(_ fraction: Double) -> Int { Int((min(max(fraction, 0), 1) * 255).rounded()) }
        XCTAssertEqual(level, 0.8495, accuracy: 0.001, "the tone: RMS -9.03 dBFS on the -60…0 scale")
        XCTAssertEqual(Double(sacnSlots[0]), Double(byte(level)), accuracy: 1)
        XCTAssertEqual(Double(sacnSlots[1]), Double(byte(pow(bands7[2], 2.2))), accuracy: 2)
        let wide = sacnSlots[2] << 8 | sacnSlots[3]
        XCTAssertEqual(Double(wide), (momentary + 40) / 40 * 65535, accuracy: 40, "16 bits, coarse then fine")
        XCTAssertEqual(Double(sacnSlots[4]), Double(byte((peak + 60) / 60)), accuracy: 1)
        XCTAssertEqual(Double(artnetSlots[0]), Double(byte(level)), accuracy: 1)
        for (index, band) in bands7.enumerated() {
            XCTAssertEqual(Double(artnetSlots[9 + index]), Double(byte(band)), accuracy: 2, "band \(index) of bands7 on slot \(10 + index)")
        }
        XCTAssertTrue(artnetSlots[1..<9].allSatisfy { $0 == 0 }, "unmapped slots stay 0")
    }

    /// The sacn package's receiver (its own E1.31 decoder) on universe 7's multicast group in a loopback-only
    /// namespace: nothing plays, so after the first frame the slots never change.
    func testSACNPackageSeesSequencePriorityKeepAlivesAndStreamTermination() throws {
        let namespace = try loopbackNamespace()
        let server = try privateServer()
        let out = Tool.temporaryPath("sacn-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        addTeardownBlock { unlink(out) }
        _ = try background("ip", ["netns", "exec", namespace, "python3", Tool.repositoryPath("Tests/tools/sacn_receiver.py"),
                                  "7", "0.0.0.0", "4", "--multicast"], stdoutPath: out)
        XCTAssertTrue(waitFor { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("listening") })
        let map = try mapFile("""
            dmx:
              - universe: 7
                priority: 150
                rate: 40
                channels:
                  1: /jacktap/in_1/level
                  2: {path: /jacktap/in_1/peak, from: -60, to: 0}
            """)
        var environment = server.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        let run = try Tool.capture("ip", ["netns", "exec", namespace, "env"] + environment.map { "\($0.key)=\($0.value)" }
                                   + [Tool.jacktap, "--inputs", "1", "--name", "stage-left", "--dmx", map, "--duration", "6"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("DMX sACN universe 7 to 239.255.0.7:5568:"), run.stderr)
        XCTAssertTrue(waitFor { jsonLines((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains { $0["availability"] as? String == "timeout" } },
                      "the package reports the stream's end")
        // The package reports the end at the first stream-terminated packet, while the socket may still hold the
        // others jacktap sent before it exited: the receiver logs them in turn.
        func packetLines() -> [[String: Any]] {
            jsonLines((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").filter { $0["sequence"] != nil }
        }
        _ = waitFor { packetLines().filter { $0["terminated"] as? Bool == true }.count >= 3 }
        let packets = packetLines()
        XCTAssertTrue(packets.allSatisfy { $0["priority"] as? Int == 150 && $0["source"] as? String == "jacktap stage-left" })
        let cids = Set(packets.map { "\($0["cid"] ?? "")" })
        XCTAssertEqual(cids.count, 1, "one CID for the whole run")
        let sequences = packets.compactMap { $0["sequence"] as? Int }
        XCTAssertTrue(zip(sequences, sequences.dropFirst()).allSatisfy { ($0 + 1) % 256 == $1 }, "every packet, in order: \(sequences)")
        let terminated = packets.filter { $0["terminated"] as? Bool == true }
        XCTAssertEqual(terminated.count, 3, "three stream-terminated packets at exit (E1.31 6.2.6)")
        XCTAssertTrue(packets.suffix(3).allSatisfy { $0["terminated"] as? Bool == true }, "and they come last")
        XCTAssertTrue(packets.allSatisfy { ($0["slots"] as? [Int])?.prefix(2) == [0, 0] }, "silence: level 0, peak at the floor")
        // Unchanged slots: the first frame, three more, then keep-alives 0.9 s apart — never 40 a second, never
        // the 2.5 s after which a receiver gives the source up.
        let times = packets.filter { $0["terminated"] as? Bool != true }.compactMap { $0["t"] as? Double }
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }.dropFirst(4)
        XCTAssertGreaterThanOrEqual(gaps.count, 3, "keep-alives over the run: \(times)")
        XCTAssertLessThan(times.count, 20, "unchanged slots are not sent at the rate")
        XCTAssertEqual(median(Array(gaps)), 0.9, accuracy: 0.1)
        XCTAssertLessThan(gaps.max() ?? 9, 2.5)
    }

    /// A drum loop's beats, each a flash of 0.1 s on slot 1 (sACN unicast to a receiver on the loopback
    /// interface): a flash for each beat the tracker sends, starting at the beat's instant (the timetag of its OSC
    /// bundle, which a python-osc receiver reads in the same run), and lasting its hold.
    func testABeatFlashesItsChannelAtTheBeatsInstant() throws {
        let server = try privateServer()
        let loop = DrumLoop(bpm: 120, sampleRate: 48_000, seconds: 14)
        let path = Tool.temporaryPath("dmx-loop.wav")
        addTeardownBlock { unlink(path) }
        try WAVWriter.write(path, sampleRate: 48_000, channels: [loop.render()])
        let player = try playOnConnect(path, server: server, name: "drums")
        let out = Tool.temporaryPath("sacn-beats-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        addTeardownBlock { unlink(out) }
        _ = try background("python3", [Tool.repositoryPath("Tests/tools/sacn_receiver.py"), "3", "127.0.0.1", "1"], stdoutPath: out)
        XCTAssertTrue(waitFor { ((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").contains("listening") })
        let osc = try Receiver(.pythonOSC)
        let map = try mapFile("""
            dmx:
              - universe: 3
                to: 127.0.0.1
                channels:
                  1: {event: /jacktap/in_1/beat, value: 255, hold: 0.1}
            """)
        let run = try Tool.capture(Tool.jacktap, [player, "--dmx", map, "--osc", "127.0.0.1:\(osc.port)", "--duration", "12", "--quiet"],
                                   environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let beats = try osc.messages().filter { $0.address == "/jacktap/in_1/beat" }.compactMap(\.timetag)
        XCTAssertGreaterThan(beats.count, 12, "the tracker locked on the loop")
        let packets = jsonLines((try? String(contentsOfFile: out, encoding: .utf8)) ?? "").filter { $0["sequence"] != nil }
        var rises = [Double](), falls = [Double]()
        var lit = false
        for packet in packets {
            guard let slot = (packet["slots"] as? [Int])?.first, let t = packet["t"] as? Double else { continue }
            if slot == 255, !lit { rises.append(t) }
            if slot == 0, lit { falls.append(t) }
            lit = slot == 255
        }
        XCTAssertEqual(Double(rises.count), Double(beats.count), accuracy: 1, "a flash per beat")
        let latencies = beats.compactMap { beat in rises.min { abs($0 - beat) < abs($1 - beat) }.map { $0 - beat } }
        XCTAssertGreaterThanOrEqual(latencies.filter { abs($0) < 0.1 }.count, beats.count - 1,
                                    "each flash reaches the receiver within 0.1 s of its beat: \(latencies)")
        let holds = zip(rises, falls).map { $1 - $0 }
        XCTAssertEqual(median(holds), 0.1, accuracy: 0.03, "each flash lasts its hold")
    }

    /// Nothing listens on the receiver's port: every send fails (ICMP port unreachable), and every tick still
    /// comes out, on time, with the frames counted.
    func testAReceiverThatIsDownNeitherStopsNorSlowsJacktap() throws {
        let server = try privateServer()
        try playTone(on: server)
        let closed = Tool.freeUDPPort()
        let map = try mapFile("""
            dmx:
              - {universe: 1, to: "127.0.0.1:\(closed)", rate: 44, channels: {1-48: /jacktap/in_1/bands}}
              - {protocol: artnet, universe: 1, to: "127.0.0.1:\(closed)", rate: 44, channels: {1-48: /jacktap/in_1/bands}}
            """)
        let run = try Tool.capture(Tool.jacktap, ["e2e-tone:out_1", "--dmx", map, "--json", "--duration", "3"],
                                   environment: server.environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(jsonLines(run.stdout).filter { $0["in_1"] != nil }.count, 90, "all 30 ticks per second of audio came out")
        XCTAssertTrue(run.stderr.contains("DMX sACN universe 1 to 127.0.0.1:\(closed): "), run.stderr)
        XCTAssertTrue(run.stderr.contains("DMX Art-Net universe 1 to 127.0.0.1:\(closed): "), run.stderr)
    }

    func testArtPollIsAnsweredWithAReplyPerUniverse() throws {
        let namespace = try loopbackNamespace()
        let server = try privateServer()
        let map = try mapFile("""
            dmx:
              - protocol: artnet
                universe: 291
                to: 127.0.0.1:6999
                channels: {1: /jacktap/in_1/level}
              - protocol: artnet
                universe: 5
                to: 127.0.0.1:6999
                channels: {1: /jacktap/in_1/level}
            """)
        let err = Tool.temporaryPath("artpoll-\(UInt32.random(in: 0...UInt32.max)).txt")
        addTeardownBlock { unlink(err) }
        _ = try jacktapInside(namespace, server: server, ["--inputs", "1", "--name", "poll-me", "--dmx", map], stdout: "/dev/null", stderr: err)
        XCTAssertTrue(waitFor { ((try? String(contentsOfFile: err, encoding: .utf8)) ?? "").contains("DMX: Art-Net") })
        var replies = [[String: Any]]()
        XCTAssertTrue(waitFor {
            replies = jsonLines((try? Tool.capture("ip", ["netns", "exec", namespace, "python3",
                                                          Tool.repositoryPath("Tests/tools/artpoll.py"), "127.0.0.1", "1"]).stdout) ?? "")
            return replies.count >= 2
        }, "ArtPollReplies: \(replies)")
        XCTAssertEqual(replies.map { $0["size"] as? Int }, [239, 239])
        XCTAssertEqual(Set(replies.compactMap { $0["port_address"] as? Int }), [291, 5])
        XCTAssertEqual(Set(replies.compactMap { $0["bind_index"] as? Int }), [1, 2])
        XCTAssertTrue(replies.allSatisfy { $0["short_name"] as? String == "jacktap" && $0["port"] as? Int == 6454
                && $0["ip"] as? [Int] == [127, 0, 0, 1] && $0["port_type"] as? Int == 0x40 && $0["style"] as? Int == 1
                && ($0["long_name"] as? String ?? "").contains("poll-me") })
    }

    /// Each mapping that cannot work: exit 64 before anything is opened, with the file and the line named.
    func testAMappingThatCannotWorkStopsJacktapNamingItsLine() throws {
        let cases: [(String, String)] = [
            ("      1: /jacktap/in_1/levle\n", "line 5: '/jacktap/in_1/levle' is no figure jacktap sends"),
            ("      513: /jacktap/in_1/level\n", "line 5: slot 513 is out of range (1-512)"),
            ("      510-513: /jacktap/in_1/bands7\n", "line 5: slot 513 is over 512"),
            ("      512: {path: /jacktap/main/loudness/momentary, width: 16, from: -40, to: 0}\n",
             "line 5: a 16-bit channel at slot 512 needs slot 513"),
            ("      1: /jacktap/in_1/peak\n", "line 5: '/jacktap/in_1/peak' is in dBFS, not 0..1: give from and to"),
        ]
        for (channel, expected) in cases {
            let map = try mapFile("dmx:\n  - universe: 1\n    to: 127.0.0.1\n    channels:\n" + channel)
            let run = try Tool.capture(Tool.jacktap, ["--inputs", "1", "--dmx", map])
            XCTAssertEqual(run.status, 64, channel)
            XCTAssertTrue(run.stderr.contains("'\(map)', \(expected)"), "\(channel): \(run.stderr)")
        }
        let universes: [(String, String)] = [
            ("  - protocol: sacn\n    universe: 64000\n", "line 3: sACN universe 64000 is out of range (1-63999)"),
            ("  - protocol: artnet\n    universe: 32768\n", "line 3: Art-Net universe 32768 is out of range (0-32767)"),
            // `.invalid` never resolves (RFC 6761).
            ("  - universe: 1\n    to: stage-node.invalid\n", "line 3: host 'stage-node.invalid' does not resolve"),
        ]
        for (universe, expected) in universes {
            let map = try mapFile("dmx:\n" + universe + "    channels: {1: /jacktap/in_1/level}\n")
            let run = try Tool.capture(Tool.jacktap, ["--dmx", map])
            XCTAssertEqual(run.status, 64, universe)
            XCTAssertTrue(run.stderr.contains("'\(map)', \(expected)"), run.stderr)
        }
        // In a --config file the list keeps its lines.
        let config = try mapFile("name: rig\ndmx:\n  - universe: 1\n    channels:\n      9: /jacktap/in_1/nope\n")
        let run = try Tool.capture(Tool.jacktap, ["--config", config])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("'\(config)', line 5: '/jacktap/in_1/nope' is no figure"), run.stderr)
    }
}
