import Dispatch
import Glibc
import Hummingbird
import HTTPTypes
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import PrometheusExport
import NIOCore
import Synchronization

/// `--http`: a read-only meter bridge for a browser at front of house. `GET /` serves the page (its script and
/// style from `/meter-bridge.js` and `/meter-bridge.css`, all embedded in the binary: the server never opens a
/// file), `GET /snapshot.json` the newest tick exactly as `--json` prints it, and `/ws` streams the same lines
/// (ticks, events, the JACK status) to each WebSocket viewer, and `GET /metrics` the Prometheus exposition
/// (``MetricsServer``) when the run keeps one. Anything else is 404.
///
/// Hummingbird on SwiftNIO's own event-loop threads; the analysis thread only hands lines to `broadcast`.
/// NIO's HTTP parser works through a 1 MB request line in about a millisecond (and answers nothing to a head
/// over 80 KB), a connection that sends nothing for `idleTimeout` is closed (IdleClosingChannel), and a WebSocket
/// frame above `maxFrameSize` (a viewer has nothing to send but control frames) closes its connection.
public final class MeterBridgeServer: Sendable {
    /// The lines the viewers are sent.
    public let broadcast: LineBroadcast
    /// Where the server listens, `HOST:PORT` (the port the kernel chose when asked for 0).
    public let boundAddress: String

    private let listener: HTTPListener

    /// A connection that sends nothing for this long is closed: a browser's idle keep-alive, half a request,
    /// a WebSocket viewer that stopped answering the 15 s pings.
    static let idleTimeout = TimeAmount.seconds(30)
    /// The largest frame a viewer may send: control frames carry at most 125 bytes (RFC 6455 section 5.5).
    static let maxFrameSize = 4096

    /// Starts listening on `host`:`port` (an address, or a name that resolves to one of this machine's), serving
    /// the page with `prefix` as the OSC prefix its `data-path` attributes carry. Returns once the socket listens.
    public init(host: String, port: UInt16, prefix: String, broadcast: LineBroadcast, metrics: ScrapeState? = nil)
        throws(MeterBridgeError) {
        let router = Self.router(broadcast: broadcast, page: MeterBridgePage.html(prefix: prefix))
        if let metrics { MetricsServer.route(router, metrics) }
        listener = try HTTPListener(
            router: router,
            server: HTTPServerBuilder { responder in
                IdleClosingChannel(
                    base: HTTP1WebSocketUpgradeChannel(
                        responder: responder,
                        configuration: .init(
                            http1: .init(idleTimeout: Self.idleTimeout),
                            ws: .init(maxFrameSize: Self.maxFrameSize, autoPing: .enabled(timePeriod: .seconds(15)))
                        ),
                        shouldUpgrade: { request, _, _ in
                            guard request.path == "/ws" else { return .dontUpgrade }
                            return .upgrade([:]) { inbound, outbound, _ in
                                try await Self.serveViewer(broadcast: broadcast, inbound: inbound, outbound: outbound)
                            }
                        }
                    ),
                    timeout: Self.idleTimeout
                )
            },
            host: host, port: port)
        boundAddress = listener.boundAddress
        self.broadcast = broadcast
    }

    /// Closes the listening socket and every connection, and waits until the server has stopped.
    public func stop() { listener.stop() }

    /// The routes: four fixed paths, each served from memory; nothing is ever mapped onto the file system.
    static func router(broadcast: LineBroadcast, page: String) -> Router<BasicRequestContext> {
        let router = Router()
        let page = ByteBuffer(string: page)
        let script = ByteBuffer(string: MeterBridgePage.script)
        let style = ByteBuffer(string: MeterBridgePage.style)
        router.get("/") { _, _ in Self.response(page, type: "text/html; charset=utf-8") }
        router.get("/index.html") { _, _ in Self.response(page, type: "text/html; charset=utf-8") }
        router.get("/meter-bridge.js") { _, _ in Self.response(script, type: "text/javascript; charset=utf-8") }
        router.get("/meter-bridge.css") { _, _ in Self.response(style, type: "text/css; charset=utf-8") }
        router.get("/snapshot.json") { _, _ in
            guard let tick = broadcast.latestTick else {
                return Response(status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8", .retryAfter: "1"],
                                body: .init(byteBuffer: ByteBuffer(string: "no tick yet: the analysis has not started\n")))
            }
            return Self.response(ByteBuffer(string: tick + "\n"), type: "application/json")
        }
        return router
    }

    /// The page may load only what this server serves (Content Security Policy): no external resource, no inline
    /// script. `ws: wss:` besides 'self' for browsers of CSP level 2, where 'self' does not cover WebSockets.
    static let policy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:"

    static func response(_ body: ByteBuffer, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("Content-Security-Policy")!] = policy
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// One WebSocket viewer: the broadcast's lines go out as text frames, as fast as the viewer takes them (a
    /// write waits while the connection's send buffer is full, and the broadcast drops that viewer's oldest lines
    /// meanwhile). The stream is read-only: a viewer that sends a data frame gets a close with 1003.
    static func serveViewer(broadcast: LineBroadcast, inbound: WebSocketInboundStream,
                            outbound: WebSocketOutboundWriter) async throws {
        let viewer = broadcast.addViewer()
        defer { viewer.continuation.finish() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await line in viewer.lines { try await outbound.write(.text(line)) }
            }
            group.addTask {
                for try await _ in inbound {
                    try await outbound.close(.unacceptableData, reason: "read-only stream")
                    return
                }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }
}
