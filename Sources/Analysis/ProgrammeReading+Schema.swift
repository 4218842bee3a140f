import Schema

extension ProgrammeReading {
    /// The figures with what the schema declares of them, in the order of the messages and of the JSON keys
    /// (each figure's leaf).
    public static func fields(_ p: ProgrammeReading) -> [(Figure, Float)] {
        zip(FigureSchema.programmeLoudness,
            [p.momentary, p.shortTerm, p.integrated, p.range, p.maxMomentary, p.maxShortTerm]).map { ($0, $1) }
    }
}
