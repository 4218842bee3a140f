import JackHost

/// The live ``ControlGraph``: jacktap's inputs on the JACK server.
///
/// `@unchecked Sendable`: `LiveTap` and `JackClient` are classes without locks, but the control thread only
/// calls libjack's own thread-safe entry points (connect, disconnect, port lookups) through them and reads
/// properties fixed at start; the session stops the control thread before it closes the client.
public final class JackControlGraph: ControlGraph, @unchecked Sendable {
    private let live: LiveTap
    private let inputNames: [String]
    public let clientName: String
    public let sampleRate: Int

    /// The graph around `live`'s inputs.
    public init(live: LiveTap) {
        self.live = live
        inputNames = live.inputNames.indices.map(live.inputFullName)
        clientName = live.client.name
        sampleRate = live.client.sampleRate
    }

    public var periodFrames: Int { live.client.bufferSize }

    public func inputs() -> [(name: String, connections: [String])] {
        let ports = Dictionary(live.client.describePorts().map { ($0.name, $0.connections) }, uniquingKeysWith: { a, _ in a })
        return inputNames.map { ($0, ports[$0] ?? []) }
    }

    public func isSourcePort(_ name: String) -> Bool { live.client.hasSourcePort(name) }

    public func connect(_ source: String, to input: String) -> String? {
        do { try live.client.connect(source, to: input) } catch { return error.description }
        return nil
    }

    public func disconnect(_ source: String, from input: String) -> Bool {
        live.client.disconnect(source, from: input)
    }
}
