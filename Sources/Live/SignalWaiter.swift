import Glibc

/// Signals for the main thread: SIGINT, SIGTERM and SIGHUP (stop) and SIGUSR1 (reset the loudness and the
/// maxima) are blocked in every thread and taken synchronously with sigtimedwait, so no signal handler ever
/// runs inside libjack or the analysis thread.
/// Must be installed before any thread is created (libjack creates its threads in jack_client_open).
public enum SignalWaiter {
    static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGUSR1] { sigaddset(&set, signal) }
        return set
    }

    /// Blocks the stop signals in this thread and every thread created after.
    public static func install() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// The signal that is pending, if any, without waiting.
    public static func pending() -> Int32? {
        var set = signalSet()
        var zero = timespec(tv_sec: 0, tv_nsec: 0)
        let signal = sigtimedwait(&set, nil, &zero)
        return signal > 0 ? signal : nil
    }
}

/// Single keys from a terminal on stdin, without echo or line buffering, restored on exit.
final class KeyReader {
    var saved = termios()
    let active: Bool

    init(enabled: Bool) {
        active = enabled && isatty(0) == 1 && tcgetattr(0, &saved) == 0
        guard active else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        tcsetattr(0, TCSANOW, &raw)
    }

    /// Waits up to `milliseconds` for input; returns the bytes of one key press (or nothing).
    func read(milliseconds: Int32) -> [UInt8] {
        guard active else {
            usleep(UInt32(milliseconds) * 1000)
            return []
        }
        var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&fds, 1, milliseconds) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = Glibc.read(0, &buffer, buffer.count)
        return n > 0 ? Array(buffer[0..<n]) : []
    }

    func restore() {
        if active { tcsetattr(0, TCSANOW, &saved) }
    }
}
