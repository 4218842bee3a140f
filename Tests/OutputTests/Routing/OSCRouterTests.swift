import Analysis
import Glibc
import OSC
import OSCOut
import XCTest

/// The router's destinations can be added and removed while it publishes (a control input's subscribe).
final class OSCRouterTests: XCTestCase {
    /// A UDP socket on 127.0.0.1 that collects datagrams.
    final class Listener {
        let fd: Int32
        let port: UInt16
        init() {
            let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) + getsockname(fd, $0, &length) }
            }
            port = UInt16(bigEndian: address.sin_port)
        }
        deinit { close(fd) }
        /// Every datagram that arrives within `timeout` seconds of the previous one.
        func drain(timeout: Double = 0.3) -> [[UInt8]] {
            var out = [[UInt8]]()
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while poll(&poller, 1, Int32(timeout * 1000)) == 1 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                out.append(Array(buffer.prefix(max(0, n))))
            }
            return out
        }
    }

    func tick(_ time: Double) -> Snapshot {
        Snapshot(time: time, ports: [PortReading(name: "in_1", peakDB: -6, rmsDB: -9, level: 0.5, bands: [0.25],
                                                 pitch: nil, note: nil)], overruns: 0)
    }

    func testAddAndRemoveChangeWhoReceivesAndReplaceASameAddressDestination() throws {
        let a = Listener(), b = Listener()
        let router = try OSCRouter([try DestinationSettings(parsing: "127.0.0.1:\(a.port)")], analysisRate: 30)
        router.publish(tick(0))
        try router.add(try DestinationSettings(parsing: "127.0.0.1:\(b.port),filter=//level,scale=byte,plain"))
        try router.add(try DestinationSettings(parsing: "127.0.0.1:\(b.port),filter=//level,scale=percent,plain"))
        XCTAssertEqual(router.destinations.count, 2)
        router.publish(tick(1.0 / 30))
        XCTAssertTrue(router.remove(host: "127.0.0.1", port: a.port))
        XCTAssertFalse(router.remove(host: "127.0.0.1", port: a.port))
        router.publish(tick(2.0 / 30))
        XCTAssertEqual(a.drain().count, 2)
        let received = try b.drain().map { try OSCPacket(decoding: $0) }
        XCTAssertEqual(received, [.message(OSCMessage("/jacktap/in_1/level", [.float32(50)]))] + [.message(OSCMessage("/jacktap/in_1/level", [.float32(50)]))])
    }

    func testAddingFromAnotherThreadWhilePublishingIsSafe() throws {
        let listener = Listener()
        let router = try OSCRouter([], analysisRate: 1000)
        let settings = try DestinationSettings(parsing: "127.0.0.1:\(listener.port),filter=//peak")
        let done = DispatchSemaphore(value: 0)
        let port = listener.port
        Thread {
            for _ in 0..<200 {
                try? router.add(settings)
                router.remove(host: "127.0.0.1", port: port)
            }
            done.signal()
        }.start()
        for i in 0..<2000 { router.publish(tick(Double(i) / 1000)) }
        done.wait()
        XCTAssertTrue(router.destinations.isEmpty)
    }

    func testEventsAreFilteredPrefixedAndCarryTheirTimetagInABundle() throws {
        let listener = Listener()
        let router = try OSCRouter([try DestinationSettings(parsing: "127.0.0.1:\(listener.port),prefix=/rig,filter=//beat,rate=1")],
                                   analysisRate: 30)
        let timetag = OSCTimetag(unixSeconds: 1_700_000_000.5)
        router.publish(AnalysisEvent(port: "in_1", kind: .onset(strength: 0.5), time: 1, reported: 1.01), timetag: .immediately)
        router.publish(AnalysisEvent(port: "in_1", kind: .beat(count: 3, bpm: 120), time: 2, reported: 1.9), timetag: timetag)
        router.publish(AnalysisEvent(port: "in_1", kind: .beat(count: 4, bpm: 120), time: 2.5, reported: 2.4), timetag: timetag)
        let received = try listener.drain().map { try OSCPacket(decoding: $0) }
        XCTAssertEqual(received, [3, 4].map { count in
            .bundle(OSCBundle(timetag: timetag, [.message(OSCMessage("/rig/in_1/beat", [.int32(Int32(count)), .float32(120)]))]))
        })
    }
}
