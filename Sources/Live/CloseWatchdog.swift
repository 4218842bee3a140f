import Foundation
import Glibc
import Spawn
import Synchronization

/// Bounds the last close of the JACK client when jacktap is stopping. jackd2 writes notifications to each
/// client and blocks while one's socket is full; a client inside jack_client_close reads none, so when many
/// clients stop at once the server can stall writing to one of them while that one waits for the server's
/// answer to its close, and both wait forever (seen with 16 jacktaps and 16 players stopping together). A
/// process that exits closes its sockets, which ends the server's write with an error and frees it (and every
/// other client waiting on it): so when the close has not returned in `seconds`, jacktap says so and exits.
final class CloseWatchdog: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let disarmed = Atomic<Bool>(false)

    /// Starts watching: unless `disarm` is called within `seconds`, runs `beforeExit` (restore the terminal)
    /// and exits the process with status 0 (the stop was asked for, and the ports go with the process).
    init(seconds: Double, beforeExit: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            if done.wait(timeout: .now() + seconds) == .timedOut, !disarmed.load(ordering: .acquiring) {
                beforeExit()
                StandardOutput.error("""
                    jacktap: the JACK server did not let jacktap close within \(Int(seconds)) s (it is busy \
                    notifying clients that stop at the same time); exiting without it.

                    """)
                _exit(0)
            }
        }
        thread.name = "jacktap-close-watchdog"
        thread.start()
    }

    /// The close returned: nothing to do.
    func disarm() {
        disarmed.store(true, ordering: .releasing)
        done.signal()
    }
}
