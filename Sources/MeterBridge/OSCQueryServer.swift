import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import OSCOut

/// `--oscquery`: jacktap's address space for OSCQuery clients (Chataigne, TouchDesigner, ossia score, VRChat-style
/// tools), read-only but for the control input's commands. `GET /` (or any address, `/jacktap/in_1`) answers the
/// node as JSON ``OSCQueryNamespace`` writes from the schema and the newest values; `GET /PATH?ATTRIBUTE` only
/// that attribute; `GET /?HOST_INFO` the server's name and where the control input listens. An address jacktap
/// does not have is 404, an attribute it does not know 400, one the node lacks 204, as the OSCQuery proposal says.
public final class OSCQueryServer: Sendable {
    /// Where the server listens, `HOST:PORT`.
    public let boundAddress: String
    private let listener: HTTPListener

    /// A connection that sends nothing for this long is closed.
    static let idleTimeout = TimeAmount.seconds(30)

    /// The attributes a query may ask for alone.
    static let attributes: Set<String> = ["FULL_PATH", "CONTENTS", "TYPE", "ACCESS", "VALUE", "RANGE", "UNIT",
                                          "DESCRIPTION", "TAGS", "CLIPMODE", "CRITICAL", "EXTENDED_TYPE"]

    /// Starts listening on `host`:`port`; `namespace` describes the addresses, `latest` holds their newest values,
    /// `name` is HOST_INFO's NAME and `control` where the control input listens (nil without `--listen`).
    public init(host: String, port: UInt16, namespace: OSCQueryNamespace, latest: LatestFigures, name: String,
                control: (host: String, port: UInt16)?) throws(MeterBridgeError) {
        let router = Router()
        let hostInfo = OSCQueryNamespace.text(
            OSCQueryNamespace.hostInfo(name: name, oscHost: control?.host, oscPort: control?.port))
        let answer: @Sendable (Request) -> Response = { request in
            Self.answer(path: request.uri.path, query: request.uri.query, namespace: namespace, latest: latest,
                        hostInfo: hostInfo)
        }
        router.get("/") { request, _ in answer(request) }
        router.get("**") { request, _ in answer(request) }
        listener = try HTTPListener(plain: router, host: host, port: port, idleTimeout: Self.idleTimeout)
        boundAddress = listener.boundAddress
    }

    /// Closes the listening socket and every connection, and waits until the server has stopped.
    public func stop() { listener.stop() }

    /// The answer to `GET path?query`.
    static func answer(path: String, query: String?, namespace: OSCQueryNamespace, latest: LatestFigures,
                       hostInfo: String) -> Response {
        if query == "HOST_INFO" { return json(hostInfo) }
        let decoded = path.removingPercentEncoding ?? path
        let tree = namespace.tree(latest.read(), under: decoded)
        guard let node = OSCQueryNamespace.node(at: decoded, in: tree) else {
            return text(.notFound, "no such address: \(decoded)\n")
        }
        guard let query, !query.isEmpty else { return json(OSCQueryNamespace.text(node)) }
        guard attributes.contains(query) else { return text(.badRequest, "unknown attribute: \(query)\n") }
        guard let value = node[query] else { return Response(status: .noContent) }
        return json(OSCQueryNamespace.text([query: value]))
    }

    static func json(_ body: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static func text(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
