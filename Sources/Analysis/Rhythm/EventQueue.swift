/// A fixed-capacity first-in-first-out queue of events, allocated once: the analysis path pushes without
/// allocating; when full, the newest event is dropped (the reader is late, history is kept).
struct EventQueue<Event> {
    private var storage: [Event?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        precondition(capacity > 0, "event capacity must be positive")
        storage = Array(repeating: nil, count: capacity)
    }

    mutating func push(_ event: Event) {
        guard count < storage.count else { return }
        storage[(head + count) % storage.count] = event
        count += 1
    }

    /// Appends every queued event to `out`, oldest first, and empties the queue.
    mutating func drain(into out: inout [Event]) {
        while count > 0 {
            out.append(storage[head]!)
            storage[head] = nil
            head = (head + 1) % storage.count
            count -= 1
        }
    }

    mutating func removeAll() {
        for i in storage.indices { storage[i] = nil }
        head = 0
        count = 0
    }
}
