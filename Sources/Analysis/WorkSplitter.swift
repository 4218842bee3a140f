import Dispatch

/// Runs independent pieces of work (one per port, programme or pair; one per file for `analyze`) on up to `threads` threads at once and
/// returns when all are done. Each piece touches only its own state, so the result is the same whatever the
/// number of threads and the order the pieces run in; the calling thread takes a share of the work.
public struct WorkSplitter: Sendable {
    /// Threads to use (1: everything on the calling thread).
    public let threads: Int

    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    /// Calls `body(i)` for every i in 0..<count, item i on worker i mod `threads` (ports of different cost
    /// spread over the workers rather than gather on one), on at most `heavyItems` workers: a loudness
    /// programme or a correlation pair costs a few percent of a port's analysis, and waking a worker for it
    /// costs more than it saves (one port and its programme on two threads spent a fifth of `analyze`'s time
    /// in the kernel's thread switches).
    public func forEach(_ count: Int, heavyItems: Int? = nil, _ body: (Int) -> Void) {
        let workers = min(threads, count, heavyItems ?? count)
        if workers <= 1 {
            for i in 0..<count { body(i) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = Unchecked(body)
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                for i in stride(from: worker, to: count, by: workers) { shared.value(i) }
            }
        }
    }

    /// The pieces share no state (see above); the closure and what it captures are only borrowed for the call.
    private struct Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}
