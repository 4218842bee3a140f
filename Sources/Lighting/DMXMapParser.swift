import OSC
import Schema
import Yams

/// Reads the `dmx:` list of a configuration file (or a file that is only that list) into universes, checking
/// every entry against the schema and the standards before anything is sent: a path the schema lacks, a slot over
/// 512, a universe out of range, a host that does not resolve are errors naming their line.
///
/// ```yaml
/// dmx:
///   - protocol: sacn          # or artnet
///     universe: 1             # sACN 1-63999; Art-Net port-address 0-32767
///     to: 192.0.2.50          # optional: unicast (or a subnet's broadcast)
///     priority: 100           # sACN
///     rate: 30                # frames a second, at most 44
///     channels:
///       1: /jacktap/in_1/level
///       2: {path: /jacktap/in_1/bands7, arg: 0, curve: gamma}
///       3-4: {path: /jacktap/main/loudness/momentary, width: 16, from: -40, to: 0}
///       5: {event: /jacktap/in_1/beat, value: 255, hold: 0.05}
/// ```
public enum DMXMapParser {
    static let universeKeys: Set<String> = ["protocol", "universe", "to", "priority", "rate", "channels"]
    static let channelKeys: Set<String> = ["path", "event", "arg", "width", "from", "to", "curve", "gamma", "attack",
                                           "release", "value", "off", "hold", "mode"]

    /// The universes of `text` (the contents of `file`). `resolve` makes a destination of a host and port (it
    /// looks the name up; tests may give another).
    public static func parse(_ text: String, file: String,
                             resolve: (String, UInt16) throws -> OSCDestination = { try OSCDestination(host: $0, port: $1) })
        throws(DMXMapError) -> [DMXUniverseMap]
    {
        func fail(_ node: Node?, _ message: String) -> DMXMapError {
            DMXMapError(file: file, line: node?.mark?.line ?? 0, message: message)
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw fail(nil, "not valid YAML: \(error)") }
        var list: Node? = root
        if let mapping = root?.mapping {
            list = mapping.first { $0.key.string == "dmx" }?.value
            guard list != nil else { throw fail(root, "no `dmx:` list") }
        }
        guard let entries = list?.sequence, !entries.isEmpty else {
            throw fail(list, "`dmx:` needs a list of universes (- protocol: sacn, universe: 1, channels: …)")
        }
        var universes = [DMXUniverseMap]()
        for entry in entries {
            universes.append(try universe(entry, fail: fail, resolve: resolve))
        }
        for (i, a) in universes.enumerated() {
            for b in universes[..<i] where a.protocol == b.protocol && a.universe == b.universe && a.destination == b.destination {
                throw DMXMapError(file: file, line: a.line, message: "\(a.protocol.label) universe \(a.universe) to "
                                  + "\(a.destination) is already mapped on line \(b.line)")
            }
        }
        return universes
    }

    private static func universe(_ node: Node, fail: (Node?, String) -> DMXMapError,
                                 resolve: (String, UInt16) throws -> OSCDestination) throws(DMXMapError) -> DMXUniverseMap {
        guard let mapping = node.mapping else {
            throw fail(node, "a universe is a mapping: protocol, universe, to, priority, rate, channels")
        }
        var fields = [String: Node]()
        for (key, value) in mapping {
            guard let name = key.string, universeKeys.contains(name) else {
                throw fail(key, "unknown key '\(key.string ?? "?")' (a universe takes \(universeKeys.sorted().joined(separator: ", ")))")
            }
            fields[name] = value
        }
        let protocolName = fields["protocol"]?.string?.lowercased() ?? "sacn"
        guard let kind = DMXProtocol(rawValue: protocolName.replacingOccurrences(of: "-", with: "")) else {
            throw fail(fields["protocol"], "protocol '\(protocolName)' is neither sacn nor artnet")
        }
        guard let universeNode = fields["universe"] else { throw fail(node, "a universe needs `universe:`") }
        let universe = try integer(universeNode, "universe", fail: fail)
        guard kind.universes.contains(universe) else {
            throw fail(universeNode, "\(kind.label) universe \(universe) is out of range "
                       + "(\(kind.universes.lowerBound)-\(kind.universes.upperBound))")
        }
        var priority = 100
        if let node = fields["priority"] {
            guard kind == .sacn else { throw fail(node, "priority is sACN's; Art-Net has none") }
            priority = try integer(node, "priority", fail: fail)
            guard SACNPacket.priorities.contains(priority) else { throw fail(node, "priority \(priority) is out of range (0-200)") }
        }
        var rate = DMXUniverseMap.defaultRate
        if let node = fields["rate"] {
            rate = try number(node, "rate", fail: fail)
            guard rate >= 1, rate <= DMXUniverseMap.maxRate else {
                throw fail(node, "rate \(node.string ?? "") is out of range (1-44 frames a second)")
            }
        }
        let destination = try destination(fields["to"], kind: kind, universe: universe, fail: fail, resolve: resolve)
        guard let channelsNode = fields["channels"], let channels = channelsNode.mapping, !channels.isEmpty else {
            throw fail(fields["channels"] ?? node, "a universe needs `channels:` (slot: figure path, or slot: {path: …})")
        }
        var maps = [DMXChannelMap]()
        for (key, value) in channels {
            let map = try channel(key, value, fail: fail)
            if let other = maps.first(where: { $0.slots.overlaps(map.slots) }) {
                let slot = max(other.slots.lowerBound, map.slots.lowerBound)
                throw fail(key, "slot \(slot) is already mapped on line \(other.line)")
            }
            maps.append(map)
        }
        return DMXUniverseMap(line: node.mark?.line ?? 0, protocol: kind, universe: universe, destination: destination,
                              priority: priority, rate: rate, channels: maps.sorted { $0.first < $1.first })
    }

    private static func destination(_ node: Node?, kind: DMXProtocol, universe: Int, fail: (Node?, String) -> DMXMapError,
                                    resolve: (String, UInt16) throws -> OSCDestination) throws(DMXMapError) -> OSCDestination {
        var host = kind == .sacn ? SACNPacket.group(universe: universe) : "255.255.255.255"
        var port = kind.port
        if let node {
            guard let text = node.string, !text.isEmpty else { throw fail(node, "`to:` needs a host, or HOST:PORT") }
            host = text
            // HOST:PORT, [IPv6]:PORT; a bare IPv6 address has more than one colon.
            if let close = text.lastIndex(of: "]"), text.hasPrefix("[") {
                host = String(text[text.index(after: text.startIndex)..<close])
                let rest = text[text.index(after: close)...]
                if rest.hasPrefix(":") {
                    guard let value = UInt16(rest.dropFirst()), value > 0 else { throw fail(node, "port '\(rest.dropFirst())' is not 1-65535") }
                    port = value
                }
            } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
                host = String(text[..<colon])
                guard let value = UInt16(text[text.index(after: colon)...]), value > 0 else {
                    throw fail(node, "port '\(text[text.index(after: colon)...])' is not 1-65535")
                }
                port = value
            }
        }
        do {
            return try resolve(host, port)
        } catch {
            throw fail(node, "host '\(host)' does not resolve: \(error)")
        }
    }

    private static func channel(_ key: Node, _ value: Node, fail: (Node?, String) -> DMXMapError) throws(DMXMapError) -> DMXChannelMap {
        guard let text = key.string else { throw fail(key, "a channel key is a slot (5) or a range (3-4)") }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(bounds.count), let first = bounds[0], let last = bounds.last ?? nil else {
            throw fail(key, "'\(text)' is not a slot (5) or a range of slots (3-4)")
        }
        guard first >= 1, first <= 512 else { throw fail(key, "slot \(first) is out of range (1-512)") }
        guard last >= first else { throw fail(key, "range \(text) runs backward") }
        guard last <= 512 else { throw fail(key, "slot \(last) is over 512") }
        var fields = [String: Node]()
        if let mapping = value.mapping {
            for (name, entry) in mapping {
                guard let name = name.string, channelKeys.contains(name) else {
                    throw fail(name, "unknown key '\(name.string ?? "?")' (a channel takes \(channelKeys.sorted().joined(separator: ", ")))")
                }
                fields[name] = entry
            }
        } else if value.scalar != nil {
            fields["path"] = value
        } else {
            throw fail(value, "a channel is a figure path, or a mapping {path: …} or {event: …}")
        }
        var bits = 8
        if let node = fields["width"] {
            bits = try integer(node, "width", fail: fail)
            guard bits == 8 || bits == 16 else { throw fail(node, "width is 8 or 16 (bits), not \(bits)") }
        }
        let slots = last - first + 1
        if bits == 16 {
            guard first < 512 else { throw fail(key, "a 16-bit channel at slot 512 needs slot 513 for its fine byte; DMX has 512") }
            guard slots % 2 == 0 else { throw fail(key, "16-bit values take two slots each: \(text) covers \(slots)") }
        }
        let count = bits == 16 ? slots / 2 : slots
        let isEvent = fields["event"] != nil
        guard isEvent != (fields["path"] != nil) else { throw fail(value, "a channel takes `path:` or `event:` (one of them)") }
        let pathNode = fields["event"] ?? fields["path"]!
        guard let path = pathNode.string, path.hasPrefix("/") else { throw fail(pathNode, "a figure path starts with / (/jacktap/in_1/level)") }
        guard let figure = FigureSchema.figure(at: path) else {
            throw fail(pathNode, "'\(path)' is no figure jacktap sends (docs/osc-reference.md lists them)")
        }
        guard figure.scope != .session else {
            throw fail(pathNode, "'\(path)' is about the run, not a port, programme or pair: it cannot drive a channel")
        }
        let parts = path.split(separator: "/")
        let depth = figure.path.split(separator: "/").count
        let address = "/" + parts[parts.count - depth - 1] + figure.suffix
        var map = DMXChannelMap(line: key.mark?.line ?? 0, first: first, bits: bits, count: count,
                                source: .figure(address: address, argument: 0, repeated: false),
                                from: 0, to: 1, curve: .linear, attack: 0, release: 0, on: 1, off: 0)
        let maxValue = bits == 16 ? 65535.0 : 255.0
        if isEvent {
            let eventCadences: Set<FigureCadence> = [.atOnce, .withBeat, .withDownbeat, .atChange]
            guard eventCadences.contains(figure.cadence) else {
                throw fail(pathNode, "'\(path)' is sent \(figure.cadence.rawValue), not as an event: map it with `path:`")
            }
            for name in ["arg", "from", "to", "curve", "gamma"] where fields[name] != nil {
                throw fail(fields[name], "`\(name)` is for `path:` channels; an event takes value, off, hold, mode")
            }
            var toggle = false
            if let node = fields["mode"] {
                switch node.string {
                case "flash": toggle = false
                case "toggle": toggle = true
                default: throw fail(node, "mode is flash or toggle, not '\(node.string ?? "")'")
                }
            }
            var hold = 0.1
            if let node = fields["hold"] {
                guard !toggle else { throw fail(node, "hold is for flashes; a toggle holds until the next event") }
                hold = try number(node, "hold", fail: fail)
                guard hold > 0, hold <= 60 else { throw fail(node, "hold is seconds, more than 0 and at most 60") }
            }
            if let node = fields["value"] {
                let value = try number(node, "value", fail: fail)
                guard value >= 0, value <= maxValue else { throw fail(node, "value \(value) is out of range (0-\(Int(maxValue)))") }
                map.on = value / maxValue
            }
            if let node = fields["off"] {
                let value = try number(node, "off", fail: fail)
                guard value >= 0, value <= maxValue else { throw fail(node, "off \(value) is out of range (0-\(Int(maxValue)))") }
                map.off = value / maxValue
            }
            map.source = .event(address: address, toggle: toggle, hold: hold)
        } else {
            for name in ["value", "off", "hold", "mode"] where fields[name] != nil {
                throw fail(fields[name], "`\(name)` is for `event:` channels")
            }
            var argument = 0
            if let node = fields["arg"] {
                argument = try integer(node, "arg", fail: fail)
                guard argument >= 0 else { throw fail(node, "arg counts from 0") }
            }
            let repeated = count > 1 && !figure.typeTags.hasSuffix("*") && figure.typeTags.count == 1
            for index in argument..<(argument + (repeated ? 1 : count)) {
                guard let tag = tag(of: figure, at: index) else {
                    throw fail(fields["arg"] ?? key, "'\(path)' has \(figure.typeTags.count) argument(s) (\(figure.arguments.joined(separator: ", "))): "
                               + "there is no argument \(index)")
                }
                guard tag == "f" || tag == "i" else {
                    throw fail(fields["arg"] ?? pathNode, "argument \(index) of '\(path)' (\(figure.arguments[min(index, figure.arguments.count - 1)])) is not a number")
                }
            }
            if let node = fields["curve"] {
                switch node.string {
                case "linear": map.curve = .linear
                case "log": map.curve = .log
                case "gamma": map.curve = .gamma(2.2)
                default: throw fail(node, "curve is linear, log or gamma, not '\(node.string ?? "")'")
                }
            }
            if let node = fields["gamma"] {
                let exponent = try number(node, "gamma", fail: fail)
                guard exponent > 0, exponent <= 10 else { throw fail(node, "gamma is an exponent, more than 0 and at most 10") }
                guard case .gamma = map.curve else { throw fail(node, "gamma is for `curve: gamma`") }
                map.curve = .gamma(exponent)
            }
            if let fromNode = fields["from"], let toNode = fields["to"] {
                map.from = try number(fromNode, "from", fail: fail)
                map.to = try number(toNode, "to", fail: fail)
                guard map.from != map.to else { throw fail(toNode, "from and to are the same: no scale") }
            } else if fields["from"] != nil || fields["to"] != nil {
                throw fail(fields["from"] ?? fields["to"], "give both from and to")
            } else if let range = figure.range {
                map.from = range.lowerBound
                map.to = range.upperBound
            } else {
                let unit = figure.unit.isEmpty ? figure.arguments[min(argument, figure.arguments.count - 1)] : figure.unit
                throw fail(pathNode, "'\(path)' is in \(unit), not 0..1: give from and to (the values for 0 and full)")
            }
            if map.curve == .log, map.from <= 0 || map.to <= 0 {
                throw fail(fields["curve"], "a log curve needs from and to above 0")
            }
            map.source = .figure(address: address, argument: argument, repeated: repeated)
        }
        for name in ["attack", "release"] {
            guard let node = fields[name] else { continue }
            let seconds = try number(node, name, fail: fail)
            guard seconds >= 0, seconds <= 60 else { throw fail(node, "\(name) is seconds, 0 to 60") }
            if name == "attack" { map.attack = seconds } else { map.release = seconds }
        }
        return map
    }

    /// The OSC type tag of argument `index` of `figure`, nil if it has none there.
    static func tag(of figure: Figure, at index: Int) -> Character? {
        let tags = Array(figure.typeTags)
        if tags.last == "*" {
            let fixed = tags.count - 2
            return index < fixed ? tags[index] : tags[fixed]
        }
        return index < tags.count ? tags[index] : nil
    }

    private static func integer(_ node: Node, _ name: String, fail: (Node?, String) -> DMXMapError) throws(DMXMapError) -> Int {
        guard let text = node.scalar?.string, let value = Int(text) else { throw fail(node, "\(name) needs a whole number") }
        return value
    }

    private static func number(_ node: Node, _ name: String, fail: (Node?, String) -> DMXMapError) throws(DMXMapError) -> Double {
        guard let text = node.scalar?.string, let value = Double(text), value.isFinite else {
            throw fail(node, "\(name) needs a number")
        }
        return value
    }
}
