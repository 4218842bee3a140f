import DSP
import Synchronization

/// A loudness programme's meter and the channel pointers it is fed with, allocated once.
final class ProgrammeLoudness {
    let programme: MeterConfig.Programme
    let meter: LoudnessMeter
    let pointers: UnsafeMutablePointer<UnsafePointer<Float>>
    /// What other threads asked for (the control input, a key): the analysis thread carries it out at its poll.
    let pauseWanted = Atomic<Bool>(false)
    let resetWanted = Atomic<Bool>(false)
    /// The highest true peak of the programme's ports since the start or the last reset, not counting paused
    /// ticks, dBTP; nil without the true-peak meter.
    var maxTruePeakDB: Float?
    /// Resets since the start.
    var resets = 0
    /// Its alarms (`--alarms`).
    var alarms: ProgrammeAlarms
    /// The highest true peak of its ports at the newest tick, dBTP; nil without the meter.
    var tickTruePeakDB: Float?

    init(programme: MeterConfig.Programme, sampleRate: Double, alarms: AlarmSettings = AlarmSettings(kinds: [])) {
        self.programme = programme
        self.alarms = ProgrammeAlarms(settings: alarms)
        meter = LoudnessMeter(sampleRate: sampleRate, roles: programme.members.map(\.role))
        pointers = .allocate(capacity: max(programme.members.count, 1))
    }

    deinit { pointers.deallocate() }

    /// Feeds `count` frames; `plane(port)` gives each port's samples for this stretch.
    func process(count: Int, plane: (Int) -> UnsafePointer<Float>) {
        for (i, member) in programme.members.enumerated() { pointers[i] = plane(member.port) }
        meter.process(UnsafePointer(pointers), count: count)
    }

    /// Carries out what was asked since the previous poll: a reset first, then a pause or a resume.
    func applyRequests() {
        if resetWanted.exchange(false, ordering: .acquiring) { reset() }
        let paused = pauseWanted.load(ordering: .acquiring)
        if paused != meter.isPaused {
            if paused { meter.pause() } else { meter.resume() }
        }
    }

    func reset() {
        resets += 1
        meter.reset()
        maxTruePeakDB = maxTruePeakDB.map { _ in Decibels.floor }
    }

    /// Takes the tick's true peaks (dBTP, one per port, nil without the meter) of the programme's ports.
    func takeTruePeaks(_ ports: [PortReading]) {
        var highest: Float?
        for member in programme.members {
            guard let db = ports[member.port].meters.truePeakDB else { continue }
            highest = max(highest ?? Decibels.floor, db)
        }
        tickTruePeakDB = highest
        guard let highest else { return }
        let before = maxTruePeakDB ?? Decibels.floor
        maxTruePeakDB = meter.isPaused ? before : max(before, highest)
    }

    var reading: ProgrammeReading {
        var reading = ProgrammeReading(
            name: programme.name, momentary: meter.momentary, shortTerm: meter.shortTerm,
            integrated: meter.integrated, range: meter.range, maxMomentary: meter.maxMomentary,
            maxShortTerm: meter.maxShortTerm)
        reading.paused = meter.isPaused
        reading.maxTruePeakDB = maxTruePeakDB
        reading.resets = resets
        return reading
    }
}
