import CJack
import DSP
import Glibc
import Synchronization

/// jacktap's inputs on a running JACK server: registers the ports, feeds the tap from the process callback,
/// and lets the analysis thread wait for new frames.
///
/// `@unchecked Sendable`: its stored properties are fixed at init; the analysis thread, the port follower and
/// the control thread use it at once, each through atomics, semaphores or libjack's thread-safe entry points
/// (port lookups, connections, metadata), and the session stops them all before `stop` closes the client.
public final class LiveTap: @unchecked Sendable {
    /// The client the ports belong to.
    public let client: JackClient
    /// The tap the process callback writes; its channels are the inputs, in order.
    public let tap: Tap
    /// Short names of the inputs (`in_1`, …).
    public let inputNames: [String]
    let ports: UnsafeMutablePointer<OpaquePointer>
    /// Short names of the MIDI outputs (`clock`, `notes`), and their ports and queues in the same order.
    public let midiOutputNames: [String]
    let midiPorts: UnsafeMutablePointer<OpaquePointer>
    let midiQueues: UnsafeMutablePointer<MidiEventQueue>
    let state: UnsafeMutablePointer<TapProcessState>
    /// When the newest copied period reached the ring (the callback stamps it from JACK's cycle times).
    let stamp = PeriodStamp.allocate()
    let cycle: UnsafeMutablePointer<CycleTimes> = {
        let cycle = UnsafeMutablePointer<CycleTimes>.allocate(capacity: 1)
        cycle.initialize(to: CycleTimes())
        return cycle
    }()
    let wake: UnsafeMutablePointer<sem_t>
    let graphWake: UnsafeMutablePointer<sem_t>
    let notifications: UnsafeMutablePointer<JackNotifications>
    var stopped = false

    /// Messages each MIDI output can hold queued: 24 clocks per beat, far ahead of any analysis wake-up.
    static let midiQueueCapacity = 1_024

    /// Registers one input per name and one MIDI output per name in `midiOutputs`, and prepares the callback;
    /// `ringSeconds` of audio fit in the ring.
    public init(client: JackClient, inputs: [String], midiOutputs: [String] = [], ringSeconds: Double = 2)
        throws(JackError) {
        self.client = client
        inputNames = inputs
        midiOutputNames = midiOutputs
        ports = .allocate(capacity: max(inputs.count, 1))
        midiPorts = .allocate(capacity: max(midiOutputs.count, 1))
        do {
            for (i, name) in inputs.enumerated() {
                (ports + i).initialize(to: try client.register(name, input: true))
            }
            for (i, name) in midiOutputs.enumerated() {
                (midiPorts + i).initialize(to: try client.register(name, input: false, midi: true))
            }
        } catch {
            ports.deallocate()
            midiPorts.deallocate()
            throw error
        }
        midiQueues = .allocate(capacity: max(midiOutputs.count, 1))
        for i in midiOutputs.indices {
            (midiQueues + i).initialize(to: MidiEventQueue.allocate(capacity: Self.midiQueueCapacity))
        }
        tap = Tap.allocate(channels: inputs.count,
                           ringFrames: max(Int(ringSeconds * Double(client.sampleRate)), 4 * client.bufferSize))
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        graphWake = .allocate(capacity: 1)
        sem_init(graphWake, 0, 0)
        notifications = .allocate(capacity: 1)
        notifications.initialize(to: JackNotifications(
            serverGone: Atomic(0), sampleRate: Atomic(client.sampleRate), bufferSize: Atomic(client.bufferSize),
            xruns: Atomic(0), graphChanges: Atomic(0), analysisWake: wake, graphWake: graphWake))
        state = .allocate(capacity: 1)
        state.initialize(to: TapProcessState(client: client.handle, ports: ports, portCount: inputs.count, tap: tap,
                                             stamp: stamp, cycle: cycle, wake: wake, midiPorts: midiPorts, midiQueues: midiQueues,
                                             midiCount: midiOutputs.count))
        client.setProcess(jacktapTapProcess, UnsafeMutableRawPointer(state))
        client.setNotifications(UnsafeMutableRawPointer(notifications))
    }

    deinit {
        stop()
        state.deinitialize(count: 1)
        state.deallocate()
        tap.deallocate()
        stamp.deallocate()
        cycle.deinitialize(count: 1)
        cycle.deallocate()
        notifications.deinitialize(count: 1)
        notifications.deallocate()
        sem_destroy(wake)
        wake.deallocate()
        sem_destroy(graphWake)
        graphWake.deallocate()
        ports.deallocate()
        for i in midiOutputNames.indices { midiQueues[i].deallocate() }
        midiQueues.deallocate()
        midiPorts.deallocate()
    }

    /// The queue of the MIDI output `name` (one of `midiOutputNames`): what the analysis thread schedules
    /// there, the callback writes at its frame.
    public func midiQueue(_ name: String) -> MidiEventQueue? {
        midiOutputNames.firstIndex(of: name).map { midiQueues[$0] }
    }

    /// Full name of the MIDI output `name` ("jacktap:clock").
    public func midiOutputFullName(_ name: String) -> String? {
        midiOutputNames.firstIndex(of: name).map { client.fullName(of: midiPorts[$0]) }
    }

    /// Full name of input `index` ("jacktap:in_1").
    public func inputFullName(_ index: Int) -> String { client.fullName(of: ports[index]) }

    /// Starts the process callback.
    public func activate() throws(JackError) { try client.activate() }

    /// Connects source port `source` to input `index`.
    public func connect(_ source: String, toInput index: Int) throws(JackError) {
        try client.connect(source, to: inputFullName(index))
    }

    /// Waits until the callback has posted a period, the server is gone or changed its rate, or `timeout`
    /// seconds pass; returns false on timeout.
    public func waitForFrames(timeout: Double) -> Bool { Self.wait(wake, timeout: timeout) }

    /// The newest period the callback copied into the ring: the ring's write count after it and JACK's clock
    /// (`hostMicros`) when its cycle began; nil before the first.
    public var newestPeriod: (frames: Int, micros: UInt64)? { stamp.read() }

    /// JACK's clock now, microseconds (the clock of `newestPeriod`).
    public var hostMicros: UInt64 { JackCalls.time() }

    /// Wakes a thread blocked in `waitForFrames` (to stop it).
    public func wakeWaiters() { sem_post(wake) }

    /// Waits until a port came, went, was renamed or (dis)connected, or the server is gone, or `timeout`
    /// seconds pass; returns false on timeout.
    public func waitForGraphChange(timeout: Double) -> Bool { Self.wait(graphWake, timeout: timeout) }

    /// Takes every graph-change wake-up already posted (after waiting out a burst of them).
    public func drainGraphChanges() { while sem_trywait(graphWake) == 0 {} }

    /// Wakes a thread blocked in `waitForGraphChange` (to stop it).
    public func wakeGraphWaiters() { sem_post(graphWake) }

    /// True once the server has shut the client down.
    public var serverStopped: Bool { notifications.pointee.serverGone.load(ordering: .acquiring) != 0 }

    /// The sample rate the server last announced, Hz: it changes under PipeWire's clock.force-rate.
    public var sampleRate: Int { notifications.pointee.sampleRate.load(ordering: .acquiring) }

    /// The period the server last announced, frames (jack_bufsize, PipeWire's clock.force-quantum).
    public var periodFrames: Int { notifications.pointee.bufferSize.load(ordering: .acquiring) }

    /// Xruns the server reported to this client.
    public var xruns: Int { notifications.pointee.xruns.load(ordering: .relaxed) }

    /// Sets input `index`'s JACK pretty name (metadata), e.g. "in_1 ← Drums L".
    public func setInputPrettyName(_ index: Int, _ pretty: String) { client.setPrettyName(ports[index], pretty) }

    static func wait(_ semaphore: UnsafeMutablePointer<sem_t>, timeout: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanos = Int(deadline.tv_nsec) + Int(timeout * 1e9)
        deadline.tv_sec += nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        while sem_timedwait(semaphore, &deadline) != 0 {
            if errno == ETIMEDOUT { return false }
        }
        return true
    }

    /// The thread JACK runs the process callback on (for the tests that count its allocations).
    public var processThread: pthread_t { JackCalls.processThread(client.handle) }

    /// Stops the callback and closes the client (ports unregistered). Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if !serverStopped { client.deactivate() }
        client.close()
    }
}
