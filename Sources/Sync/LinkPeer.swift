import Analysis
import CLink
import Foundation

/// jacktap as a peer of an Ableton Link session (`--link`): Resolume, TouchDesigner, Ableton Live and other
/// Link apps on the network follow the music's tempo and beat.
///
/// Leading (the default, since jacktap is the one listening to the music): on every beat of the beat source
/// the session's tempo becomes the tracker's and the session's beat at that instant becomes a whole beat, the
/// one whose place in the quantum (`--link-quantum`, 4) is the beat's place in its bar, so a bar-long loop in a
/// Link app starts on the downbeat. Link calls this forcing the beat, meant for apps that follow an external
/// clock, which is what the music is here; another peer that moves the tempo is set back on the next beat.
/// Following (`--link-follow`): jacktap changes nothing and reports the session's tempo and peers when they
/// change.
///
/// The beat's instant on Link's clock (the host's monotonic clock) comes from pairing the stream with Link's
/// clock at the poll that announced it (`--beat-lead` ahead of the beat): the stream instant that was now then,
/// timed from the JACK cycle that brought the newest period, so a late wake-up of the analysis thread moves no beat.
/// Used by the analysis thread; Link's own threads do the networking.
public final class LinkPeer: TempoConsumer, @unchecked Sendable {
    public let quantum: Double
    public let follow: Bool
    /// The beat source's name (its beats lead the session).
    public var beatSource: String?
    /// Link's clock at the instant the poll began (read before the poll, beside the wall clock).
    private var linkNow: Int64 = 0
    private let link: OpaquePointer
    private let say: (String) -> Void
    private var reportedTempo = 0.0
    private var reportedPeers = -1

    public init(quantum: Double, follow: Bool, say: @escaping (String) -> Void) {
        self.quantum = quantum
        self.follow = follow
        self.say = say
        link = jacktap_link_create(120)
        jacktap_link_enable(link, 1)
    }

    deinit {
        jacktap_link_enable(link, 0)
        jacktap_link_destroy(link)
    }

    /// The session's tempo, BPM, and the peers seen besides jacktap.
    public var sessionTempo: Double { jacktap_link_tempo(link) }
    public var peers: Int { Int(jacktap_link_peers(link)) }

    /// Link's clock now, microseconds.
    var now: Int64 { jacktap_link_now(link) }

    public func willPoll() { linkNow = now }

    /// After a poll: leads the session on the beat source's beats once its pulse is confirmed (unless
    /// following), and reports changes of the session's tempo (following) or of its peers.
    public func update(_ poll: SyncPoll) {
        update(outputs: poll.pulse ? poll.outputs : [], beatSource: beatSource, streamNow: poll.streamNow,
               linkNow: linkNow)
    }

    /// `streamNow` (seconds of audio) and `linkNow` are the same instant, read before the poll that produced
    /// `outputs`.
    func update(outputs: [AnalysisOutput], beatSource: String?, streamNow: Double, linkNow now: Int64) {
        if !follow {
            for case .event(let event) in outputs where event.port == beatSource {
                guard case .beat(_, let bpm, let bar) = event.kind, bpm > 0 else { continue }
                let micros = now + Int64(((event.time - streamNow) * 1e6).rounded())
                let current = jacktap_link_beat_at(link, micros, quantum)
                // The bar's place is kept where the bar divides the quantum (4/4 or 2/4 in a quantum of 4); a
                // 3/4 bar cannot line up with a quantum of 4 every bar, so there only the beat is whole.
                let bars = Double(bar.beatsPerBar)
                let cycle = quantum.truncatingRemainder(dividingBy: bars) == 0 ? bars : 1
                let place = Double(bar.beat - 1).truncatingRemainder(dividingBy: cycle)
                jacktap_link_lead(link, Double(bpm), Self.beat(near: current, place: place, cycle: cycle), micros, quantum)
            }
        }
        let peers = self.peers
        if peers != reportedPeers {
            reportedPeers = peers
            say("Link: \(peers) other peer\(peers == 1 ? "" : "s")")
        }
        let tempo = (sessionTempo * 100).rounded() / 100
        if follow && tempo != reportedTempo {
            reportedTempo = tempo
            say("Link session at \(String(format: "%.2f", tempo)) BPM")
        }
    }

    /// The whole beat nearest `current` that falls at `place` in a cycle of `cycle` beats (the bar, where it
    /// divides the quantum): the session's beat count moves by at most half a cycle when jacktap takes it over.
    static func beat(near current: Double, place: Double, cycle: Double) -> Double {
        place + cycle * ((current - place) / cycle).rounded()
    }
}
