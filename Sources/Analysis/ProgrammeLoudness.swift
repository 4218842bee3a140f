import DSP

/// A loudness programme's meter and the channel pointers it is fed with, allocated once.
final class ProgrammeLoudness {
    let programme: MeterConfig.Programme
    let meter: LoudnessMeter
    let pointers: UnsafeMutablePointer<UnsafePointer<Float>>

    init(programme: MeterConfig.Programme, sampleRate: Double) {
        self.programme = programme
        meter = LoudnessMeter(sampleRate: sampleRate, roles: programme.members.map(\.role))
        pointers = .allocate(capacity: max(programme.members.count, 1))
    }

    deinit { pointers.deallocate() }

    /// Feeds `count` frames; `plane(port)` gives each port's samples for this stretch.
    func process(count: Int, plane: (Int) -> UnsafePointer<Float>) {
        for (i, member) in programme.members.enumerated() { pointers[i] = plane(member.port) }
        meter.process(UnsafePointer(pointers), count: count)
    }

    var reading: ProgrammeReading {
        ProgrammeReading(name: programme.name, momentary: meter.momentary, shortTerm: meter.shortTerm,
                         integrated: meter.integrated, range: meter.range, maxMomentary: meter.maxMomentary,
                         maxShortTerm: meter.maxShortTerm)
    }
}
