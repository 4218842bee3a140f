import Spawn
import Foundation
import Synchronization

/// Follows the JACK graph for one opening of the client: when ports register, go or are renamed, it connects every source the session's ``SourcePlan`` gives an input and that is not yet
/// connected, and names each input after its source in JACK metadata ("in_1 ← Drums L").
///
/// As jack-plumbing does (read in its source): the registration and connection callbacks only wake this normal-priority
/// thread; it waits out the burst of notifications (`settle`, 50 ms: a client registers all its ports at
/// once), then lists the ports and acts. It never runs on, or blocks, JACK's threads.
///
/// `@unchecked Sendable`: the thread `start` creates is the only one calling `reconcile` after the first
/// call, which the session makes before starting it; everything read from other threads is atomic or behind
/// a mutex.
public final class PortFollower: @unchecked Sendable {
    let live: LiveTap
    let plan: SharedSourcePlan
    let settle: Double
    let report: @Sendable (String) -> Void
    private let worker = WorkerThread(name: "jacktap-ports")
    private let moreInputs = Atomic<Bool>(false)
    private let labelsValue = Mutex<[String: String]>([:])
    private let labelRevision = Atomic<Int>(0)
    /// The pretty names last given to the inputs, so metadata is written only when it changes.
    private var prettyNames: [String?]
    /// Globs already reported as waiting (said once, again only after they matched and stopped matching).
    private var waitingReported = Set<String>()

    /// A follower for `live`'s inputs, connecting by `plan`; `report` gets one line per thing worth saying
    /// ("player:out_1 → jacktap:in_1", "waiting for a port matching 'player:*'").
    public init(live: LiveTap, plan: SharedSourcePlan, settle: Double = 0.05,
                report: @escaping @Sendable (String) -> Void) {
        self.live = live
        self.plan = plan
        self.settle = settle
        self.report = report
        prettyNames = Array(repeating: nil, count: live.inputNames.count)
    }

    /// True once the plan gives more sources than this opening has inputs: the session reopens with more.
    public var needsMoreInputs: Bool { moreInputs.load(ordering: .acquiring) }

    /// Short input name ("in_1") → what feeds it ("Drums L (player:out_1)"), for the terminal view.
    public var sourceLabels: [String: String] { labelsValue.withLock { $0 } }

    /// Bumped whenever `sourceLabels` changes.
    public var labelsRevision: Int { labelRevision.load(ordering: .acquiring) }

    /// Connects what the plan wants and names the inputs; the session calls it once before `start`.
    public func reconcile() {
        let client = live.client
        let own = client.name + ":"
        let available = client.sourcePorts().filter { !$0.hasPrefix(own) }
        let (released, wanted, needed, unmatched) = plan.withLock { plan in
            (plan.takeReleased(), plan.update(available: available), plan.inputsNeeded,
             plan.unmatchedGlobs(available: available))
        }
        for (source, input) in released where input < live.inputNames.count {
            if client.disconnect(source, from: live.inputFullName(input)) {
                report("\(source) ↛ \(live.inputFullName(input)) (no longer in the configuration)")
            }
        }
        for glob in unmatched where !waitingReported.contains(glob) {
            report("waiting for a port matching '\(glob)'")
        }
        waitingReported = Set(unmatched)
        // More sources than inputs: the session reopens with enough, and connects them all then.
        if needed > live.inputNames.count {
            moreInputs.store(true, ordering: .releasing)
            return
        }
        for (source, input) in wanted {
            let destination = live.inputFullName(input)
            guard !client.connections(ofPort: destination).contains(source) else { continue }
            do throws(JackError) {
                try live.connect(source, toInput: input)
                report("\(source) → \(destination)")
            } catch {
                report(error.description)
            }
        }
        nameInputs()
    }

    /// Gives each input the pretty name of its first source, and records the labels.
    private func nameInputs() {
        var labels = [String: String]()
        for index in live.inputNames.indices {
            let name = live.inputNames[index]
            let source = live.client.connections(ofPort: live.inputFullName(index)).first
            let sourcePretty = source.flatMap { live.client.prettyName(ofPort: $0) }
            guard let source else { continue }
            labels[name] = sourcePretty.map { "\($0) (\(source))" } ?? source
            // Written only when an input gets a new source, never for an unconnected one: jackd2 sends every
            // metadata change to every client and blocks while one's socket is full, so a graph where many
            // clients stop together must not also be flooded with renames (see JackCalls.clearNotifications).
            let pretty = "\(name) ← \(sourcePretty ?? source)"
            if prettyNames[index] != pretty {
                live.setInputPrettyName(index, pretty)
                prettyNames[index] = pretty
            }
        }
        let changed = labelsValue.withLock { current -> Bool in
            guard current != labels else { return false }
            current = labels
            return true
        }
        if changed { labelRevision.add(1, ordering: .releasing) }
    }

    /// Starts following on a thread of its own.
    public func start() {
        worker.start { [self] in
            var quiet = 0
            while !worker.isStopping, !live.serverStopped {
                guard live.waitForGraphChange(timeout: 0.25) else {
                    // Connections made by hand (qjackctl) send no notification jacktap asks for: the input
                    // names and labels are read again every two seconds (local reads, no server round trip).
                    quiet += 1
                    if quiet % 8 == 0 { nameInputs() }
                    continue
                }
                guard !worker.isStopping, !live.serverStopped else { break }
                // Wait out the burst: a client registers its ports and connects them in quick succession.
                usleep(useconds_t(settle * 1e6))
                live.drainGraphChanges()
                reconcile()
            }
        }
    }

    /// Stops the thread and waits for it (before the client closes). Safe to call when not started.
    public func stop() {
        worker.stop(wake: live.wakeGraphWaiters)
    }
}
