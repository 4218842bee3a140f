import Hummingbird
import HTTPTypes
import HummingbirdCore
import PrometheusExport
import NIOCore

/// `--metrics [HOST:]PORT`: `GET /metrics` alone, for a rack machine that should not serve the meter bridge's
/// page. The same route joins the meter bridge under `--http`. A scrape copies the newest figures from
/// ``ScrapeState`` and writes the text on NIO's thread: it never waits on the analysis.
public final class MetricsServer: Sendable {
    /// Where the server listens, `HOST:PORT`.
    public let boundAddress: String
    private let listener: HTTPListener

    /// A connection that sends nothing for this long is closed (Prometheus keeps its connection alive between
    /// scrapes of 5 s and more; it opens a new one when this one is gone).
    static let idleTimeout = TimeAmount.seconds(60)

    /// The exposition format's media type (Prometheus text format 0.0.4).
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public init(host: String, port: UInt16, metrics: ScrapeState) throws(MeterBridgeError) {
        let router = Router()
        Self.route(router, metrics)
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: "jacktap: Prometheus metrics at /metrics\n")))
        }
        listener = try HTTPListener(plain: router, host: host, port: port, idleTimeout: Self.idleTimeout)
        boundAddress = listener.boundAddress
    }

    /// Closes the listening socket and every connection, and waits until the server has stopped.
    public func stop() { listener.stop() }

    /// Adds `GET /metrics` to `router`.
    static func route(_ router: Router<BasicRequestContext>, _ metrics: ScrapeState) {
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: contentType, .cacheControl: "no-store"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.scrape())))
        }
    }
}
