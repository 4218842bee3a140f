import Foundation
import OSC
import Schema

/// jacktap's OSC address space as OSCQuery describes it (Vidvox's OSCQuery proposal, 1.0): a tree of nodes with
/// FULL_PATH and CONTENTS, each address a leaf with TYPE, ACCESS, VALUE, RANGE, UNIT and DESCRIPTION, all
/// written from the schema of figures and the newest values; the control input's commands as writable nodes.
public struct OSCQueryNamespace: Sendable {
    /// The OSC prefix every address is under (`/jacktap`).
    public let prefix: String
    /// Whether the control input runs (`--listen`): its commands are then writable nodes.
    public let controlInput: Bool

    /// OSCQuery's ACCESS: 1 read-only (a figure), 2 write-only (a command).
    static let readOnly = 1, writeOnly = 2

    /// The namespace under `prefix`, with the control input's commands when `controlInput`.
    public init(prefix: String, controlInput: Bool) {
        self.prefix = prefix
        self.controlInput = controlInput
    }

    /// The tree for the newest figures: every figure of every port, programme and pair the newest tick had, the
    /// events of every port, the run's news and the commands; only the part at and below `path` (`/` for all),
    /// so that a client asking for one value costs one leaf, not the tree of every port.
    public func tree(_ latest: (messages: [String: OSCMessage], ports: [String], programmes: [String], pairs: [String]),
                     under path: String = "/") -> [String: Any] {
        let wanted = path.split(separator: "/").joined(separator: "/")
        func isWanted(_ address: String) -> Bool {
            if wanted.isEmpty { return true }
            let trimmed = address.dropFirst()
            return trimmed == wanted || trimmed.hasPrefix(wanted + "/") || wanted.hasPrefix(trimmed + "/")
        }
        let root = Builder(path: "/")
        for figure in FigureSchema.all {
            let owners: [String?]
            switch figure.scope {
            case .port: owners = latest.ports
            case .programme: owners = latest.programmes
            case .pair: owners = latest.pairs
            case .session: owners = [nil]
            }
            for owner in owners {
                let address = (owner.map { "/" + $0 } ?? "") + figure.suffix
                guard isWanted(prefix + address) else { continue }
                root.insert(node(figure, value: latest.messages[address]), at: prefix + address)
            }
        }
        if controlInput {
            for command in ControlNode.all where isWanted(prefix + "/" + command.verb) {
                let arguments = command.arguments.joined(separator: ", ")
                root.insert(["TYPE": command.typeTags, "ACCESS": Self.writeOnly,
                             "DESCRIPTION": command.summary + (arguments.isEmpty ? "" : " (" + arguments + ")")],
                            at: prefix + "/" + command.verb)
            }
        }
        return root.json()
    }

    /// A node while the tree is built: its attributes and its children by name, turned into JSON objects once.
    final class Builder {
        let path: String
        var attributes: [String: Any] = ["ACCESS": 0]
        var children: [String: Builder] = [:]

        init(path: String) { self.path = path }

        func insert(_ leaf: [String: Any], at address: String) {
            var node = self
            for part in address.split(separator: "/") {
                let name = String(part)
                if let child = node.children[name] {
                    node = child
                } else {
                    let child = Builder(path: (node.path == "/" ? "" : node.path) + "/" + name)
                    node.children[name] = child
                    node = child
                }
            }
            node.attributes = leaf
        }

        func json() -> [String: Any] {
            var object = attributes
            object["FULL_PATH"] = path
            if !children.isEmpty { object["CONTENTS"] = children.mapValues { $0.json() } }
            return object
        }
    }

    /// The node at `path` (`/jacktap/in_1`), nil if there is none.
    public static func node(at path: String, in tree: [String: Any]) -> [String: Any]? {
        var node = tree
        for part in path.split(separator: "/") {
            guard let child = (node["CONTENTS"] as? [String: Any])?[String(part)] as? [String: Any] else { return nil }
            node = child
        }
        return node
    }

    /// HOST_INFO: the server's name, the extensions it answers, and where the control input listens (`oscPort`,
    /// nil without one).
    public static func hostInfo(name: String, oscHost: String?, oscPort: UInt16?) -> [String: Any] {
        var info: [String: Any] = [
            "NAME": name,
            "EXTENSIONS": ["ACCESS": true, "VALUE": true, "RANGE": true, "DESCRIPTION": true, "UNIT": true,
                           "TYPE": true, "FULL_PATH": true, "CONTENTS": true, "TAGS": false, "CLIPMODE": false,
                           "CRITICAL": false, "LISTEN": false, "PATH_CHANGED": false],
        ]
        if let oscPort {
            info["OSC_PORT"] = Int(oscPort)
            info["OSC_TRANSPORT"] = "UDP"
            // A control input on every address names none: without OSC_IP a client sends to the HTTP host.
            if let oscHost, !["0.0.0.0", "::", "[::]"].contains(oscHost) { info["OSC_IP"] = oscHost }
        }
        return info
    }

    /// A figure's leaf: its type tags (a list as long as its newest value), read-only, its newest value when it
    /// has one, its range per argument, its unit per argument and its summary.
    func node(_ figure: Figure, value: OSCMessage?) -> [String: Any] {
        let arguments = value?.arguments ?? []
        var tags = figure.typeTags.filter { $0 != "*" }
        if figure.typeTags.hasSuffix("*"), value != nil {
            tags = String(repeating: tags, count: max(arguments.count, 1))
        }
        var node: [String: Any] = ["TYPE": tags, "ACCESS": Self.readOnly, "DESCRIPTION": figure.summary]
        if value != nil { node["VALUE"] = arguments.map(Self.json) }
        if let range = figure.range {
            node["RANGE"] = tags.map { _ in ["MIN": range.lowerBound, "MAX": range.upperBound] }
        }
        if !figure.unit.isEmpty {
            // The unit belongs to the figure's first float (a pitch's Hz, not its confidence; a beat's BPM).
            let first = tags.firstIndex(of: "f")
            node["UNIT"] = tags.indices.map { $0 == first ? figure.unit : "" }
        }
        return node
    }

    static func json(_ argument: OSCArgument) -> Any {
        switch argument {
        // JSON has no NaN or infinity (a NaN input sample could make one): null, as for a missing value.
        case .float32(let v): v.isFinite ? Double(v) : NSNull()
        case .int32(let v): Int(v)
        case .string(let s): s
        default: NSNull()
        }
    }

    /// `object` as JSON text, keys sorted (the same tree gives the same bytes).
    public static func text(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
