import ArgumentParser

/// The long options of one command, read from its own help screen (hidden ones included), so that the
/// configuration file knows every option, including ones added later, without a list of its own.
struct ConfigOptionTable {
    /// Whether an option takes a value or is a flag.
    enum Kind: Equatable { case value, flag }

    /// Long name (without "--") → kind. An inverted flag `--[no-]x` gives both `x` and `no-x`.
    var kinds: [String: Kind] = [:]

    init(_ command: ParsableCommand.Type) {
        let help = Jacktap.helpMessage(for: command, includeHidden: true, columns: 10_000)
        for line in help.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-") else { continue }
            // The names end where the description starts (two spaces), e.g. "-n, --name <name>  JACK client name."
            let names = trimmed.components(separatedBy: "  ").first ?? String(trimmed)
            for spelling in names.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard spelling.hasPrefix("--") else { continue }
                let parts = spelling.split(separator: " ", maxSplits: 1)
                let kind: Kind = parts.count > 1 && parts[1].hasPrefix("<") ? .value : .flag
                for alternative in parts[0].split(separator: "/") {
                    var name = String(alternative.dropFirst(2))
                    if name.hasPrefix("[no-]") {
                        name.removeFirst(5)
                        kinds["no-" + name] = .flag
                    }
                    kinds[name] = kind
                }
            }
        }
    }
}
