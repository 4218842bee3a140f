/// MIDI notes from a port's pitch tracker, for a synth or a VJ tool following a melody (`--midi-notes`): note
/// on when a voiced note starts with an onset, note off when it ends, a new note on a legato change of note or
/// on a new attack of the same note (`repeatDelay`); velocity from the level.
///
/// Onset-gated: a voiced reading starts a note only within `onsetWindow` seconds of an onset on the port, so a
/// held chord's partials, a reverb tail or the hum under a voice that the pitch tracker calls voiced for a
/// moment do not sound notes of their own. Once a note sounds, a change of the tracker's note (which already
/// has hysteresis in cents) moves it without an onset: a sung or bowed line glides from note to note. A note
/// is taken only once the tracker has shown it for `settleSeconds`: across an attack the window holds the old
/// note and the new one, and for an estimate or two it can read neither (sox's plucked C5 after G4 read C3).
public struct NoteFollower: Sendable {
    /// An onset opens the gate for this long: the pitch window (50 ms at the default 40 Hz floor) and the
    /// hysteresis take a few estimates to settle on a new note after its attack.
    public static let onsetWindow = 0.15
    /// How long the tracker must show a note before it sounds: four to five of its 5 ms estimates.
    public static let settleSeconds = 0.02
    /// An onset while a note is held starts it again only if the tracker still shows the same note this long
    /// after: the tracker reads a new note a few estimates after its attack, and an onset that begins a
    /// different note must not first strike the old one again.
    public static let repeatDelay = 0.04
    /// The level that maps to velocity 1; 0 dBFS maps to 127 (linear in dB between).
    public static let quietestDB = -60.0

    public enum Kind: Sendable, Equatable { case on, off }

    /// A note on or off at a stream frame.
    public struct Event: Sendable, Equatable {
        public var frame: Int
        public var kind: Kind
        public var note: Int
        public var velocity: Int

        public init(frame: Int, kind: Kind, note: Int, velocity: Int) {
            self.frame = frame
            self.kind = kind
            self.note = note
            self.velocity = velocity
        }

        /// The three bytes on MIDI channel 1 (a note off with velocity 0).
        public var bytes: [UInt8] {
            kind == .on ? [0x90, UInt8(note), UInt8(velocity)] : [0x80, UInt8(note), 0]
        }
    }

    let sampleRate: Double
    /// The note sounding, if any.
    public private(set) var sounding: Int?
    private var lastOnset: Int?
    /// The frame at which a held note is struck again unless the tracker moves to another note first.
    private var repeatAt: Int?
    /// The note the tracker shows (nil: unvoiced) and since when.
    private var shown: Int?
    private var shownSince = 0
    /// The frame of the last event: events never go back in time (a note off asked for at an earlier frame
    /// than its note on goes at the note on's frame), since a MIDI port takes them in order only.
    private var lastFrame = Int.min

    public init(sampleRate: Double) { self.sampleRate = sampleRate }

    /// The stream frame of the newest onset of `port` among one poll's `outputs`, if any.
    public static func onsetFrame(in outputs: [AnalysisOutput], port: String, sampleRate: Double) -> Int? {
        var frame: Int?
        for case .event(let event) in outputs where event.port == port {
            if case .onset = event.kind { frame = Int((event.time * sampleRate).rounded()) }
        }
        return frame
    }

    /// Velocity 1…127 of a level in dBFS.
    public static func velocity(levelDB: Double) -> Int {
        Int(min(max(((levelDB - quietestDB) / -quietestDB * 126).rounded() + 1, 1), 127))
    }

    /// The state at stream frame `frame`: the tracker's note (nil when unvoiced), the window's level, and
    /// the frame of an onset found since the last update, if any.
    public mutating func update(note: Int?, levelDB: Double, onset: Int?, frame: Int, into events: inout [Event]) {
        if let onset {
            lastOnset = onset
            if sounding != nil && repeatAt == nil { repeatAt = frame + Int(Self.repeatDelay * sampleRate) }
        }
        if note != shown {
            shown = note
            shownSince = frame
        }
        // An unvoiced reading ends the note at once; a note counts once it has been shown long enough.
        let settled = note == nil || Double(frame - shownSince) >= Self.settleSeconds * sampleRate
        guard settled else { return }
        switch (sounding, note) {
        case (nil, nil):
            return
        case (let held?, nil):
            end(held, frame: frame, into: &events)
        case (nil, let new?):
            let gateOpen = lastOnset.map { Double(frame - $0) <= Self.onsetWindow * sampleRate } ?? false
            guard gateOpen else { return }
            start(new, levelDB: levelDB, frame: frame, into: &events)
        case (let held?, let new?) where new != held:
            end(held, frame: frame, into: &events)
            start(new, levelDB: levelDB, frame: frame, into: &events)
        case (let held?, _):
            guard let due = repeatAt, frame >= due else { return }
            end(held, frame: frame, into: &events)
            start(held, levelDB: levelDB, frame: frame, into: &events)
        }
    }

    /// Ends the sounding note, if any (the run stops, the source goes).
    public mutating func release(frame: Int, into events: inout [Event]) {
        guard let held = sounding else { return }
        end(held, frame: frame, into: &events)
    }

    private mutating func end(_ note: Int, frame: Int, into events: inout [Event]) {
        lastFrame = max(lastFrame, frame)
        events.append(Event(frame: lastFrame, kind: .off, note: note, velocity: 0))
        sounding = nil
        repeatAt = nil
    }

    private mutating func start(_ note: Int, levelDB: Double, frame: Int, into events: inout [Event]) {
        lastFrame = max(lastFrame, frame)
        events.append(Event(frame: lastFrame, kind: .on, note: note, velocity: Self.velocity(levelDB: levelDB)))
        sounding = note
        lastOnset = nil
        repeatAt = nil
    }
}
