import ArgumentParser
import LinkstrStorage
import Logging

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "Data directory (default: $XDG_DATA_HOME/linkstr).")
    var home: String?

    @Option(name: .customLong("relay"), help: "Use exactly these relays for this run (repeatable), ignoring the stored list.")
    var relays: [String] = []

    @Option(name: .customLong("passphrase-file"), help: "Read the identity passphrase from this file (else LINKSTR_PASSPHRASE, else the passphrase command, else a prompt).")
    var passphraseFile: String?

    @Option(name: .customLong("passphrase-command"),
            help: "A program that prints the passphrase, run without a shell (\"pass show linkstr\"); overrides passphrase_command in config.toml.")
    var passphraseCommand: String?

    /// `--passphrase-command`, else `passphrase_command` in config.toml.
    func passphraseCommand(configured: PassphraseCommand?) throws -> PassphraseCommand? {
        guard let line = passphraseCommand else { return configured }
        guard let command = PassphraseCommand(line: line) else {
            throw CLIError("--passphrase-command is a command line (\"pass show linkstr\"), with its quotes closed.", .usage)
        }
        return command
    }

    @Flag(name: .long, help: "Machine-readable output.")
    var json = false

    @Option(name: .customLong("log-level"), help: "What goes to linkstr.log: trace, debug, info, notice, warning, error, critical (default: info). Never secrets or content.",
            transform: LogLevelArgument.parse)
    var logLevel: LogLevelArgument = LogLevelArgument(.info)

    func validate() throws {
        do { try DataPaths.checkHome(home) } catch { throw ValidationError(error.description) }
    }
}
