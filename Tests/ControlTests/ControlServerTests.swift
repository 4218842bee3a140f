import Control
import Glibc
import OSC
import OSCOut
import XCTest

/// The control socket: replies go back to the sender, malformed and unknown packets are counted and
/// ignored, and no flood of garbage stops it from answering.
final class ControlServerTests: XCTestCase {
    var graph: FakeGraph!
    var router: OSCRouter!
    var server: ControlServer!

    override func setUpWithError() throws {
        graph = FakeGraph(inputs: 2, sources: ["sys:out_1"])
        router = try OSCRouter([], analysisRate: 30)
        let session = ControlSession(router: router, graph: graph, prefix: "/jacktap", bundles: true, version: "t",
                                     requestReset: {})
        server = try ControlServer(listen: ListenAddress(host: "127.0.0.1", port: 0), session: session)
        server.start()
    }

    override func tearDown() {
        server.stop()
    }

    func testAPortOfZeroBindsAPortTheKernelChoseOnLoopback() {
        XCTAssertEqual(server.boundAddress.host, "127.0.0.1")
        XCTAssertNotEqual(server.boundAddress.port, 0)
    }

    func testRepliesGoBackToTheSendersAddressAndPort() {
        let client = UDPClient(target: server.boundAddress.port)
        client.send(OSCMessage("/jacktap/connect", [.string("sys:out_1")]))
        XCTAssertEqual(client.replies(to: "/jacktap/connect"),
                       [OSCMessage("/reply", [.string("/jacktap/connect"), .string("ok"), .string("jt:in_1")])])
        XCTAssertEqual(graph.inputs()[0].connections, ["sys:out_1"])
    }

    func testEachMessageOfABundleIsAnswered() {
        let client = UDPClient(target: server.boundAddress.port)
        let bundle = OSCBundle(timetag: .immediately, [
            .message(OSCMessage("/jacktap/subscribe", [.string("127.0.0.1"), .int32(9001)])),
            .message(OSCMessage("/jacktap/reset")),
        ])
        client.send(OSCPacket.bundle(bundle).encoded)
        XCTAssertEqual(client.replies(to: "/jacktap/subscribe").last?.arguments.dropFirst().first, .string("ok"))
        XCTAssertEqual(client.replies(to: "/jacktap/reset").last?.arguments.dropFirst().first, .string("ok"))
        XCTAssertEqual(router.destinations.map(\.destination.port), [9001])
    }

    func testMalformedAndUnknownPacketsAreCountedAndGetNoReply() {
        let client = UDPClient(target: server.boundAddress.port)
        client.send([0x2F, 0x6A, 0x74])                                         // 3 bytes: not OSC
        client.send([])                                                         // empty datagram
        client.send(Array("#bundle\0".utf8) + [0, 0, 0])                        // truncated bundle header
        client.send(OSCMessage("/jacktap/shutdown"))                            // no such command
        client.send(OSCMessage("/other/thing", [.float32(1)]))                  // not a control address
        client.send(OSCMessage("/jacktap/reset", [.int32(1)]))                  // a command with bad arguments
        let rejected = client.replies(to: "/jacktap/reset")
        XCTAssertEqual(rejected.count, 1)
        XCTAssertEqual(rejected.first?.arguments.dropFirst().first, .string("error"))
        client.send(OSCMessage("/jacktap/query"))
        let query = client.replies(to: "/jacktap/query")
        let packets = query.first { $0.arguments.dropFirst().first == .string("packets") }
        // packets, commands, malformed, unknown, rejected: the query itself is the seventh packet.
        XCTAssertEqual(packets?.arguments.dropFirst(2).map { $0 }, [.int32(7), .int32(1), .int32(3), .int32(2), .int32(1)])
        XCTAssertEqual(query.last?.arguments.dropFirst().first, .string("end"))
        // Nothing else came back: no reply to the malformed or unknown packets.
        XCTAssertNil(UDPClientDrain.next(client, timeout: 0.3))
    }

    func testAFloodOfRandomDatagramsNeitherBlocksNorStopsTheServer() {
        // SplitMix64 with a fixed seed: the same flood on every run, so a failure can be reproduced.
        var state: UInt64 = 0x6A61_636B_7461_7000
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let flood = UDPClient(target: server.boundAddress.port)
        let datagram = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
        defer { datagram.deallocate() }
        for index in 0..<100_000 {
            var count = Int(next() % 513)
            // Half of them a multiple of 4 long, as OSC requires, so the decoder reads past the length check.
            if index % 2 == 0 { count &= ~3 }
            for offset in stride(from: 0, to: 512, by: 8) { datagram.storeBytes(of: next(), toByteOffset: offset, as: UInt64.self) }
            // Every third one starts like a message so the decoder gets past the first byte.
            if index % 3 == 0, count >= 8 { datagram[0] = UInt8(ascii: "/") }
            // The kernel drops what the socket buffer cannot hold (EAGAIN here); that is part of a flood.
            flood.send(UnsafeRawBufferPointer(rebasing: datagram[0..<count]))
        }
        let client = UDPClient(target: server.boundAddress.port, receiveTimeout: 1)
        var answered = false
        for _ in 0..<20 where !answered {
            client.send(OSCMessage("/jacktap/query"))
            answered = client.replies(to: "/jacktap/query").last?.arguments.dropFirst().first == .string("end")
        }
        XCTAssertTrue(answered, "the server still answers after the flood")
        let counts = server.counts
        print("flood received: \(counts.summary)")
        XCTAssertGreaterThan(counts.malformed, 0)
        XCTAssertEqual(counts.rejected, 0, "random bytes never made a control address")
        server.stop()
        XCTAssertEqual(router.destinations.count, 0, "random bytes subscribed nothing")
    }
}

/// Reads one more datagram with a short timeout.
enum UDPClientDrain {
    static func next(_ client: UDPClient, timeout: Double) -> OSCPacket? {
        var time = timeval(tv_sec: 0, tv_usec: Int(timeout * 1e6))
        setsockopt(client.fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        return client.receive()
    }
}
