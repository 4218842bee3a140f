/// A TCP connection that sends short messages (OS2L's JSON beats) and never blocks its thread for longer
/// than the caller allows: the connect and every send wait at most their timeout, and a receiver that has gone
/// away is noticed (`peerClosed`) rather than waited on.
///
/// Used by one thread at a time.
public final class TCPStream {
    private var fd: Int32
    /// The address connected to, as text ("127.0.0.1:9996").
    public let peer: String

    private init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }

    deinit { close() }

    /// Connects to `host`:`port` (a name or a numeric address; each address it resolves to in turn), waiting
    /// at most `timeout` seconds for each.
    public static func connect(host: String, port: UInt16, timeout: Double) -> Result<TCPStream, TCPStreamError> {
        let addresses: [SocketAddress]
        switch Syscalls.resolveTCP(host: host, port: port) {
        case .success(let list): addresses = list
        case .failure(let error): return .failure(.resolve("\(host): \(error)"))
        }
        var last = TCPStreamError.connect("\(host):\(port): no address")
        for address in addresses {
            let fd: Int32
            switch Syscalls.tcpSocket(family: address.family) {
            case .success(let socket): fd = socket
            case .failure(let error): last = .connect("\(address): \(error)"); continue
            }
            _ = Syscalls.disableNagle(fd)
            if case .failure(let error) = Syscalls.connect(fd, to: address), error.rawValue != Syscalls.inProgress {
                Syscalls.close(fd)
                last = .connect("\(address): \(error)")
                continue
            }
            let ready = Syscalls.poll(fd, events: Syscalls.pollOut, milliseconds: Int32(timeout * 1_000))
            let outcome = Syscalls.pendingError(fd)
            if case .success(let events) = ready, events != 0, outcome == 0 {
                return .success(TCPStream(fd: fd, peer: "\(address)"))
            }
            Syscalls.close(fd)
            last = .connect("\(address): \(outcome != 0 ? Errno(rawValue: outcome).description : "timed out")")
        }
        return .failure(last)
    }

    /// Sends all of `bytes`, waiting at most `timeout` seconds in all for the receiver to take them; a
    /// failure leaves the stream unusable (close it and connect again).
    public func send(_ bytes: [UInt8], timeout: Double) -> Result<Void, TCPStreamError> {
        guard fd >= 0 else { return .failure(.closed) }
        var offset = 0
        var waited = 0.0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Syscalls.sendStream(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            switch result {
            case .success(let count):
                offset += count
            case .failure(let error) where error.rawValue == Syscalls.wouldBlock:
                // The receiver's window is full: it is slow or stalled. Wait for room, within the timeout.
                guard waited < timeout else { return .failure(.send("\(peer): the receiver takes nothing")) }
                let step = min(0.05, timeout - waited)
                _ = Syscalls.poll(fd, events: Syscalls.pollOut, milliseconds: Int32(step * 1_000))
                waited += step
            case .failure(let error) where error.rawValue == Syscalls.interrupted:
                continue
            case .failure(let error):
                return .failure(.send("\(peer): \(error)"))
            }
        }
        return .success(())
    }

    /// Whether the receiver closed the connection (or it broke). Whatever the receiver sent is read and
    /// dropped: jacktap only sends.
    public var peerClosed: Bool {
        guard fd >= 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            guard case .success(let events) = Syscalls.poll(fd, events: Syscalls.pollIn, milliseconds: 0) else { return true }
            if events & Syscalls.pollErrorOrHangUp != 0 { return true }
            guard events & Syscalls.pollIn != 0 else { return false }
            let read = buffer.withUnsafeMutableBytes { Syscalls.receiveStream(fd, into: $0) }
            switch read {
            case .success(0): return true
            case .success: continue
            case .failure(let error): return error.rawValue != Syscalls.wouldBlock
            }
        }
    }

    /// Closes the connection. Safe to call twice.
    public func close() {
        guard fd >= 0 else { return }
        Syscalls.close(fd)
        fd = -1
    }
}
