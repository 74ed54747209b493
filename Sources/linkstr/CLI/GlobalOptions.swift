import ArgumentParser
import LinkstrStorage
import Logging

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Data directory (default: $XDG_DATA_HOME/linkstr).")
    var home: String?

    @Option(name: .customLong("relay"), help: "Use exactly these relays for this run (repeatable), ignoring the stored list.")
    var relays: [String] = []

    @Option(name: .customLong("passphrase-file"), help: "Read the identity passphrase from this file (else LINKSTR_PASSPHRASE, else a prompt).")
    var passphraseFile: String?

    @Flag(name: .long, help: "Machine-readable output.")
    var json = false

    @Option(name: .customLong("log-level"), help: "What goes to linkstr.log: trace, debug, info, notice, warning, error, critical (default: info). Never secrets or content.",
            transform: LogLevelArgument.parse)
    var logLevel: LogLevelArgument = LogLevelArgument(.info)

    func validate() throws {
        do { try DataPaths.checkHome(home) } catch { throw ValidationError(error.description) }
    }
}
