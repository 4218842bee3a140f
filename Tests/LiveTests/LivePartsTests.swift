import Control
import JackHost
import OSCOut
import Testing
@testable import Live

/// The parts that outlive each opening of the client: loudness commands reach only programmes that exist, a
/// pause outlives the opening it was given in, and a reread configuration without a router says what it could
/// not do.
struct LivePartsTests {
    func parts() -> LiveParts {
        LiveParts(router: nil, status: SessionStatus(),
                  plan: SharedSourcePlan(SourcePlan(named: ["a:out"], globs: [], inputs: 1)), view: nil, quiet: true)
    }

    @Test func loudnessCommandsNeedAProgrammeThatExists() {
        let parts = parts()
        #expect(!parts.requestLoudness(.pause, programme: nil), "no analysis yet: no programme")
        parts.programmeNames.withLock { $0 = ["main", "dialogue"] }
        #expect(!parts.requestLoudness(.pause, programme: "music"))
        #expect(parts.requestLoudness(.pause, programme: "dialogue"))
        #expect(parts.loudnessRequests.withLock { $0.count } == 1)
    }

    @Test func aPauseOutlivesTheOpeningAndAResumeEndsIt() {
        let parts = parts()
        parts.programmeNames.withLock { $0 = ["main", "dialogue"] }
        #expect(parts.requestLoudness(.pause, programme: nil))
        #expect(parts.pausedProgrammes.withLock { $0 } == ["main", "dialogue"])
        // A new opening (a server restart) reads the set and pauses those programmes again.
        parts.programmeNames.withLock { $0 = ["main", "dialogue"] }
        #expect(parts.requestLoudness(.resume, programme: "main"))
        #expect(parts.pausedProgrammes.withLock { $0 } == ["dialogue"])
        #expect(parts.requestLoudness(.reset, programme: "dialogue"))
        #expect(parts.pausedProgrammes.withLock { $0 } == ["dialogue"], "a reset does not resume")
    }

    @Test func countsCarryOverOpenings() {
        let parts = parts()
        parts.updateCounts(xruns: 3, overruns: 1)
        parts.carry(xruns: 3, overruns: 1)
        parts.updateCounts(xruns: 2, overruns: 0)
        #expect(parts.status.xruns == 5 && parts.status.overruns == 1)
    }

    @Test func aRereadWithoutARouterSaysWhatItCouldNotDo() throws {
        let parts = parts()
        let destination = try DestinationSettings(parsing: "127.0.0.1:9000", defaultPrefix: "/jacktap", defaultBundles: true)
        let summary = parts.apply(.init(destinations: [destination], sources: ["b:out"], globs: ["c:*"], needRestart: ["rate"]))
        #expect(summary.contains("1 destination(s), 1 source(s), 1 glob(s)"))
        #expect(summary.contains("kept until a restart: rate"))
        #expect(summary.contains("no OSC router"))
        #expect(parts.plan.current.named == ["b:out"] && parts.plan.current.globs == ["c:*"])
    }
}
