import ArgumentParser
import Live
import Spawn

extension Failure {
    /// Prints the message and exits.
    func exit() -> Never {
        StandardOutput.error("jacktap: \(description)\n")
        Jacktap.exit(withError: ExitCode(code))
    }
}
