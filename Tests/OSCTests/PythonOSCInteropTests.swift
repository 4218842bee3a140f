import Foundation
import Testing

@testable import OSC

/// python-osc (a codec no one here wrote) must read what we send, and we must read what it sends. Fails, not skips, when python3 or
/// python-osc is missing: it is part of the test environment.
@Suite(.serialized) struct PythonOSCInteropTests {
    /// Receives `count` datagrams on 127.0.0.1 and prints one JSON line per datagram, after printing the
    /// port it bound. The socket timeout keeps a failed test from hanging.
    static let receiverScript = """
        import datetime, json, socket, sys
        from pythonosc.osc_bundle import OscBundle
        from pythonosc.osc_packet import OscPacket
        count = int(sys.argv[1])
        def plain(value):
            # A "t" argument arrives as (datetime, fraction); send the NTP seconds instead.
            if isinstance(value, datetime.datetime):
                return int((value - datetime.datetime(1900, 1, 1)).total_seconds())
            if isinstance(value, bytes):
                return list(value)
            raise TypeError(repr(value))
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.settimeout(10)
        print(sock.getsockname()[1], flush=True)
        for _ in range(count):
            dgram = sock.recv(65536)
            packet = OscPacket(dgram)
            is_bundle = OscBundle.dgram_is_bundle(dgram)
            print(json.dumps({
                "bundle": is_bundle,
                "timestamp": OscBundle(dgram).timestamp if is_bundle else None,
                "messages": [
                    {"time": m.time, "address": m.message.address,
                     "params": [list(p) if isinstance(p, bytes) else p for p in m.message.params]}
                    for m in packet.messages
                ],
            }, default=plain), flush=True)
        """

    /// Starts the receiver for `count` datagrams, lets `body` send to its port, and returns the decoded
    /// datagrams.
    private func decode(count: Int, _ body: (UDPSender) -> Void) throws -> [[String: Any]] {
        let python = try #require(ExternalTool.path(of: "python3"), "python3 is not installed")
        let scriptPath = ExternalTool.temporaryPath("receiver.py")
        try Self.receiverScript.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [scriptPath, String(count)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { ExternalTool.kill(process) }
        let port = try #require(
            readLine(from: output.fileHandleForReading).flatMap { UInt16($0) },
            "python-osc receiver did not start: \(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))"
        )
        body(try UDPSender(destinations: [try OSCDestination(parsing: "127.0.0.1:\(port)")]))
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "python-osc receiver failed: \(stderr)")
        return try String(decoding: rest, as: UTF8.self).split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Reads bytes up to a newline from a pipe, without waiting for the writer to finish.
    private func readLine(from handle: FileHandle) -> String? {
        var line: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }

    @Test func pythonOSCDecodesPlainMessage() throws {
        let decoded = try decode(count: 1) { sender in
            sender.send(OSCMessage("/jacktap/band/3", [.int32(42), .float32(0.75), .string("kick"), .blob([1, 2, 3])]).encoded)
        }
        try #require(decoded.count == 1)
        #expect(decoded[0]["bundle"] as? Bool == false)
        let messages = try #require(decoded[0]["messages"] as? [[String: Any]])
        try #require(messages.count == 1)
        #expect(messages[0]["address"] as? String == "/jacktap/band/3")
        let params = try #require(messages[0]["params"] as? [Any])
        try #require(params.count == 4)
        #expect(params[0] as? Int == 42)
        #expect(params[1] as? Double == 0.75)
        #expect(params[2] as? String == "kick")
        #expect(params[3] as? [Int] == [1, 2, 3])
    }

    @Test func pythonOSCDecodesBundleTimetagAndNestedBundle() throws {
        // Future time tags (2033), which python-osc reports as Unix time instead of "now". Halves and
        // quarters are exact in both a 2^-32 fraction and a Double.
        let inner = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 2_000_000_001.75), [.message(OSCMessage("/inner", [.int32(2)]))])
        let bundle = OSCBundle(
            timetag: OSCTimetag(unixSeconds: 2_000_000_000.5),
            [.message(OSCMessage("/outer", [.float32(-1.5), .string("s")])), .bundle(inner)])
        let decoded = try decode(count: 1) { sender in sender.send(.bundle(bundle)) }
        try #require(decoded.count == 1)
        #expect(decoded[0]["bundle"] as? Bool == true)
        #expect(decoded[0]["timestamp"] as? Double == 2_000_000_000.5)
        let messages = try #require(decoded[0]["messages"] as? [[String: Any]])
        try #require(messages.count == 2)
        #expect(messages[0]["address"] as? String == "/outer")
        #expect(messages[0]["time"] as? Double == 2_000_000_000.5)
        #expect((messages[0]["params"] as? [Any])?.first as? Double == -1.5)
        #expect((messages[0]["params"] as? [Any])?.last as? String == "s")
        #expect(messages[1]["address"] as? String == "/inner")
        #expect(messages[1]["time"] as? Double == 2_000_000_001.75)
        #expect((messages[1]["params"] as? [Any])?.first as? Int == 2)
    }

    @Test func pythonOSCDecodesOptionalTagsAndNestedArrays() throws {
        // python-osc reads h t d b T F N r m [ ]; it mis-reads what follows S, c or I, so those are left out.
        let message = OSCMessage(
            "/jacktap/optional",
            [
                .int64(-5_000_000_000), .timetag(OSCTimetag(rawValue: 0xE8FE_6F80_4000_0000)), .double(-0.1),
                .blob([0, 255]), .bool(true), .bool(false), .nil, .rgba(0x1122_3344),
                .midi(OSCMIDIMessage(port: 1, status: 0x90, data1: 60, data2: 100)),
                .array([.int32(1), .array([.string("a"), .double(2.5)]), .array([])]), .int32(9),
            ])
        let decoded = try decode(count: 1) { sender in sender.send(message.encoded) }
        try #require(decoded.count == 1)
        let messages = try #require(decoded[0]["messages"] as? [[String: Any]])
        try #require(messages.count == 1)
        #expect(messages[0]["address"] as? String == "/jacktap/optional")
        let params = try #require(messages[0]["params"] as? [Any])
        try #require(params.count == 11)
        #expect(params[0] as? Int == -5_000_000_000)
        #expect(params[1] as? [Int] == [0xE8FE_6F80, 0x4000_0000])
        #expect(params[2] as? Double == -0.1)
        #expect(params[3] as? [Int] == [0, 255])
        #expect(params[4] as? Bool == true)
        #expect(params[5] as? Bool == false)
        #expect(params[6] is NSNull)
        #expect(params[7] as? Int == 0x1122_3344)
        #expect(params[8] as? [Int] == [1, 0x90, 60, 100])
        let array = try #require(params[9] as? [Any])
        try #require(array.count == 3)
        #expect(array[0] as? Int == 1)
        let inner = try #require(array[1] as? [Any])
        #expect(inner.first as? String == "a")
        #expect(inner.last as? Double == 2.5)
        #expect((array[2] as? [Any])?.isEmpty == true)
        #expect(params[10] as? Int == 9)
    }

    /// Builds a nested bundle with python-osc's builders and prints it as hex.
    static let encoderScript = """
        from pythonosc.osc_bundle_builder import OscBundleBuilder
        from pythonosc.osc_message_builder import OscMessageBuilder
        message = OscMessageBuilder(address="/py/all")
        for value in [1, -5000000000, 0.5, "h\\u00e9", b"\\x01\\x02\\x03", True, False, None,
                      (1, 0x90, 60, 100), [1, ["a", 2.5]]]:
            message.add_arg(value)
        message.add_arg(2.25, "d")
        message.add_arg(0x11223344, "r")
        inner_message = OscMessageBuilder(address="/py/inner")
        inner_message.add_arg(7)
        inner = OscBundleBuilder(2000000001.75)
        inner.add_content(inner_message.build())
        outer = OscBundleBuilder(2000000000.5)
        outer.add_content(message.build())
        outer.add_content(inner.build())
        print(outer.build().dgram.hex())
        """

    @Test func weDecodeNestedBundleThatPythonOSCBuilt() throws {
        let python = try #require(ExternalTool.path(of: "python3"), "python3 is not installed")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.encoderScript]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let hex = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "python-osc encoder failed: \(stderr)")
        let expected = OSCPacket.bundle(
            OSCBundle(
                timetag: OSCTimetag(unixSeconds: 2_000_000_000.5),
                [
                    .message(
                        OSCMessage(
                            "/py/all",
                            [
                                .int32(1), .int64(-5_000_000_000), .float32(0.5), .string("h\u{E9}"), .blob([1, 2, 3]),
                                .bool(true), .bool(false), .nil,
                                .midi(OSCMIDIMessage(port: 1, status: 0x90, data1: 60, data2: 100)),
                                .array([.int32(1), .array([.string("a"), .float32(2.5)])]), .double(2.25),
                                .rgba(0x1122_3344),
                            ])),
                    .bundle(
                        OSCBundle(
                            timetag: OSCTimetag(unixSeconds: 2_000_000_001.75), [.message(OSCMessage("/py/inner", [.int32(7)]))])),
                ]))
        #expect(try OSCPacket(decoding: bytes(hex)) == expected)
    }
}
