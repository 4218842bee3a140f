import Foundation
import OSC
import Output
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

    /// The whole tree for the newest figures: every figure of every port, programme and pair the newest tick
    /// had, the events of every port, the run's news and the commands.
    public func tree(_ latest: (messages: [String: OSCMessage], ports: [String], programmes: [String], pairs: [String]))
        -> [String: Any] {
        var leaves = [(path: String, node: [String: Any])]()
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
                leaves.append((prefix + address, node(figure, value: latest.messages[address])))
            }
        }
        if controlInput {
            for command in ControlNode.all {
                let arguments = command.arguments.joined(separator: ", ")
                let node: [String: Any] = [
                    "TYPE": command.typeTags, "ACCESS": Self.writeOnly,
                    "DESCRIPTION": command.summary + (arguments.isEmpty ? "" : " (" + arguments + ")"),
                ]
                leaves.append((prefix + "/" + command.verb, node))
            }
        }
        var root: [String: Any] = ["FULL_PATH": "/", "ACCESS": 0, "CONTENTS": [String: Any]()]
        for leaf in leaves { Self.insert(leaf.node, at: leaf.path, into: &root) }
        return root
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
            if let oscHost { info["OSC_IP"] = oscHost }
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
        case .float32(let v): Double(v)
        case .int32(let v): Int(v)
        case .string(let s): s
        default: NSNull()
        }
    }

    /// Puts `leaf` at `path` below `root`, making the containers on the way (each with its FULL_PATH).
    static func insert(_ leaf: [String: Any], at path: String, into root: inout [String: Any]) {
        let parts = path.split(separator: "/").map(String.init)
        func place(_ node: inout [String: Any], _ depth: Int) {
            var contents = node["CONTENTS"] as? [String: Any] ?? [:]
            let name = parts[depth]
            let full = "/" + parts[...depth].joined(separator: "/")
            if depth == parts.count - 1 {
                var leaf = leaf
                leaf["FULL_PATH"] = full
                if let existing = contents[name] as? [String: Any], let children = existing["CONTENTS"] {
                    leaf["CONTENTS"] = children
                }
                contents[name] = leaf
            } else {
                var child = contents[name] as? [String: Any] ?? ["FULL_PATH": full, "ACCESS": 0]
                place(&child, depth + 1)
                contents[name] = child
            }
            node["CONTENTS"] = contents
        }
        if !parts.isEmpty { place(&root, 0) }
    }

    /// `object` as JSON text, keys sorted (the same tree gives the same bytes).
    public static func text(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
