import Dispatch
import Glibc
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import Synchronization

/// A Hummingbird application of jacktap's (the meter bridge, OSCQuery) on SwiftNIO's own event-loop threads:
/// started and bound before `init` returns, stopped by ``stop()``.
final class HTTPListener: Sendable {
    /// Where the server listens, `HOST:PORT` (the port the kernel chose when asked for 0).
    let boundAddress: String
    private let running: Task<Void, Never>

    /// Seconds `stop` waits for the server's tasks.
    static let stopTimeout = 5.0

    /// Starts `router` behind `server` on `host`:`port` (an address, or a name that resolves to one of this
    /// machine's); returns once the socket listens.
    init(router: Router<BasicRequestContext>, server: HTTPServerBuilder, host: String, port: UInt16)
        throws(MeterBridgeError) {
        let started = Handoff<Result<String, MeterBridgeError>>()
        // No log: stdout carries `--json`, and what a client does wrong is the client's business.
        let quiet = Logger(label: "jacktap.http", factory: { _ in SwiftLogNoOpLogHandler() })
        let given = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let app = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(host, port: Int(port)), serverName: nil),
            onServerRunning: { channel in
                let address = channel.localAddress.map { bound in
                    let ip = bound.ipAddress ?? host
                    return "\(bound.protocol == .inet6 ? "[\(ip)]" : ip):\(bound.port ?? Int(port))"
                }
                started.put(.success(address ?? given))
            },
            logger: quiet
        )
        let running = Task.detached {
            do { try await app.run() } catch {
                // NIO's errors name the call and the errno; the user wants the errno's own words.
                let reason = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
                started.put(.failure(.cannotListen(address: given, reason: reason)))
            }
        }
        switch started.take() {
        case .success(let address): boundAddress = address
        case .failure(let error):
            running.cancel()
            throw error
        }
        self.running = running
    }

    /// `router` over plain HTTP/1 (no WebSocket) on `host`:`port`; a connection that sends nothing for
    /// `idleTimeout` is closed (IdleClosingChannel): OSCQuery, `--metrics`.
    convenience init(plain router: Router<BasicRequestContext>, host: String, port: UInt16, idleTimeout: TimeAmount)
        throws(MeterBridgeError) {
        try self.init(
            router: router,
            server: HTTPServerBuilder { responder in
                IdleClosingChannel(
                    base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: idleTimeout)),
                    timeout: idleTimeout)
            },
            host: host, port: port)
    }

    /// Closes the listening socket and every connection, and waits until the server has stopped, at most
    /// `stopTimeout` seconds: jacktap is exiting, and a connection that ignored the cancellation goes with it.
    func stop() {
        running.cancel()
        let done = Handoff<Bool>()
        let running = self.running
        Task.detached {
            await running.value
            done.put(true)
        }
        _ = done.take(timeout: Self.stopTimeout)
    }
}

/// One value handed from a task to the thread that waits for it (the first one put is kept).
final class Handoff<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    func put(_ new: T) {
        let first = value.withLock { stored in
            guard stored == nil else { return false }
            stored = new
            return true
        }
        if first { ready.signal() }
    }

    func take() -> T {
        ready.wait()
        return value.withLock { $0! }
    }

    /// The value, or nil if none came within `seconds`.
    func take(timeout seconds: Double) -> T? {
        guard ready.wait(timeout: .now() + seconds) == .success else { return nil }
        return value.withLock { $0 }
    }
}
