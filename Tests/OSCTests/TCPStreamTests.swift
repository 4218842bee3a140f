import Foundation
import OSC
import XCTest

/// The OS2L connection: a refused connect is an error, not a hang; a receiver that stops reading makes a send
/// fail within its timeout; a receiver that closes is noticed.
final class TCPStreamTests: XCTestCase {
    struct ListenFailed: Error { let errno: Int32 }

    /// A listening TCP socket on 127.0.0.1 (port chosen by the kernel) with a small receive buffer.
    func listener() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 1_024
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ListenFailed(errno: errno) }
        addTeardownBlock { close(fd) }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    func testAConnectionRefusedIsAnErrorAtOnce() throws {
        let (fd, port) = try listener()
        close(fd)  // nobody listens there any more
        let started = Date()
        guard case .failure(let error) = TCPStream.connect(host: "127.0.0.1", port: port, timeout: 5) else {
            return XCTFail("connected to a closed port")
        }
        XCTAssertTrue(error.description.contains("refused"), error.description)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testAReceiverThatStopsReadingFailsTheSendWithinItsTimeout() throws {
        let (fd, port) = try listener()
        let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 5).get()
        let accepted = accept(fd, nil, nil)
        defer { close(accepted) }
        // Messages until the kernel's buffers on both sides are full: then a send waits its 0.2 s and fails.
        let message = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        var failure: TCPStreamError?
        var sends = 0
        while failure == nil && sends < 10_000 {
            let started = Date()
            if case .failure(let error) = stream.send(message, timeout: 0.2) {
                failure = error
                XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the send gave up within its timeout")
            }
            sends += 1
        }
        XCTAssertEqual(failure?.description.contains("takes nothing"), true, "\(String(describing: failure))")
    }

    func testAReceiverThatClosesIsNoticed() throws {
        let (fd, port) = try listener()
        let stream = try TCPStream.connect(host: "127.0.0.1", port: port, timeout: 5).get()
        let accepted = accept(fd, nil, nil)
        XCTAssertFalse(stream.peerClosed)
        XCTAssertNoThrow(try stream.send(Array("{\"evt\":\"beat\"}".utf8), timeout: 1).get())
        close(accepted)
        XCTAssertTrue(stream.peerClosed)
    }
}
