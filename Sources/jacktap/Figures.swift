import ArgumentParser
import Schema

/// `jacktap figures`: the reference of every address jacktap sends, written from the schema of figures
/// (docs/osc-reference.md is its output).
struct Figures: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the OSC reference: every address jacktap sends, its types, arguments, when and why.",
        discussion: "The same table as docs/osc-reference.md, written from the one description of every figure."
    )

    @Option(help: "Address prefix to show the addresses under.")
    var prefix = "/jacktap"

    func validate() throws {
        guard prefix.hasPrefix("/"), !prefix.hasSuffix("/") || prefix == "/" else {
            throw ValidationError("--prefix must start with / and not end with one (e.g. /jacktap)")
        }
    }

    func run() {
        print(FigureReference.markdown(prefix: prefix == "/" ? "" : prefix), terminator: "")
    }
}
