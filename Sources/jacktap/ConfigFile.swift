import ArgumentParser
import Foundation
import Live
import Spawn
import Synchronization
import Yams

/// `--config FILE`: a YAML file whose keys are the long option names (`osc`, `rate`, `connect`, `json`, …),
/// turned into command-line tokens placed before the user's own, so every option (including ones added
/// later) works from a file without code of its own.
///
/// Precedence: the command line wins. An option the command line gives drops the file's value for it
/// entirely (so a list such as `--osc` given on the command line replaces the file's list rather than
/// adding to it); a scalar given by a short name (`-n`) still wins because ArgumentParser keeps the last
/// value and the file's tokens come first. A key that another subcommand takes (`connect` with `analyze`)
/// is skipped, so one rig file serves `run` and `analyze`; a key no subcommand takes is an error.
enum ConfigFile {
    /// The user's arguments with the file's tokens inserted, and the file (nil when none was given).
    struct Expansion {
        var arguments: [String]
        var file: String?
        /// The keys the file contributed (for naming the file in errors about them).
        var keys: [String]
    }

    /// The arguments jacktap started with as given (`original`) and with the file's tokens (`arguments`), and
    /// the file: SIGHUP expands `original` again and compares. Under NSM, the session's state file.
    static let started = Mutex<(original: [String], arguments: [String], file: String?)>(([], [], nil))

    /// The long option names whose tokens differ between two expansions of the same command line.
    static func changedKeys(from old: [String], to new: [String]) -> Set<String> {
        let difference = Set(old).symmetricDifference(Set(new))
        return Set(difference.compactMap { token -> String? in
            guard token.hasPrefix("--") else { return nil }
            return String(token.dropFirst(2).prefix { $0 != "=" })
        })
    }

    /// Runs jacktap with `CommandLine.arguments`, expanding `--config FILE` first.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let expansion: Expansion
        do { expansion = try expand(arguments) } catch { error.exit() }
        started.withLock { $0 = (arguments, expansion.arguments, expansion.file) }
        guard let file = expansion.file else { Jacktap.main(arguments); return }
        var command: ParsableCommand
        do {
            command = try Jacktap.parseAsRoot(expansion.arguments)
        } catch {
            let message = Jacktap.message(for: error)
            if let key = expansion.keys.first(where: { mentions(message, option: $0) }) {
                StandardOutput.error("jacktap: config file '\(file)', key '\(key)': \(message)\n")
                Jacktap.exit(withError: ExitCode(Jacktap.exitCode(for: error).rawValue == 0 ? 0 : Failure.usage))
            }
            Jacktap.exit(withError: error)
        }
        do { try command.run() } catch { Jacktap.exit(withError: error) }
    }

    /// Finds `--config FILE` (or `--config=FILE`) in `arguments`, removes it, and inserts the file's tokens
    /// after the subcommand name (or first, for the default subcommand).
    static func expand(_ arguments: [String]) throws(Failure) -> Expansion {
        var user = [String]()
        var file: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { user += arguments[index...]; break }
            var value: String?
            if argument == "--config" {
                guard index + 1 < arguments.count else { throw Failure(description: "--config needs a FILE", code: Failure.usage) }
                value = arguments[index + 1]
                index += 2
            } else if argument.hasPrefix("--config=") {
                value = String(argument.dropFirst("--config=".count))
                index += 1
            } else {
                user.append(argument)
                index += 1
                continue
            }
            guard file == nil else { throw Failure(description: "--config given twice", code: Failure.usage) }
            file = value
        }
        guard let file else { return Expansion(arguments: arguments, file: nil, keys: []) }
        let subcommands = Jacktap.configuration.subcommands
        let named = user.first.flatMap { first in subcommands.first { $0._commandName == first } }
        let command = named ?? Jacktap.configuration.defaultSubcommand ?? Run.self
        let insertAt = named == nil ? 0 : 1
        let (tokens, keys) = try tokens(fromFile: file, for: command, userArguments: user)
        user.insert(contentsOf: tokens, at: insertAt)
        return Expansion(arguments: user, file: file, keys: keys)
    }

    /// The tokens the file stands for, for `command`, leaving out options the user gave.
    static func tokens(fromFile file: String, for command: ParsableCommand.Type, userArguments: [String])
        throws(Failure) -> (tokens: [String], keys: [String])
    {
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch {
            let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
            throw Failure(description: "cannot read config file '\(file)': \(reason)", code: Failure.badFile)
        }
        func fail(_ message: String) -> Failure {
            Failure(description: "config file '\(file)': \(message)", code: Failure.usage)
        }
        let root: Node?
        do { root = try Yams.compose(yaml: text) } catch { throw fail("not valid YAML: \(error)") }
        guard let root else { return ([], []) }
        guard let mapping = root.mapping else { throw fail("expected key: value lines (a YAML mapping) at the top") }
        let own = ConfigOptionTable(command)
        let everyCommand = Jacktap.configuration.subcommands.map(ConfigOptionTable.init)
        var tokens = [String]()
        var keys = [String]()
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else { throw fail("a key that is not text: \(keyNode)") }
            if key == "config" { throw fail("key 'config': a config file cannot name another") }
            guard let kind = own.kinds[key] else {
                if everyCommand.contains(where: { $0.kinds[key] != nil }) { continue }
                let known = Set(everyCommand.flatMap(\.kinds.keys)).subtracting(["config", "help", "version"]).sorted()
                throw fail("unknown key '\(key)' (keys are long option names: \(known.joined(separator: ", ")))")
            }
            if userArguments.contains(where: { $0 == "--" + key || $0.hasPrefix("--" + key + "=") }) { continue }
            do throws(ConfigValueError) {
                tokens += try ConfigValues.tokens(key: key, kind: kind, value: value, table: own, file: file)
            } catch {
                throw fail("key '\(key)': \(error.message)")
            }
            keys.append(key)
        }
        return (tokens, keys)
    }

    /// Whether an ArgumentParser message is about `--option` (not a longer name that starts the same).
    static func mentions(_ message: String, option: String) -> Bool {
        var search = message[...]
        while let range = search.range(of: "--" + option) {
            let rest = search[range.upperBound...]
            if rest.first.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { return true }
            search = rest
        }
        return false
    }
}
