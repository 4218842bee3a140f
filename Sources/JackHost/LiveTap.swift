import CJack
import DSP
import Glibc
import Synchronization

/// jacktap's inputs on a running JACK server: registers the ports, feeds the tap from the process callback,
/// and lets the analysis thread wait for new frames.
public final class LiveTap {
    /// The client the ports belong to.
    public let client: JackClient
    /// The tap the process callback writes; its channels are the inputs, in order.
    public let tap: Tap
    /// Short names of the inputs (`in_1`, …).
    public let inputNames: [String]
    let ports: UnsafeMutablePointer<OpaquePointer>
    let state: UnsafeMutablePointer<TapProcessState>
    let wake: UnsafeMutablePointer<sem_t>
    let serverGone: UnsafeMutablePointer<Atomic<Int>>
    var stopped = false

    /// Registers one input per name and prepares the callback; `ringSeconds` of audio fit in the ring.
    public init(client: JackClient, inputs: [String], ringSeconds: Double = 2) throws(JackError) {
        self.client = client
        inputNames = inputs
        ports = .allocate(capacity: max(inputs.count, 1))
        for (i, name) in inputs.enumerated() {
            do {
                (ports + i).initialize(to: try client.register(name, input: true))
            } catch {
                ports.deallocate()
                throw error
            }
        }
        tap = Tap.allocate(channels: inputs.count,
                           ringFrames: max(Int(ringSeconds * Double(client.sampleRate)), 4 * client.bufferSize))
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
        serverGone = .allocate(capacity: 1)
        serverGone.initialize(to: Atomic(0))
        state = .allocate(capacity: 1)
        state.initialize(to: TapProcessState(ports: ports, portCount: inputs.count, tap: tap, wake: wake,
                                             serverGone: serverGone))
        client.setProcess(jacktapTapProcess, UnsafeMutableRawPointer(state))
        client.onShutdown(jacktapTapShutdown, UnsafeMutableRawPointer(state))
    }

    deinit {
        stop()
        state.deinitialize(count: 1)
        state.deallocate()
        tap.deallocate()
        sem_destroy(wake)
        wake.deallocate()
        serverGone.deinitialize(count: 1)
        serverGone.deallocate()
        ports.deallocate()
    }

    /// Full name of input `index` ("jacktap:in_1").
    public func inputFullName(_ index: Int) -> String { client.fullName(of: ports[index]) }

    /// Starts the process callback.
    public func activate() throws(JackError) { try client.activate() }

    /// Connects source port `source` to input `index`.
    public func connect(_ source: String, toInput index: Int) throws(JackError) {
        try client.connect(source, to: inputFullName(index))
    }

    /// Waits until the callback has posted a period, the server is gone, or `timeout` seconds pass;
    /// returns false on timeout.
    public func waitForFrames(timeout: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanos = Int(deadline.tv_nsec) + Int(timeout * 1e9)
        deadline.tv_sec += nanos / 1_000_000_000
        deadline.tv_nsec = nanos % 1_000_000_000
        while sem_timedwait(wake, &deadline) != 0 {
            if errno == ETIMEDOUT { return false }
        }
        return true
    }

    /// Wakes a thread blocked in `waitForFrames` (to stop it).
    public func wakeWaiters() { sem_post(wake) }

    /// True once the server has shut the client down.
    public var serverStopped: Bool { serverGone.pointee.load(ordering: .acquiring) != 0 }

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
