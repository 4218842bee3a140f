import Foundation
import ToolSupport
import XCTest

/// One datagram as python-osc (a decoder no one here wrote) decoded it.
struct CapturedDatagram {
    let size: Int
    let bundle: Bool
    /// (address, arguments) in order; ints stay Int, floats Double, strings String.
    let messages: [(address: String, args: [Any])]
}

/// A python-osc receiver that records every datagram (its size too) until stopped, optionally joined to a
/// multicast group, optionally inside a network namespace.
final class RoutingCapture {
    static let script = """
        import json, signal, socket, struct, sys
        from pythonosc.osc_bundle import OscBundle
        from pythonosc.osc_packet import OscPacket
        host, port, group = sys.argv[1], int(sys.argv[2]), sys.argv[3]
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)  # SO_RCVBUFFORCE: analyze sends as fast as it reads
        except OSError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        s.bind((host, port))
        if group != "-":
            s.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                         socket.inet_aton(group) + socket.inet_aton("127.0.0.1"))
        # SIGTERM: stop waiting, print what the socket already holds (everything sent before the caller
        # stopped us), then exit.
        stopping = []
        signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
        s.settimeout(0.1)
        print("ready", flush=True)
        while True:
            if stopping:
                s.setblocking(False)
            try:
                data, _ = s.recvfrom(65536)
            except (socket.timeout, BlockingIOError, InterruptedError):
                if stopping:
                    break
                continue
            msgs = [[t.message.address, list(t.message.params)] for t in OscPacket(data).messages]
            print(json.dumps({"size": len(data), "bundle": OscBundle.dgram_is_bundle(data), "messages": msgs}), flush=True)
        """

    let port = Tool.freeUDPPort()
    let process: ChildProcess
    let outputPath: String

    /// Listens on `host`:port (0.0.0.0 for broadcast and multicast), joined to `group` when given, inside
    /// network namespace `namespace` when given.
    init(host: String = "127.0.0.1", group: String? = nil, namespace: String? = nil) throws {
        let scriptPath = Tool.temporaryPath("routing-capture.py")
        try Self.script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        outputPath = Tool.temporaryPath("routing-capture-\(port).jsonl")
        unlink(outputPath)
        let command = ["python3", scriptPath, host, String(port), group ?? "-"]
        if let namespace {
            process = try Tool.start("ip", ["netns", "exec", namespace] + command, stdoutPath: outputPath)
        } else {
            process = try Tool.start(command[0], Array(command.dropFirst()), stdoutPath: outputPath)
        }
        let ready = waitFor(every: 0.05) {
            ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").hasPrefix("ready")
        }
        if !ready {
            stopAndReap(process)
            throw Tool.Failed(description: "the python-osc receiver did not start within \(eventTimeout) s")
        }
    }

    deinit {
        stopAndReap(process)
        unlink(outputPath)
    }

    /// Stops the receiver and returns what it decoded: on SIGTERM it prints every datagram its socket already
    /// holds before it exits, so whatever was sent before this call is in (no pause waiting for stragglers).
    func datagrams() -> [CapturedDatagram] {
        if process.isRunning {
            process.signal()
            process.wait()
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        unlink(outputPath)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let size = object["size"] as? Int, let bundle = object["bundle"] as? Bool,
                  let messages = object["messages"] as? [[Any]] else { return nil }
            return CapturedDatagram(size: size, bundle: bundle, messages: messages.map { ($0[0] as! String, $0[1] as! [Any]) })
        }
    }

    /// Every message of every datagram, in order.
    func messages() -> [(address: String, args: [Any])] {
        datagrams().flatMap(\.messages)
    }
}

/// Float values of a decoded argument list (ints count as numbers too).
func numbers(_ args: [Any]) -> [Double] {
    args.compactMap { ($0 as? NSNumber)?.doubleValue }
}

/// A sine file written by sox: `seconds` of silence, `tone` seconds at `dBFS`, `seconds` of silence.
func stepFile(_ name: String, channels: Int = 1, dBFS: Double = -6, tone: Double = 1, silence: Double = 0.5) throws -> String {
    let path = Tool.temporaryPath(name)
    var synth = ["synth", String(tone)]
    for channel in 0..<channels { synth += ["sine", String(220 * (channel + 1))] }
    try Tool.run("sox", ["-n", "-r", "48000", "-b", "24", "-c", String(channels), path] + synth
                 + ["gain", String(dBFS), "pad", String(silence), String(silence)])
    return path
}
