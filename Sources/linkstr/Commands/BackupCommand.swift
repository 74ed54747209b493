import ArgumentParser
import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Restore a .linkstrbackup file (from the iOS app or made here), or export one.",
        subcommands: [Import.self, Export.self])

    /// `--backup-passphrase-file`, else LINKSTR_BACKUP_PASSPHRASE, else asked on the terminal.
    struct BackupPassphrase: ParsableArguments {
        @Option(name: .customLong("backup-passphrase-file"), help: "Read the backup's own passphrase (sealed form) from this file.")
        var file: String?

        func read(_ question: String) throws -> String {
            let ask: @Sendable (String) -> String? = { TerminalPrompt.secret($0) }
            let hasTerminal = FileManager.default.isReadableFile(atPath: "/dev/tty")
            let source: PassphraseSource?
            if let file { source = .file(URL(fileURLWithPath: file)) }
            else if let v = ProcessInfo.processInfo.environment["LINKSTR_BACKUP_PASSPHRASE"] { source = .value(v) }
            else { source = hasTerminal ? .prompt(ask) : nil }
            guard let source else { throw CLIError("this backup is sealed: give its passphrase with --backup-passphrase-file or LINKSTR_BACKUP_PASSPHRASE.", .invalidInput) }
            return try source.read(question: question)
        }
    }

    struct Import: LinkstrCommand {
        static let configuration = CommandConfiguration(
            abstract: "Restore a backup: its identity is stored (under a new passphrase) and made active, its data merged with what is here.",
            discussion: "Nothing is published. A backup that breaks a rule or conflicts with the data here is refused and changes nothing.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var backupPassphrase: BackupPassphrase
        @Argument(help: "The .linkstrbackup file.") var file: String
        @Option(name: .customLong("kdf-cost"), help: "scrypt cost exponent for the key file (NIP-49 log_n).") var kdfCost: UInt8 = NIP49.defaultLogN

        func execute() async throws {
            let ctx = try CLIContext(global)
            let sealed = try BackupActions.needsPassphrase(file)
            let backup = try BackupActions.load(file, passphrase: sealed ? try backupPassphrase.read("passphrase of the backup: ") : nil)
            let known = try ctx.vault.list().contains { $0.pubkey == backup.owner }
            let actions = try ctx.device().backups
            let (key, _, outcome) = try actions.restore(backup, passphrase: known ? nil : try ctx.newPassphrase(), logN: kdfCost, now: ctx.now)
            if global.json {
                printLine(Output.json(.object(JSONObject([
                    ("npub", .string(key.publicKey.npub)), ("pubkey", .string(key.publicKey.hex)),
                    ("sessions_added", .integer(Int64(outcome.sessionsAdded))), ("posts_added", .integer(Int64(outcome.postsAdded))),
                    ("reactions_added", .integer(Int64(outcome.reactionsAdded))),
                ]))))
            } else {
                printLine(key.publicKey.npub)
                printError("restored: \(outcome.sessionsAdded) new session\(outcome.sessionsAdded == 1 ? "" : "s"), \(outcome.postsAdded) new post\(outcome.postsAdded == 1 ? "" : "s").")
            }
        }
    }

    struct Export: LinkstrCommand {
        static let readsOnly = true
        static let configuration = CommandConfiguration(
            abstract: "Write the active identity and its data to a backup file (0600; an existing file is not replaced).",
            discussion: "--format sealed (the default) protects the whole file with a passphrase of its own; --format ios writes the iOS app's file, which holds the secret key in plain text.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var backupPassphrase: BackupPassphrase
        @Argument(help: "Where to write it.") var file: String
        @Option(help: "sealed (linkstr, encrypted) or ios (the iOS app's plain file).") var format: String = "sealed"
        @Option(name: .customLong("kdf-cost"), help: "scrypt cost exponent of the sealed form (NIP-49 log_n).") var kdfCost: UInt8 = NIP49.defaultLogN

        func execute() async throws {
            guard let chosen = BackupActions.Format(rawValue: format) else { throw CLIError("--format is sealed or ios.", .usage) }
            let ctx = try CLIContext(global)
            let account = try ctx.account()
            let passphrase = chosen == .sealed ? try backupPassphrase.read("passphrase for the backup: ") : nil
            let data = try account.exportBackup(try ctx.device().backups, format: chosen, passphrase: passphrase,
                                                logN: kdfCost, now: ctx.now)
            if chosen == .ios { printError("warning: " + BackupActions.plaintextWarning) }
            try BackupActions.write(data, to: file)
            // The key has a copy now: logging out no longer loses it.
            try ctx.vault.setBackedUp(account.me, true)
            Output.say(file, json: global.json, [("file", .string(file)), ("format", .string(chosen.rawValue))])
        }
    }
}
