import Analysis

/// OS2L (`--os2l`) as a tempo-sync output: the beat source's beats, once its tracker has confirmed a pulse, handed
/// to the sender's thread; the first beat of each confirmed pulse is a change.
public final class OS2LBeats: TempoConsumer {
    let sender: OS2LSender
    let sourceName: String?
    /// Beats handed over since the pulse was confirmed (0: the next one is a `change`).
    private var gridBeats = 0

    /// Beats of the input named `sourceName` to `sender`.
    public init(sender: OS2LSender, sourceName: String?) {
        self.sender = sender
        self.sourceName = sourceName
    }

    public func update(_ poll: SyncPoll) {
        guard poll.pulse else {
            gridBeats = 0
            return
        }
        for case .event(let event) in poll.outputs where event.port == sourceName {
            guard case .beat(let count, let bpm, let bar) = event.kind else { continue }
            if count == 1 { gridBeats = 0 }
            sender.send(OS2LSender.Beat(count: count, bpm: Double(bpm), beatInBar: bar.beat, change: gridBeats == 0))
            gridBeats += 1
        }
    }
}
