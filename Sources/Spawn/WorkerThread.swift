import Dispatch
import Foundation
import Synchronization

/// A named normal-priority thread that runs a loop until asked to stop, and a `stop` that waits for it: the
/// shape of every helper thread of a live session (analysis, port follower, control input, NSM). Never the
/// JACK real-time thread.
public final class WorkerThread: Sendable {
    /// The thread's name, as `top -H` and gdb show it.
    public let name: String
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A thread named `name`, not started yet.
    public init(name: String) { self.name = name }

    /// True once `stop` was called: the body's loop ends when it reads this.
    public var isStopping: Bool { stopRequested.load(ordering: .acquiring) }

    /// Runs `body` on a new thread (once; later calls do nothing).
    public func start(_ body: @escaping @Sendable () -> Void) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the body to finish, calls `wake` (to unblock a wait it may be in) and waits until the body has
    /// returned. Safe to call twice, and when the thread was never started.
    public func stop(wake: () -> Void = {}) {
        guard requestStop(wake: wake) else { return }
        finished.wait()
    }

    /// The same, waiting at most `seconds` for a body that may be inside a call nothing can interrupt (a name
    /// lookup: glibc's resolver waits out its own timeouts, 5 s a try). False when the body is still running;
    /// it ends on its own later, or with the process.
    @discardableResult
    public func stop(wake: () -> Void = {}, waitingAtMost seconds: Double) -> Bool {
        guard requestStop(wake: wake) else { return true }
        return finished.wait(timeout: .now() + seconds) == .success
    }

    private func requestStop(wake: () -> Void) -> Bool {
        guard started.load(ordering: .acquiring), !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        stopRequested.store(true, ordering: .releasing)
        wake()
        return true
    }
}
