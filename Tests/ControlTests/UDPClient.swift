import Glibc
import OSC

/// A test's own UDP socket on 127.0.0.1: sends datagrams to the control port and reads what comes back.
final class UDPClient {
    let fd: Int32
    let target: UInt16

    init(target: UInt16, receiveTimeout: Double = 5) {
        self.target = target
        fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var local = Self.address(port: 0)
        withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            _ = bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        } }
        var time = timeval(tv_sec: Int(receiveTimeout), tv_usec: Int((receiveTimeout - receiveTimeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Sends one datagram without waiting; returns whether the kernel took it.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send($0) }
    }

    /// Sends one datagram without waiting; returns whether the kernel took it.
    @discardableResult
    func send(_ buffer: UnsafeRawBufferPointer) -> Bool {
        var to = Self.address(port: target)
        return withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        } } == buffer.count
    }

    func send(_ message: OSCMessage) { send(message.encoded) }

    /// The next datagram decoded, or nil when none comes within the receive timeout.
    func receive() -> OSCPacket? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count >= 0 else { return nil }
        return try? OSCPacket(decoding: buffer[0..<count])
    }

    /// Replies about `address` until one that is not a query item, or the query's "end".
    func replies(to address: String) -> [OSCMessage] {
        var found = [OSCMessage]()
        while let packet = receive() {
            for (_, message) in packet.messages() where message.arguments.first == .string(address) {
                found.append(message)
                if message.arguments.count > 1, [.string("ok"), .string("error"), .string("end")].contains(message.arguments[1]) {
                    return found
                }
            }
        }
        return found
    }
}
