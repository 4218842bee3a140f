import ArgumentParser
import JackHost
import Live
import Spawn

/// `jacktap ports`: what can be tapped, and what is connected to what.
struct Ports: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the JACK server's ports and their connections.",
        discussion: "Source ports (out) are what jacktap can tap; pass them by name or match them with --connect."
    )

    func run() throws {
        let client: JackClient
        do { client = try JackClient(name: "jacktap-ports") } catch {
            Failure(description: error.description, code: Failure.noServer).exit()
        }
        defer { client.close() }
        let ports = client.describePorts().filter { !$0.name.hasPrefix(client.name + ":") }
        let width = ports.map(\.name.count).max() ?? 0
        for port in ports {
            let kind = port.type.contains("audio") ? "audio" : port.type.contains("midi") ? "midi" : port.type
            var line = port.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            line += (port.isOutput ? "out  " : "in   ") + kind
            if !port.connections.isEmpty {
                line += (port.isOutput ? "  → " : "  ← ") + port.connections.joined(separator: ", ")
            }
            StandardOutput.write(line + "\n")
        }
    }
}
