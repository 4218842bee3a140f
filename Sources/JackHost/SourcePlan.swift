import Synchronization

/// Which source port feeds which of jacktap's inputs, kept across port changes and server restarts.
///
/// The rules (jack-plumbing's): named sources take the first inputs, in order, whether or not they
/// exist yet; every source a `--connect` glob matches takes the next free input when it appears. An input
/// keeps its source once given (sticky): a player that stops and starts again comes back on the same input,
/// and after a server restart every input gets the source it had. More sources than inputs asks for more
/// inputs (`inputsNeeded`), which the session provides by reopening its client.
///
/// Pure logic: no JACK call, so the tests drive it with plain lists.
public struct SourcePlan: Sendable {
    /// Source ports named on the command line, in the configuration or by a control `connect`, in order.
    public private(set) var named: [String]
    /// Shell-style globs (`--connect`), applied to every port as it registers.
    public private(set) var globs: [String]
    /// Input index → the source it is given, nil for a free input.
    public private(set) var assignments: [String?]

    /// A plan with at least `inputs` inputs; the named sources take the first ones.
    public init(named: [String], globs: [String], inputs: Int) {
        var unique = [String]()
        for name in named where !unique.contains(name) { unique.append(name) }
        self.named = unique
        self.globs = globs
        assignments = unique.map { Optional($0) }
        if assignments.count < inputs { assignments += Array(repeating: nil, count: inputs - assignments.count) }
    }

    /// How many inputs the plan needs.
    public var inputsNeeded: Int { assignments.count }

    /// Globs that match none of `available`: the ones jacktap says it is waiting for.
    public func unmatchedGlobs(available: [String]) -> [String] {
        globs.filter { PortMatching.matching($0, in: available).isEmpty }
    }

    /// Gives every source among `available` (full names of the audio output ports that exist now, in JACK's
    /// order, jacktap's own excluded) that a glob matches an input, growing the plan when none is free.
    /// Returns the connections that should exist now: each assigned source that is available, with its input.
    public mutating func update(available: [String]) -> [(source: String, input: Int)] {
        for glob in globs {
            for source in PortMatching.matching(glob, in: available) where !assignments.contains(source) {
                assign(source)
            }
        }
        return assignments.enumerated().compactMap { index, source in
            guard let source, available.contains(source) else { return nil }
            return (source, index)
        }
    }

    /// Adds `source` as a named source: on input `input` when given (replacing what it had), else on the first
    /// free one. Returns the input it is on.
    @discardableResult
    public mutating func add(_ source: String, input: Int? = nil) -> Int {
        excluded.remove(source)
        if !named.contains(source) { named.append(source) }
        if let input {
            if let old = assignments.firstIndex(of: source), old != input { assignments[old] = nil }
            while assignments.count <= input { assignments.append(nil) }
            assignments[input] = source
            return input
        }
        if let index = assignments.firstIndex(of: source) { return index }
        return assign(source)
    }

    /// Forgets `source` (a control `disconnect`): it is no longer named, its input is free, and a glob that
    /// matches it no longer brings it back.
    public mutating func remove(_ source: String) {
        named.removeAll { $0 == source }
        if globs.contains(where: { !PortMatching.matching($0, in: [source]).isEmpty }) {
            excluded.insert(source)
        }
        for index in assignments.indices where assignments[index] == source { assignments[index] = nil }
    }

    /// Replaces the named sources and globs (a configuration reread on SIGHUP). Inputs whose source is no
    /// longer wanted are freed; the others keep theirs.
    public mutating func replace(named newNamed: [String], globs newGlobs: [String]) {
        globs = newGlobs
        named = []
        excluded = []
        for index in assignments.indices {
            guard let source = assignments[index] else { continue }
            let globbed = newGlobs.contains { !PortMatching.matching($0, in: [source]).isEmpty }
            if !newNamed.contains(source) && !globbed {
                assignments[index] = nil
                released.append((source, index))
            }
        }
        for source in newNamed { add(source) }
    }

    /// Connections the plan made and no longer wants (a reread configuration dropped their source), for the
    /// follower to remove; connections the user made by hand are never listed.
    public private(set) var released: [(source: String, input: Int)] = []

    /// Takes the released connections (the follower disconnects them).
    public mutating func takeReleased() -> [(source: String, input: Int)] {
        defer { released = [] }
        return released
    }

    /// Sources a control `disconnect` removed that a glob would otherwise bring back.
    private var excluded = Set<String>()

    @discardableResult
    private mutating func assign(_ source: String) -> Int {
        guard !excluded.contains(source) else { return -1 }
        if let free = assignments.firstIndex(where: { $0 == nil }) {
            assignments[free] = source
            return free
        }
        assignments.append(source)
        return assignments.count - 1
    }
}

/// The session's one ``SourcePlan``, shared by the port follower, the control input and the session itself
/// (which keeps it across server restarts), behind a mutex no real-time thread takes.
public final class SharedSourcePlan: Sendable {
    private let plan: Mutex<SourcePlan>

    /// Shares `plan`.
    public init(_ plan: SourcePlan) { self.plan = Mutex(plan) }

    /// Runs `body` with the plan locked.
    public func withLock<T>(_ body: (inout SourcePlan) -> T) -> T { plan.withLock { body(&$0) } }

    /// A copy of the plan now.
    public var current: SourcePlan { plan.withLock { $0 } }
}
