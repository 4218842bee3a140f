import Analysis
import Glibc
import OSC

/// Where snapshots go: OSC destinations, JSON lines on stdout, the terminal view. Used by the analysis
/// thread only (live) or the main thread (files), never by the real-time callback.
public final class SnapshotSinks {
    let sender: UDPSender?
    let publisher: OSCPublisher
    let json: Bool
    let view: TerminalView?

    /// Sends to `sender` with `publisher`, prints JSON lines when `json`, draws `view` when given.
    public init(sender: UDPSender?, publisher: OSCPublisher, json: Bool, view: TerminalView?) {
        self.sender = sender
        self.publisher = publisher
        self.json = json
        self.view = view
    }

    /// Publishes one tick everywhere. A destination that is down only counts an error (UDPSender never blocks).
    public func publish(_ snapshot: Snapshot) {
        if let sender {
            for packet in publisher.packets(for: snapshot) { sender.send(packet) }
        }
        if json { StandardOutput.write(JSONLines.line(for: snapshot) + "\n") }
        if let view { StandardOutput.write(view.render(snapshot)) }
    }

    /// Publishes one event at once, in a datagram of its own: a bundle timetagged with the instant the event
    /// describes (`timetag`: a beat's predicted wall-clock time, so that receivers that honour timetags act on
    /// the beat), or a plain message with `--no-bundles`.
    public func publish(_ event: AnalysisEvent, timetag: OSCTimetag = .immediately) {
        if let sender {
            let message = publisher.message(for: event)
            sender.send(publisher.bundles ? .bundle(OSCBundle(timetag: timetag, [.message(message)])) : .message(message))
        }
        if json { StandardOutput.write(JSONLines.line(for: event) + "\n") }
    }

    /// Prints the run's summary line (with `--json`).
    public func finish(_ summary: RunSummary) {
        if json { StandardOutput.write(JSONLines.line(for: summary) + "\n") }
    }

    /// Datagrams that could not be sent, per destination.
    public var oscErrors: [Int] { sender?.errorCounts ?? [] }
}

/// Unbuffered writes to stdout and stderr, retried until complete.
public enum StandardOutput {
    /// Writes `text` to stdout.
    public static func write(_ text: String) { write(text, to: 1) }
    /// Writes `text` to stderr.
    public static func error(_ text: String) { write(text, to: 2) }

    static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }
}
