import Foundation
import ToolSupport
import XCTest

/// `--http`: the meter bridge read by a real browser (Debian's headless Chromium), by 20 WebSocket viewers at
/// once (python websockets) and by clients that send it garbage, while a tone plays through a private jackd.
final class MeterBridgeTests: XCTestCase {
    var server: PrivateJackServer!

    override func setUpWithError() throws {
        server = try privateServer(rate: 48_000, period: 256)
    }

    struct Bridge {
        let process: ChildProcess
        let port: UInt16
        let stdout: String
        let stderr: String
        var url: String { "http://127.0.0.1:\(port)/" }
    }

    /// jacktap tapping the tone with `--http 127.0.0.1:0 --json` (the kernel picks the port; jacktap says which on
    /// stderr), stopped when the test ends.
    func startBridge(_ extra: [String] = []) throws -> Bridge {
        let out = Tool.temporaryPath("bridge-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        let err = out + ".err"
        addTeardownBlock { unlink(out); unlink(err) }
        let process = try background(Tool.jacktap, ["e2e-tone:out_1", "--http", "127.0.0.1:0", "--json"] + extra,
                                     server: server, stdoutPath: out, stderrPath: err)
        return try waitForBridge(process, stdout: out, stderr: err)
    }

    /// Waits until `process` says where its meter bridge listens (the kernel picked the port).
    func waitForBridge(_ process: ChildProcess, stdout out: String, stderr err: String) throws -> Bridge {
        var port: UInt16?
        _ = waitFor {
            let text = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"meter bridge on http://127\.0\.0\.1:[0-9]+/"#, options: .regularExpression) {
                port = UInt16(text[range].split(separator: ":").last!.dropLast())
            }
            return port != nil || !process.isRunning
        }
        guard let port else {
            throw Tool.Failed(description: "jacktap did not start its meter bridge: \((try? String(contentsOfFile: err, encoding: .utf8)) ?? "")")
        }
        return Bridge(process: process, port: port, stdout: out, stderr: err)
    }

    /// Debian's Chromium, headless, with a profile of its own that is removed afterwards; killed after 120 s.
    func chromium(_ arguments: [String]) throws -> String {
        let profile = Tool.temporaryPath("chromium-\(UInt32.random(in: 0...UInt32.max))")
        defer { _ = try? Tool.run("rm", ["-rf", profile]) }
        return try Tool.run("timeout", ["-s", "KILL", "120", "chromium", "--headless", "--no-sandbox", "--disable-gpu",
                                        "--user-data-dir=\(profile)", "--virtual-time-budget=5000"] + arguments)
    }

    /// The text of every element with a `data-path` in `dom`, keyed by path and argument (`/jacktap/in_1/note#0`).
    static func figures(in dom: String) -> [String: String] {
        var found = [String: String]()
        let pattern = #"data-path="([^"]*)"(?: data-arg="([0-9]+)")?[^>]*>([^<]*)<"#
        let regex = try! NSRegularExpression(pattern: pattern)
        for match in regex.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)) {
            func group(_ i: Int) -> String? { Range(match.range(at: i), in: dom).map { String(dom[$0]) } }
            let key = group(1)! + (group(2).map { "#" + $0 } ?? "")
            found[key] = group(3)!
        }
        return found
    }

    /// Fails unless `received` is an unbroken run of the ticks jacktap printed with `--json`: none missing,
    /// none repeated, none out of order.
    func assertEveryTick(_ received: [Double], of bridge: Bridge, _ who: String) throws {
        let printed = tickLines(jsonLines(try String(contentsOfFile: bridge.stdout, encoding: .utf8))).compactMap { $0["t"] as? Double }
        let start = try XCTUnwrap(received.first.flatMap { printed.firstIndex(of: $0) }, "\(who): the first tick is not in --json")
        XCTAssertEqual(Array(printed[start..<min(printed.count, start + received.count)]), received,
                       "\(who): the ticks received are not those --json printed, in order")
    }

    func testChromiumShowsTheFiguresJSONGivesForATone() throws {
        try playTone(on: server)
        let bridge = try startBridge()
        // The momentary loudness settles once its 400 ms window holds only the tone.
        let before = try waitForJSONLine(in: bridge.stdout) { ($0["t"] as? Double ?? 0) >= 1.5 }
        let dom = try chromium(["--dump-dom", bridge.url])
        let after = tickLines(jsonLines(try String(contentsOfFile: bridge.stdout, encoding: .utf8)))
        let figures = Self.figures(in: dom)
        let ticks = tickLines(Array(after.dropFirst(before.count)))
        XCTAssertFalse(ticks.isEmpty)
        func json(_ key: String) -> [Double] { ticks.compactMap { ($0["in_1"] as? [String: Any])?[key] as? Double } }
        func loudness(_ key: String) -> [Double] {
            ticks.compactMap { (($0["main"] as? [String: Any])?["loudness"] as? [String: Any])?[key] as? Double }
        }
        func shown(_ key: String) throws -> Double {
            let text = try XCTUnwrap(figures[key], "no element for \(key) in \(figures)")
            return try XCTUnwrap(Double(text), "\(key) shows '\(text)'")
        }
        // The page shows one decimal of what --json printed while the browser read the stream.
        for (key, values) in [("/jacktap/in_1/peak", json("peak")), ("/jacktap/in_1/rms", json("rms")),
                              ("/jacktap/in_1/truepeak", json("truepeak")),
                              ("/jacktap/main/loudness/momentary", loudness("momentary"))] {
            let value = try shown(key)
            XCTAssertTrue(values.contains { abs($0 - value) <= 0.1 }, "\(key) shows \(value); --json gave \(values.suffix(5))")
        }
        XCTAssertEqual(try shown("/jacktap/in_1/peak"), -6.0, accuracy: 0.1, "the tone's own peak, -6.02 dBFS")
        XCTAssertEqual(figures["/jacktap/in_1/note#0"], "A4")
        let notes = ticks.compactMap { ($0["in_1"] as? [String: Any])?["note"] as? [Any] }
        XCTAssertTrue(notes.allSatisfy { $0.first as? String == "A4" }, "--json names the same note")
        XCTAssertEqual(figures["/jacktap/status#0"], "running")
        // The page counts the ticks it has taken in: more than the snapshot it fetched first, so the figures
        // above came through the WebSocket stream. The snapshot counts once at most (the page takes it only
        // while no stream tick has come), so two mean at least one through the stream; how many more depends
        // on how long a loaded machine's Chromium took to run the page (2 in one CI run, more when quiet).
        let taken = try XCTUnwrap(dom.range(of: #"data-ticks="[0-9]+""#, options: .regularExpression).map { dom[$0] })
        XCTAssertGreaterThanOrEqual(Int(taken.dropFirst(12).dropLast()) ?? 0, 2, String(taken))
        XCTAssertEqual(figures["/jacktap/status#2"], "0", "no period dropped")

        // A screenshot, wide and on a phone's width: drawn, with the level bar's green, the spectrum's blue and
        // the history's grey-blue.
        for (name, size) in [("wide", "1280,800"), ("phone", "390,844")] {
            let png = Tool.temporaryPath("bridge-\(name).png")
            defer { unlink(png) }
            _ = try chromium(["--screenshot=\(png)", "--window-size=\(size)", bridge.url])
            let report = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/png_colours.py"), png, "#2fbf71", "#4aa3df", "#5d8fb8"])
            let picture = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
            let near = try XCTUnwrap(picture["near"] as? [String: Int])
            XCTAssertGreaterThan(picture["distinct"] as? Int ?? 0, 20, "\(name): not blank")
            XCTAssertGreaterThan(near["#2fbf71"] ?? 0, 500, "\(name): the level bar is drawn")
            XCTAssertGreaterThan(near["#4aa3df"] ?? 0, 50, "\(name): the spectrum is drawn")
            XCTAssertGreaterThan(near["#5d8fb8"] ?? 0, 20, "\(name): the level history is drawn")
        }
    }

    func testThePageShowsAnAlarmThatStartedBeforeItOpened() throws {
        try playTone(on: server)
        // The tone (-6.02 dBFS, about -9 LUFS) is over EBU R128's -23 ± 1 at once.
        let bridge = try startBridge(["--alarms", "over_target,silence"])
        let raised = try waitForJSONLine(in: bridge.stdout) { $0["event"] as? String == "alarm" }
        XCTAssertEqual(raised.last?["kind"] as? String, "over_target")
        let dom = try chromium(["--dump-dom", bridge.url])
        XCTAssertEqual(Self.figures(in: dom)["/jacktap/main/alarm"], "over_target", "the programme card names the alarm")
        XCTAssertNotNil(dom.range(of: #"class="programme alarm""#, options: .regularExpression), "the card is marked")
    }

    func testTwentyViewersEachReceiveEveryTick() throws {
        try playTone(on: server)
        let bridge = try startBridge()
        _ = try waitForJSONLine(in: bridge.stdout) { $0["t"] != nil }
        let report = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/ws_viewers.py"), "127.0.0.1", "\(bridge.port)", "120", "20", "0", "300"])
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let viewers = try XCTUnwrap(result["viewers"] as? [[String: Any]])
        XCTAssertEqual(viewers.count, 20)
        for (i, viewer) in viewers.enumerated() {
            let ticks = try XCTUnwrap(viewer["ticks"] as? [Double])
            // 10 s of audio at 30 ticks per second, however long the wall clock takes.
            XCTAssertGreaterThanOrEqual(ticks.count, 200, "viewer \(i)")
            try assertEveryTick(ticks, of: bridge, "viewer \(i)")
            let statuses = try XCTUnwrap(viewer["statuses"] as? [[String: Any]])
            XCTAssertEqual(statuses.first?["state"] as? String, "running", "a viewer is told the JACK status at once")
            XCTAssertTrue(statuses.allSatisfy { $0["overruns"] as? Int == 0 }, "no period dropped: \(statuses)")
        }
    }

    func testTheStreamCarriesEachOnsetAndBeatAsJSONPrintsIt() throws {
        // The demo signal's drums give onsets and beats with their bars.
        try backgroundGenerator(["--demo", "--name", "e2e-demo"], server: server)
        let out = Tool.temporaryPath("bridge-demo-\(UInt32.random(in: 0...UInt32.max)).jsonl")
        let err = out + ".err"
        addTeardownBlock { unlink(out); unlink(err) }
        let process = try background(Tool.jacktap, ["e2e-demo:out_1", "--http", "127.0.0.1:0", "--json"],
                                     server: server, stdoutPath: out, stderrPath: err)
        let bridge = try waitForBridge(process, stdout: out, stderr: err)
        _ = try waitForJSONLine(in: bridge.stdout) { $0["t"] != nil }
        let report = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/ws_viewers.py"), "127.0.0.1", "\(bridge.port)", "120", "1", "0", "360"])
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let viewer = try XCTUnwrap((result["viewers"] as? [[String: Any]])?.first)
        let events = try XCTUnwrap(viewer["events"] as? [String])
        let parsed = jsonLines(events.joined(separator: "\n"))
        XCTAssertTrue(parsed.contains { $0["event"] as? String == "onset" }, "onsets on the stream")
        let beats = parsed.filter { $0["event"] as? String == "beat" }
        XCTAssertFalse(beats.isEmpty, "beats on the stream")
        XCTAssertTrue(beats.allSatisfy { $0["bar"] is Int && $0["beat_in_bar"] is Int && $0["beats_per_bar"] is Int },
                      "each beat with its place in the bar")
        // Byte for byte the lines --json printed, in the same order.
        let printed = try String(contentsOfFile: bridge.stdout, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { $0.contains("\"event\": ") }
        let first = try XCTUnwrap(events.first, "no event on the stream")
        let start = try XCTUnwrap(printed.firstIndex(of: first), "the first event is not in --json")
        XCTAssertEqual(Array(printed[start..<min(printed.count, start + events.count)]), events)
    }

    func testAStalledViewerDropsItsOwnLinesAndNothingElse() throws {
        try playTone(on: server)
        // Eight inputs at 150 ticks a second make about 1.2 MB a second, so a viewer that stops reading fills its
        // socket (its 4 KiB receive buffer, the kernel's send buffer, NIO's pending writes) and its backlog.
        // Meters and bands only (`--music none`): the full analysis of 8 ports at 150 ticks a second took more of
        // the machine than a loaded CI machine gave it and fell behind with no viewer to blame; this much leaves
        // the analysis room, so a period it drops here is the stalled viewer's doing.
        let bridge = try startBridge(["--inputs", "8", "--rate", "150", "--music", "none"])
        _ = try waitForJSONLine(in: bridge.stdout) { $0["t"] != nil }
        let report = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/ws_viewers.py"), "127.0.0.1", "\(bridge.port)", "120", "1", "1", "2250"])
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])
        let viewer = try XCTUnwrap((result["viewers"] as? [[String: Any]])?.first)
        let ticks = try XCTUnwrap(viewer["ticks"] as? [Double])
        XCTAssertGreaterThanOrEqual(ticks.count, 1500, "15 s at 150 ticks a second")
        try assertEveryTick(ticks, of: bridge, "the reading viewer")
        let snapshots = try XCTUnwrap(result["snapshots"] as? [String: Any])
        XCTAssertEqual(snapshots["failed"] as? Int, 0, "GET /snapshot.json answered throughout: \(snapshots)")
        bridge.process.signal(SIGTERM)
        XCTAssertEqual(bridge.process.wait(timeout: 60), 0)
        let stderr = try String(contentsOfFile: bridge.stderr, encoding: .utf8)
        XCTAssertFalse(stderr.contains("fell behind"), "the analysis dropped no period: \(stderr)")
        let summary = try XCTUnwrap(stderr.split(separator: "\n").first { $0.contains("lines skipped") }, stderr)
        let dropped = Int(summary.split(separator: " ").reversed().first { Int($0) != nil } ?? "") ?? 0
        XCTAssertTrue(summary.contains("2 viewers"), String(summary))
        XCTAssertGreaterThan(dropped, 0, "the stalled viewer lost lines: \(summary)")
    }

    func testATakenPortOrABadAddressIsRefusedAtTheStart() throws {
        try playTone(on: server)
        let bridge = try startBridge()
        let taken = try Tool.capture(Tool.jacktap, ["e2e-tone:out_1", "--http", "127.0.0.1:\(bridge.port)", "--duration", "1"],
                                     environment: server.environment)
        XCTAssertEqual(taken.status, 64, taken.stderr)
        XCTAssertTrue(taken.stderr.contains("--http cannot listen on 127.0.0.1:\(bridge.port): Address already in use"), taken.stderr)
        let malformed = try Tool.capture(Tool.jacktap, ["e2e-tone:out_1", "--http", "127.0.0.1:99999", "--duration", "1"],
                                         environment: server.environment)
        XCTAssertEqual(malformed.status, 64)
        XCTAssertTrue(malformed.stderr.contains("the port must be a number from 0 to 65535"), malformed.stderr)
    }

    func testBadInputLeavesTheAnalysisRunningAndReadsNoFile() throws {
        try playTone(on: server)
        // strace records every file the process opens from here on (the loaded libraries come before).
        let trace = Tool.temporaryPath("bridge-\(UInt32.random(in: 0...UInt32.max)).strace")
        addTeardownBlock { unlink(trace) }
        let bridge = try startBridge()
        _ = try waitForJSONLine(in: bridge.stdout) { $0["t"] != nil }
        let strace = try background("strace", ["-f", "-qq", "-e", "trace=open,openat,openat2,creat,stat,lstat,newfstatat,statx,readlink,readlinkat,access,faccessat2",
                                                "-o", trace, "-p", "\(bridge.process.pid)"])
        // Attached once the kernel names a tracer for the process.
        XCTAssertTrue(waitFor {
            let status = (try? String(contentsOfFile: "/proc/\(bridge.process.pid)/status", encoding: .utf8)) ?? ""
            return status.split(separator: "\n").contains { $0.hasPrefix("TracerPid:") && !$0.hasSuffix("\t0") }
        }, "strace did not attach")
        let report = try Tool.run("python3", [Tool.repositoryPath("Tests/tools/http_abuse.py"), "127.0.0.1", "\(bridge.port)"])
        stopAndReap(strace)
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])

        let paths = try XCTUnwrap(result["paths"] as? [String: [String: Any]])
        XCTAssertEqual(paths.count, 10)
        for (path, answer) in paths {
            XCTAssertEqual(answer["status"] as? Int, 404, path)
            XCTAssertEqual(answer["leaks"] as? Bool, false, path)
        }
        let longLine = try XCTUnwrap(result["long_line"] as? [String: Any])
        XCTAssertFalse((longLine["answer"] as? String ?? "").contains(" 200"), "a 1 MB request line is not served")
        XCTAssertNotEqual(longLine["connection"] as? String, "open", "its connection is closed within 40 s: \(longLine)")
        let halfOpen = try XCTUnwrap(result["half_open"] as? [String: Any])
        XCTAssertEqual(halfOpen["held"] as? Int, 500)
        XCTAssertEqual(halfOpen["snapshot_status"] as? Int, 200, "served while 500 connections hang")
        XCTAssertEqual(halfOpen["snapshot_is_a_tick"] as? Bool, true)
        let after = try XCTUnwrap(result["after"] as? [String: Any])
        XCTAssertEqual(after["snapshot_status"] as? Int, 200)
        XCTAssertEqual(after["page_status"] as? Int, 200)
        let garbage = try XCTUnwrap(result["websocket_garbage"] as? [String: String])
        XCTAssertEqual(garbage.count, 4)
        XCTAssertNotEqual(garbage["a text frame"], "open", "data from a viewer closes its connection: the stream is read-only")
        XCTAssertNotEqual(garbage["a frame of 2^62 bytes"], "open", "a frame over the limit closes its connection")

        // The analysis went on through it all: every tick printed, none missing, and jacktap still running.
        XCTAssertTrue(bridge.process.isRunning)
        let ticks = tickLines(jsonLines(try String(contentsOfFile: bridge.stdout, encoding: .utf8))).compactMap { $0["t"] as? Double }
        let gaps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }
        XCTAssertTrue(gaps.allSatisfy { abs($0 - 1.0 / 30) < 0.005 }, "ticks missing from --json")
        XCTAssertFalse(try String(contentsOfFile: bridge.stderr, encoding: .utf8).contains("fell behind"))

        // No file was opened, looked at or read while the server was being abused.
        let touched = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
            .filter { !$0.contains("+++") && !$0.contains("---") && !$0.contains("resumed>") }
            // glibc's malloc reads the overcommit setting once when it makes a new arena for a thread, and the
            // number of online CPUs once when a thread needs a new arena while more than eight exist (to set its
            // limit on arenas; `strace -k` shows malloc → get_nprocs under a Swift task accepting a connection,
            // which a loaded machine spreads over more threads): not files a request reached.
            .filter { !$0.contains("\"/proc/sys/vm/overcommit_memory\"") }
            .filter { !$0.contains("\"/sys/devices/system/cpu/online\"") }
            // libdispatch's worker-pool monitor reads its own workers' /proc/TID/stat (the one "/proc/%d/stat" in
            // libdispatch.so) to see whether they are blocked, which a loaded machine makes it do: not a file a
            // request reached either.
            .filter { $0.range(of: #"openat\(AT_FDCWD, "/proc/[0-9]+/stat", O_RDONLY\|O_NONBLOCK\)"#,
                               options: .regularExpression) == nil }
        XCTAssertEqual(touched, [], "file system calls while serving: \(touched.prefix(10))")
    }
}
