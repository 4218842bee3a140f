import JackHost
import XCTest

/// Which source feeds which input: named sources first, glob matches as they appear, sticky across the
/// ports going and coming back, growing when there are more sources than inputs.
final class SourcePlanTests: XCTestCase {
    func testNamedSourcesTakeTheFirstInputsInOrderBeforeTheyExist() {
        var plan = SourcePlan(named: ["b:out", "a:out"], globs: [], inputs: 3)
        XCTAssertEqual(plan.assignments, ["b:out", "a:out", nil])
        XCTAssertTrue(plan.update(available: []).isEmpty, "nothing to connect while the sources are missing")
        let now = plan.update(available: ["a:out"])
        XCTAssertEqual(now.map(\.source), ["a:out"])
        XCTAssertEqual(now.map(\.input), [1])
    }

    func testAGlobThatMatchesNothingYetIsWaitedForAndTakesFreeInputsWhenItsPortsAppear() {
        var plan = SourcePlan(named: [], globs: ["player:*"], inputs: 1)
        XCTAssertEqual(plan.unmatchedGlobs(available: ["system:capture_1"]), ["player:*"])
        XCTAssertTrue(plan.update(available: ["system:capture_1"]).isEmpty)
        let connections = plan.update(available: ["player:out_l", "player:out_r"])
        XCTAssertEqual(connections.map(\.source), ["player:out_l", "player:out_r"])
        XCTAssertEqual(connections.map(\.input), [0, 1])
        XCTAssertEqual(plan.inputsNeeded, 2, "a second source asks for a second input")
        XCTAssertEqual(plan.unmatchedGlobs(available: ["player:out_l"]), [])
    }

    func testASourceThatGoesAndComesBackReturnsToItsOwnInput() {
        var plan = SourcePlan(named: [], globs: ["p*:*"], inputs: 0)
        _ = plan.update(available: ["p1:out", "p2:out"])
        XCTAssertEqual(plan.update(available: ["p2:out"]).map(\.input), [1], "p1 gone, p2 stays on in_2")
        _ = plan.update(available: ["p2:out", "p3:out"])
        XCTAssertEqual(plan.assignments, ["p1:out", "p2:out", "p3:out"], "p1's input waits for it")
        let back = plan.update(available: ["p1:out", "p2:out", "p3:out"])
        XCTAssertEqual(back.first { $0.source == "p1:out" }?.input, 0)
    }

    func testADisconnectedSourceIsNotBroughtBackByItsGlob() {
        var plan = SourcePlan(named: [], globs: ["p:*"], inputs: 2)
        _ = plan.update(available: ["p:a", "p:b"])
        plan.remove("p:a")
        XCTAssertEqual(plan.update(available: ["p:a", "p:b"]).map(\.source), ["p:b"])
        XCTAssertEqual(plan.add("p:a"), 0, "a connect brings it back, on the first free input")
    }

    func testAConnectToAnInputReplacesWhatItHad() {
        var plan = SourcePlan(named: ["x:1"], globs: [], inputs: 2)
        plan.add("y:1", input: 0)
        XCTAssertEqual(plan.assignments, ["y:1", nil])
        XCTAssertEqual(plan.named, ["x:1", "y:1"])
    }

    func testARereadConfigurationFreesInputsWhoseSourceIsNoLongerWanted() {
        var plan = SourcePlan(named: ["a:1"], globs: ["g:*"], inputs: 0)
        _ = plan.update(available: ["a:1", "g:1"])
        plan.replace(named: ["b:1"], globs: ["g:*"])
        XCTAssertEqual(plan.assignments, ["b:1", "g:1"], "a:1's input goes to the new named source")
        XCTAssertEqual(plan.named, ["b:1"])
    }
}
