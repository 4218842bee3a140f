import Foundation
import Schema
import ToolSupport
import XCTest

/// python-osc and liblo's oscdump, decoders no one here wrote, decode every message `jacktap analyze` sends,
/// in bundle and plain mode, and every value equals what `--json` printed for the same tick.
final class ReceiverAgreementTests: XCTestCase {
    /// Decimals the JSON line prints per leaf (JSONLines); OSC carries float32, so the two agree to half
    /// the last printed digit (plus float32 rounding and oscdump's 6 decimals).
    static let decimals: [String: Int] = ["level": 4, "bands": 4, "bands4": 4, "bands7": 4, "correlation": 4,
                                          "pitch": 2, "tempo": 2, "beat": 2, "note": 1]

    /// The OSC messages a JSON line stands for, per the v1 contract: a number is `f`, a list is its items,
    /// a pitch is `hz confidence` when voiced, null is no message, a nested object adds a path part.
    static func expectedMessages(_ line: [String: Any], prefix: String = "/jacktap") -> [(String, [Any])] {
        if let event = line["event"] as? String, let port = line["port"] as? String {
            let args: [Any] = event == "beat" ? [line["count"]!, line["bpm"]!] : [line["strength"]!]
            return [("\(prefix)/\(port)/\(event)", args)]
        }
        guard line["summary"] == nil else { return [] }
        var out = [(String, [Any])]()
        func walk(_ object: [String: Any], _ path: String) {
            for (key, value) in object.sorted(by: { $0.key < $1.key }) where key != "t" {
                let address = path + "/" + key
                switch value {
                case let pitch as [String: Any] where key == "pitch":
                    if pitch["voiced"] as? Bool == true { out.append((address, [pitch["hz"]!, pitch["confidence"]!])) }
                case let nested as [String: Any]: walk(nested, address)
                case let list as [Any]: out.append((address, list))
                case is NSNull: break
                default: out.append((address, [value]))
                }
            }
        }
        walk(line, prefix)
        // The four band groups are also sent one value per path (FigureSchema.bandGroups).
        for (address, args) in out where address.hasSuffix("/bands4") && args.count == 4 {
            let base = address.dropLast("bands4".count)
            for (name, value) in zip(["bass", "lowmid", "mid", "high"], args) { out.append((base + name, [value])) }
        }
        return out
    }

    /// Compares, address by address and in order, what the receiver decoded with what the JSON said.
    func assertAgreement(json: String, received: [(address: String, args: [Any])], _ label: String) {
        var expected = [String: [[Any]]]()
        for line in jsonLines(json) { for (address, args) in Self.expectedMessages(line) { expected[address, default: []].append(args) } }
        var got = [String: [[Any]]]()
        for message in received { got[message.address, default: []].append(message.args) }
        let undeclared = got.keys.filter { FigureSchema.figure(at: $0) == nil }.sorted()
        XCTAssertEqual(undeclared, [], "\(label): received but not declared in the schema (docs/osc-reference.md)")
        let unreported = Set(got.keys).subtracting(expected.keys).sorted()
        XCTAssertEqual(unreported, [], "\(label): sent over OSC but not reported by --json")
        XCTAssertEqual(Set(expected.keys).subtracting(got.keys).sorted(), [], "\(label): in --json but never received")
        XCTAssertGreaterThan(expected.values.map(\.count).reduce(0, +), 100, label)
        for (address, lists) in expected {
            let decoded = got[address] ?? []
            XCTAssertEqual(decoded.count, lists.count, "\(label) \(address): messages")
            let leaf = String(address.split(separator: "/").last!)
            let tolerance = 0.5 * pow(10, -Double(Self.decimals[leaf] ?? 3)) + 2e-6
            for (tick, (want, have)) in zip(lists, decoded).enumerated() {
                XCTAssertEqual(want.count, have.count, "\(label) \(address) #\(tick): argument count")
                for (w, h) in zip(want, have) {
                    if let w = w as? String {
                        XCTAssertEqual(w, "\(h)", "\(label) \(address) #\(tick)")
                    } else {
                        let wv = (w as! NSNumber).doubleValue
                        let hv = (h as? NSNumber)?.doubleValue ?? Double("\(h)") ?? .nan
                        if abs(wv - hv) > tolerance * max(1, abs(wv) / 1000) {
                            XCTFail("\(label) \(address) #\(tick): OSC \(hv), JSON \(wv)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// A stereo file with a tone, a chord and silence, so pitch, notes, meters and loudness all move.
    func programmeFile() throws -> String {
        let path = Tool.temporaryPath("agreement.wav")
        try Tool.run("sox", ["-n", "-r", "48000", "-b", "24", "-c", "2", path, "synth", "3", "sine", "440", "pluck", "C4",
                             "gain", "-9", "pad", "0.3", "0.5"])
        return path
    }

    func testPythonOSCDecodesEveryBundledAndPlainMessageWithTheJSONValues() throws {
        let path = try programmeFile()
        defer { unlink(path) }
        for mode in [[], ["--no-bundles"]] {
            let capture = try RoutingCapture()
            let json = try Tool.run(Tool.jacktap, ["analyze", path, "--json", "--osc", "127.0.0.1:\(capture.port)",
                                                   "--pair", "in_1,in_2"] + mode)
            let datagrams = capture.datagrams()
            XCTAssertTrue(datagrams.allSatisfy { $0.bundle == mode.isEmpty }, "\(mode)")
            assertAgreement(json: json, received: datagrams.flatMap(\.messages), "python-osc \(mode)")
        }
    }

    static let attemptsAgainstKernelDrops = 3

    func testOscdumpDecodesEveryBundledAndPlainMessageWithTheJSONValues() throws {
        let path = try programmeFile()
        defer { unlink(path) }
        for mode in [[], ["--no-bundles"]] {
            // analyze sends a whole file's messages as fast as it reads them (about 9,000 datagrams in a
            // fraction of a second without bundles), and oscdump cannot enlarge its receive buffer as
            // RoutingCapture does: on a loaded machine the kernel may drop a datagram oscdump was too slow to
            // take. Such a run says nothing about jacktap, so it is repeated (the kernel's own drop count for
            // oscdump's socket tells it apart); a message missing without a kernel drop still fails.
            var voidRuns = [Int]()
            for attempt in 1...Self.attemptsAgainstKernelDrops {
                let receiver = try Receiver(.oscdump)
                let json = try Tool.run(Tool.jacktap, ["analyze", path, "--json", "--osc",
                                                       "127.0.0.1:\(receiver.port)", "--pair", "in_1,in_2"] + mode)
                let received = try receiver.messages().map { (address: $0.address, args: $0.args) }
                if receiver.droppedByKernel > 0 {
                    voidRuns.append(receiver.droppedByKernel)
                    if attempt < Self.attemptsAgainstKernelDrops { continue }
                }
                assertAgreement(json: json, received: received,
                                "oscdump \(mode) (datagrams the kernel dropped for oscdump, run by run: \(voidRuns))")
                break
            }
        }
    }
}
