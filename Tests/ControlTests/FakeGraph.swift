import Control
import Synchronization

/// A JACK graph in memory: jacktap's inputs and the source ports that exist.
final class FakeGraph: ControlGraph, Sendable {
    let clientName = "jt"
    let sampleRate = 48_000
    let periodFrames = 256
    let sources: Set<String>
    let state: Mutex<[(name: String, connections: [String])]>

    init(inputs: Int, sources: Set<String>) {
        self.sources = sources
        state = Mutex((1...inputs).map { (name: "jt:in_\($0)", connections: [String]()) })
    }

    func inputs() -> [(name: String, connections: [String])] { state.withLock { $0 } }
    func isSourcePort(_ name: String) -> Bool { sources.contains(name) }

    func connect(_ source: String, to input: String) -> String? {
        state.withLock { inputs in
            guard let index = inputs.firstIndex(where: { $0.name == input }) else { return "no input \(input)" }
            if !inputs[index].connections.contains(source) { inputs[index].connections.append(source) }
            return nil
        }
    }

    func disconnect(_ source: String, from input: String) -> Bool {
        state.withLock { inputs in
            guard let index = inputs.firstIndex(where: { $0.name == input }),
                  let at = inputs[index].connections.firstIndex(of: source) else { return false }
            inputs[index].connections.remove(at: at)
            return true
        }
    }
}
