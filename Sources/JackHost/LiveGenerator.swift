import CJack
import DSP
import Glibc
import Synchronization

/// The generator's callback state: plain data, as for the tap.
struct GeneratorProcessState {
    var ports: UnsafeMutablePointer<OpaquePointer>
    var portCount: Int
    var signal: UnsafeMutablePointer<TestSignal>
    /// When set, the clip is played (one channel per output) instead of the signal.
    var clip: PlanarClip?
    /// Set to 1 by the shutdown handler when the server goes away.
    var serverGone: UnsafeMutablePointer<Atomic<Int>>
    /// Frames rendered so far (written by the callback only).
    var rendered: UnsafeMutablePointer<Atomic<Int>>
    /// The client, for the server's rate and frame clock in each period.
    var client: OpaquePointer
    /// Where jack_get_cycle_times writes (allocated with the state, as for the tap).
    var cycle: UnsafeMutablePointer<CycleTimes>
    /// The server's frame at which the next period should start; nil before the first period.
    var nextPeriodFrame: jack_nframes_t?
    /// Frames the server ran without calling the generator (its outputs carried no signal there).
    var missedFrames: UnsafeMutablePointer<Atomic<Int>>
    /// Frames of signal to play; every frame after them is silence (`generate --duration`, in audio).
    var frameLimit: Int = .max
}

/// Called by libjack when the server shuts the generator down: only sets a flag.
func jacktapGeneratorShutdown(_ code: jack_status_t, _ reason: UnsafePointer<CChar>?,
                              _ argument: UnsafeMutableRawPointer?) {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: GeneratorProcessState.self)
    state.pointee.serverGone.pointee.store(1, ordering: .releasing)
}

/// jack_on_shutdown's form, which PipeWire's libjack (0.3.65) calls instead of the info one.
func jacktapGeneratorShutdownPlain(_ argument: UnsafeMutableRawPointer?) {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: GeneratorProcessState.self)
    state.pointee.serverGone.pointee.store(1, ordering: .releasing)
}

/// Renders the test signal into the first output and copies it to the others, or plays the clip.
func jacktapGeneratorProcess(_ frames: jack_nframes_t, _ argument: UnsafeMutableRawPointer?) -> Int32 {
    let state = argument.unsafelyUnwrapped.assumingMemoryBound(to: GeneratorProcessState.self)
    let count = Int(frames)
    let ports = state.pointee.ports
    countMissedFrames(state, frames: frames)
    if let clip = state.pointee.clip {
        let start = clip.periodStart()
        var c = 0
        while c < state.pointee.portCount {
            let out = jack_port_get_buffer(ports[c], frames).unsafelyUnwrapped.assumingMemoryBound(to: Float.self)
            clip.render(channel: c, from: start, into: out, count: count)
            c &+= 1
        }
        clip.advance(from: start, by: count)
        silenceAfterLimit(state, count: count)
        return 0
    }
    // The rate this period runs at, read in the period itself rather than from a sample-rate callback:
    // PipeWire's libjack (0.3.65, check_sample_rate) calls no process callback of a client that has one from
    // the first period at a new rate until that callback has run on the client's other thread.
    let rate = JackCalls.sampleRate(state.pointee.client)
    if rate > 0, Double(rate) != state.pointee.signal.pointee.sampleRate {
        state.pointee.signal.pointee.follow(sampleRate: Double(rate))
    }
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
    silenceAfterLimit(state, count: count)
    return 0
}

/// Adds the frames between the period the server should have called next and the one it called: periods it
/// ran without the generator (an xrun, or PipeWire's libjack changing its period size), in which the outputs
/// carried no signal. The readers heard a gap there, which `jacktap generate` reports.
@inline(__always)
func countMissedFrames(_ state: UnsafeMutablePointer<GeneratorProcessState>, frames: jack_nframes_t) {
    let cycle = state.pointee.cycle
    guard jack_get_cycle_times(state.pointee.client, &cycle.pointee.frames, &cycle.pointee.start, &cycle.pointee.next,
                               &cycle.pointee.periodMicros) == 0 else { return }
    if let expected = state.pointee.nextPeriodFrame, cycle.pointee.frames != expected {
        let missed = Int(Int32(bitPattern: cycle.pointee.frames &- expected))
        let total = state.pointee.missedFrames.pointee.load(ordering: .relaxed)
        // A frame clock that went back (a server reset) is no count of missed frames.
        if missed > 0 { state.pointee.missedFrames.pointee.store(total &+ missed, ordering: .releasing) }
    }
    state.pointee.nextPeriodFrame = cycle.pointee.frames &+ frames
}

/// Counts the period's frames and silences those past the frame limit, so a generator plays exactly as many
/// frames of signal as it was asked for, however late its owner stops it.
@inline(__always)
func silenceAfterLimit(_ state: UnsafeMutablePointer<GeneratorProcessState>, count: Int) {
    let before = state.pointee.rendered.pointee.load(ordering: .relaxed)
    state.pointee.rendered.pointee.store(before &+ count, ordering: .releasing)
    let remaining = state.pointee.frameLimit &- before
    guard remaining < count else { return }
    let keep = max(remaining, 0)
    var c = 0
    while c < state.pointee.portCount {
        let out = jack_port_get_buffer(state.pointee.ports[c], jack_nframes_t(count)).unsafelyUnwrapped
            .assumingMemoryBound(to: Float.self)
        // Muted by multiplying by zero (the samples are finite): a loop of plain zero stores compiles to a
        // memset call, which scripts/check-callback-calls does not allow in a callback.
        var i = keep
        while i < count {
            out[i] *= 0
            i &+= 1
        }
        c &+= 1
    }
}

/// `jacktap generate`: a JACK client with outputs `out_1`… playing a built-in test signal.
public final class LiveGenerator {
    /// The client the outputs belong to.
    public let client: JackClient
    let ports: UnsafeMutablePointer<OpaquePointer>
    let signal: UnsafeMutablePointer<TestSignal>
    let state: UnsafeMutablePointer<GeneratorProcessState>
    let outputCount: Int
    let serverGone: UnsafeMutablePointer<Atomic<Int>>
    let rendered: UnsafeMutablePointer<Atomic<Int>>
    let missed: UnsafeMutablePointer<Atomic<Int>>
    let cycle: UnsafeMutablePointer<CycleTimes>
    var stopped = false

    let clip: PlanarClip?

    /// Registers `outputs` outputs playing `kind` at the server's rate, or `clip` (channel i to output i,
    /// then silence) when given; the generator owns the clip from then on and frees it.
    public init(client: JackClient, kind: TestSignal.Kind, outputs: Int, clip: PlanarClip? = nil) throws(JackError) {
        self.clip = clip
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
        serverGone = .allocate(capacity: 1)
        serverGone.initialize(to: Atomic(0))
        rendered = .allocate(capacity: 1)
        rendered.initialize(to: Atomic(0))
        missed = .allocate(capacity: 1)
        missed.initialize(to: Atomic(0))
        cycle = .allocate(capacity: 1)
        cycle.initialize(to: CycleTimes())
        state.initialize(to: GeneratorProcessState(ports: ports, portCount: outputCount, signal: signal,
                                                   clip: clip, serverGone: serverGone, rendered: rendered,
                                                   client: client.handle, cycle: cycle, missedFrames: missed))
        client.setProcess(jacktapGeneratorProcess, UnsafeMutableRawPointer(state))
        client.onShutdown(jacktapGeneratorShutdown, plain: jacktapGeneratorShutdownPlain, UnsafeMutableRawPointer(state))
    }

    deinit {
        stop()
        clip?.deallocate()
        state.deallocate()
        serverGone.deinitialize(count: 1)
        serverGone.deallocate()
        rendered.deinitialize(count: 1)
        rendered.deallocate()
        missed.deinitialize(count: 1)
        missed.deallocate()
        cycle.deallocate()
        signal.deinitialize(count: 1)
        signal.deallocate()
        ports.deallocate()
    }

    /// Starts the clip (after `activate` and `connect`, so its first frame reaches every destination).
    public func startClip() { clip?.start() }

    /// Plays `frames` frames of signal, then silence; set before `activate`. nil (the default) plays on.
    public func limit(frames: Int?) { state.pointee.frameLimit = frames ?? .max }

    /// Whether the frame limit has been rendered: everything the generator was asked to play has been played.
    public var playedLimit: Bool {
        rendered.pointee.load(ordering: .acquiring) >= state.pointee.frameLimit
    }

    /// Frames the server has run without calling the generator since it started (its outputs were silent there).
    public var missedFrames: Int { missed.pointee.load(ordering: .acquiring) }

    /// True once the server has shut the client down.
    public var serverStopped: Bool { serverGone.pointee.load(ordering: .acquiring) != 0 }

    /// Whether every output has at least one connection.
    public var outputsConnected: Bool {
        (0..<outputCount).allSatisfy { JackCalls.connectionCount(ports[$0]) > 0 }
    }

    /// Whether the clip (if any) has been played to its end.
    public var finished: Bool { clip?.finished ?? false }

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
        if !serverStopped { client.deactivate() }
        client.close()
    }
}
