import Yams

/// A configuration value that cannot stand for its option.
struct ConfigValueError: Error {
    let message: String
}

/// Turns one YAML value into `--key=value` tokens: a scalar into one, a list into one per item; a flag
/// takes true/false; an `osc` destination may be a mapping {host, port, filter, scale, …}, written back in
/// the `HOST:PORT,key=value` syntax; another mapping becomes one `NAME=VALUE` token per entry (`program`,
/// `pair`); the `dmx` list becomes `--dmx=FILE`, the file itself.
enum ConfigValues {
    static let truths = ["true", "yes", "on"]
    static let falsities = ["false", "no", "off"]

    static func tokens(key: String, kind: ConfigOptionTable.Kind, value: Node, table: ConfigOptionTable, file: String)
        throws(ConfigValueError) -> [String]
    {
        // The DMX mapping stays in the file, where its errors can name their lines: `--dmx` reads it from there.
        if key == "dmx", case .sequence = value { return ["--dmx=" + file] }
        switch kind {
        case .flag:
            guard let text = value.scalar?.string.lowercased() else { throw ConfigValueError(message: "expected true or false") }
            if truths.contains(text) { return ["--" + key] }
            if falsities.contains(text) { return table.kinds["no-" + key] == .flag ? ["--no-" + key] : [] }
            throw ConfigValueError(message: "'\(text)' is not true or false")
        case .value:
            switch value {
            case .scalar(let scalar):
                if scalar.tag.description.hasSuffix(":null") || scalar.string == "~" {
                    throw ConfigValueError(message: "has no value")
                }
                return ["--\(key)=\(scalar.string)"]
            case .sequence(let items):
                var tokens = [String]()
                for item in items { tokens += try Self.tokens(key: key, kind: kind, value: item, table: table, file: file) }
                return tokens
            case .mapping(let entries):
                if key == "osc" { return ["--osc=" + (try destination(entries))] }
                var tokens = [String]()
                for (name, entry) in entries {
                    guard let name = name.string, let text = entry.scalar?.string else {
                        throw ConfigValueError(message: "expected NAME: VALUE entries")
                    }
                    tokens.append("--\(key)=\(name)=\(text)")
                }
                return tokens
            default:
                throw ConfigValueError(message: "YAML aliases are not supported here")
            }
        }
    }

    /// `{host: 192.168.1.255, port: 7700, broadcast: true, filter: [/a, /b], scale: unit}` as
    /// `192.168.1.255:7700,broadcast,filter=/a|/b,scale=unit`.
    static func destination(_ entries: Node.Mapping) throws(ConfigValueError) -> String {
        var host = "127.0.0.1"
        var port: String?
        var settings = [String]()
        for (name, entry) in entries {
            guard let name = name.string else { throw ConfigValueError(message: "a destination key that is not text") }
            let values: [String]
            switch entry {
            case .scalar(let scalar): values = [scalar.string]
            case .sequence(let items): values = items.compactMap { $0.scalar?.string }
            default: throw ConfigValueError(message: "destination key '\(name)' needs a value or a list")
            }
            switch name {
            case "host": host = values.first ?? host
            case "port": port = values.first
            case "filter": settings.append("filter=" + values.joined(separator: "|"))
            default:
                for value in values {
                    let lowered = value.lowercased()
                    if truths.contains(lowered), ["broadcast", "bundles", "plain"].contains(name) {
                        settings.append(name)
                    } else if falsities.contains(lowered), ["bundles", "plain"].contains(name) {
                        settings.append("\(name)=no")
                    } else if falsities.contains(lowered), name == "broadcast" {
                        continue
                    } else {
                        settings.append("\(name)=\(value)")
                    }
                }
            }
        }
        guard let port else { throw ConfigValueError(message: "a destination mapping needs a port") }
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return ([address] + settings).joined(separator: ",")
    }
}
