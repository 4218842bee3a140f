import CJack
import DSP
import Glibc

/// The generator's callback state: plain data, as for the tap.
struct GeneratorProcessState {
    var ports: UnsafeMutablePointer<OpaquePointer>
    var portCount: Int
    var signal: UnsafeMutablePointer<TestSignal>
}

/// Renders the test signal into the first output and copies it to the others.
func jacktapGeneratorProcess(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: GeneratorProcessState.self)
    let count = Int(frames)
    let ports = state.pointee.ports
    let first = jack_port_get_buffer(ports[0], frames).unsafelyUnwrapped.assumingMemoryBound(to: Float.self)
    state.pointee.signal.pointee.render(into: first, count: count)
    var c = 1
    while c < state.pointee.portCount {
        let out = jack_port_get_buffer(ports[c], frames).unsafelyUnwrapped.assumingMemoryBound(to: Float.self)
        var i = 0
        while i < count {
            out[i] = first[i]
            i &+= 1
        }
        c &+= 1
    }
    return 0
}

/// `jacktap generate`: a JACK client with outputs `out_1`… playing a built-in test signal.
public final class LiveGenerator {
    /// The client the outputs belong to.
    public let client: JackClient
    let ports: UnsafeMutablePointer<OpaquePointer>
    let signal: UnsafeMutablePointer<TestSignal>
    let state: UnsafeMutablePointer<GeneratorProcessState>
    let outputCount: Int
    var stopped = false

    /// Registers `outputs` outputs playing `kind` at the server's rate.
    public init(client: JackClient, kind: TestSignal.Kind, outputs: Int) throws(JackError) {
        self.client = client
        outputCount = max(outputs, 1)
        ports = .allocate(capacity: outputCount)
        for i in 0..<outputCount {
            do {
                (ports + i).initialize(to: try client.register("out_\(i + 1)", input: false))
            } catch {
                ports.deallocate()
                throw error
            }
        }
        signal = .allocate(capacity: 1)
        signal.initialize(to: TestSignal(kind: kind, sampleRate: Double(client.sampleRate)))
        state = .allocate(capacity: 1)
        state.initialize(to: GeneratorProcessState(ports: ports, portCount: outputCount, signal: signal))
        client.setProcess(jacktapGeneratorProcess, UnsafeMutableRawPointer(state))
    }

    deinit {
        stop()
        state.deallocate()
        signal.deinitialize(count: 1)
        signal.deallocate()
        ports.deallocate()
    }

    /// Full names of the outputs.
    public var outputNames: [String] { (0..<outputCount).map { client.fullName(of: ports[$0]) } }

    /// Starts playing.
    public func activate() throws(JackError) { try client.activate() }

    /// Connects every output to the matching entry of `destinations` (output i to destination i).
    public func connect(to destinations: [String]) throws(JackError) {
        for (i, destination) in destinations.enumerated() {
            try client.connect(outputNames[i % outputCount], to: destination)
        }
    }

    /// Stops and closes the client.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        client.deactivate()
        client.close()
    }
}
