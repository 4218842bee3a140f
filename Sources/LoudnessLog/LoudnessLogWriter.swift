import Foundation
import Glibc
import Synchronization

/// Appends lines to files in `--loudness-log DIR` on a thread of its own, so that a slow or full disk never holds
/// up the analysis. Each line is appended with one `write(2)` on a file opened for it (`O_APPEND`), so a crash of
/// jacktap loses nothing written and a file deleted or moved while jacktap runs is made anew with its header at the
/// next line. A line that cannot be written (a full disk, a directory made unwritable) is counted and said once;
/// when writing works again that is said too.
public final class LoudnessLogWriter: @unchecked Sendable {
    /// One line for one file; `header` starts a file that is new or empty.
    struct Line {
        var file: String
        var header: String
        var text: String
    }

    public let directory: String
    private let say: @Sendable (String) -> Void
    private let queue = Mutex<(lines: [Line], stopping: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// Lines that could not be written, and those dropped because more than `capacity` were waiting.
    private let lostCount = Atomic<Int>(0)
    /// The error of the last failed write, per file (only the writer thread touches it).
    private var failing: [String: String] = [:]
    private var lostSinceFailure: [String: Int] = [:]

    /// Lines waiting beyond this (a disk that stalls for an hour at one line a second per programme) are dropped,
    /// oldest first.
    static let capacity = 10_000

    /// Checks that `directory` exists and starts the writer thread; `say` tells the user. A directory that cannot
    /// be written now is said at once, and tried again at each line (it may be a mount not yet there).
    public init(directory: String, say: @escaping @Sendable (String) -> Void) throws(LoudnessLogError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .notADirectory(directory)
        }
        self.directory = directory
        self.say = say
        if access(directory, W_OK | X_OK) != 0 {
            say("loudness log: " + LoudnessLogError.notWritable(directory, String(cString: strerror(errno))).description
                + "; the analysis and the outputs go on, and the log is tried again each line")
        }
        let thread = Thread { [self] in run() }
        thread.name = "jacktap-loudness-log"
        thread.start()
    }

    /// Lines lost so far (not written, or dropped while the disk stalled).
    public var lost: Int { lostCount.load(ordering: .relaxed) }

    /// Queues `text` for `DIR/file`; never blocks on the disk.
    func append(_ text: String, to file: String, header: String) {
        let dropped = queue.withLock { queue -> Bool in
            queue.lines.append(Line(file: file, header: header, text: text))
            guard queue.lines.count > Self.capacity else { return false }
            queue.lines.removeFirst()
            return true
        }
        if dropped { lostCount.add(1, ordering: .relaxed) }
        wake.signal()
    }

    /// Seconds `stop` waits for the queued lines: a disk that hangs (a dead network mount) does not keep jacktap
    /// from exiting.
    static let stopTimeout = 10.0

    /// Writes what is queued and stops the thread, waiting at most ``stopTimeout``; lines not written by then are
    /// counted lost and said.
    public func stop() {
        let waiting = queue.withLock { queue in
            queue.stopping = true
            return queue.lines.count
        }
        wake.signal()
        if done.wait(timeout: .now() + Self.stopTimeout) == .timedOut {
            say("loudness log: the disk did not take the last lines within \(Int(Self.stopTimeout)) s; up to "
                + "\(waiting) line\(waiting == 1 ? "" : "s") lost")
        }
    }

    private func run() {
        while true {
            wake.wait()
            let (lines, stopping) = queue.withLock { queue in
                defer { queue.lines.removeAll() }
                return (queue.lines, queue.stopping)
            }
            for line in lines { write(line) }
            if stopping {
                done.signal()
                return
            }
        }
    }

    private func write(_ line: Line) {
        let path = directory + "/" + line.file
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        var error: String?
        if fd < 0 {
            error = String(cString: strerror(errno))
        } else {
            var status = stat()
            let empty = fstat(fd, &status) == 0 && status.st_size == 0
            let text = (empty && !line.header.isEmpty ? line.header + "\n" : "") + line.text + "\n"
            if !Self.writeAll(fd, text) { error = String(cString: strerror(errno)) }
            close(fd)
        }
        if let error {
            lostCount.add(1, ordering: .relaxed)
            lostSinceFailure[line.file, default: 0] += 1
            if failing[line.file] != error {
                failing[line.file] = error
                say("loudness log: cannot write \(path): \(error); the analysis and the outputs go on, and the log "
                    + "is tried again each line")
            }
        } else if failing.removeValue(forKey: line.file) != nil {
            let lostLines = lostSinceFailure.removeValue(forKey: line.file) ?? 0
            say("loudness log: writing \(path) again (\(lostLines) line\(lostLines == 1 ? "" : "s") lost)")
        }
    }

    /// One write(2) of the whole text where the kernel takes it (a partial write is completed); false on an error.
    static func writeAll(_ fd: Int32, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
