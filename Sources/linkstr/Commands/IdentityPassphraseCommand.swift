import ArgumentParser
import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

extension IdentityCommand {
    /// `linkstr identity passphrase`: the active identity's key file under a new passphrase.
    /// The current one comes from the usual sources (file, environment, command, prompt); the new one only
    /// from `--new-passphrase-file` or a prompt typed twice, never from the environment that unlocked it.
    struct ChangePassphrase: LinkstrCommand {
        static let configuration = CommandConfiguration(
            commandName: "passphrase", abstract: "Change the active identity's passphrase (and, with --kdf-cost, its scrypt cost).",
            discussion: "The key file is replaced whole: a kill at any moment leaves the old file or the new one. A new passphrase under 8 characters or among the most common is refused (--allow-weak takes it).")
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("new-passphrase-file"), help: "Read the new passphrase from this file (its first line) instead of asking twice.")
        var newPassphraseFile: String?
        @Option(name: .customLong("kdf-cost"), help: "scrypt cost exponent for the key file (NIP-49 log_n, 16 to 22).") var kdfCost: UInt8 = NIP49.defaultLogN
        @Flag(name: .customLong("allow-weak"), help: "Take a new passphrase that is short or common.") var allowWeak = false

        func execute() async throws {
            guard (16...NIP49.maxLogN).contains(kdfCost) else { throw CLIError("--kdf-cost is from 16 to \(NIP49.maxLogN).", .usage) }
            let ctx = try CLIContext(global)
            let (active, _) = try ctx.activeIdentity()
            let old = try ctx.passphrase("current passphrase: ")
            let new = try newPassphrase()
            if !allowWeak, let why = PassphraseStrength.weakness(new) {
                throw CLIError("that new passphrase is weak: \(why). Choose a longer one, or add --allow-weak.", .invalidInput)
            }
            try ctx.vault.changePassphrase(active, old: old, new: new, logN: kdfCost)
            let npub = (try? PublicKey(hex: active))?.npub ?? active
            if let problem = ctx.vault.keyringFollows(active, npub: npub, newPassphrase: new) {
                FileHandle.standardError.write(Data("linkstr: the keyring kept the old passphrase: \(problem)\n".utf8))
            }
            Output.say("passphrase changed for \(npub).", json: global.json, [("changed", .bool(true)), ("kdf_cost", .integer(Int64(kdfCost)))] + Output.key(active))
        }

        /// From the file, else typed twice on the terminal.
        private func newPassphrase() throws -> String {
            if let newPassphraseFile {
                let value = try PassphraseSource.file(URL(fileURLWithPath: newPassphraseFile)).read()
                guard !value.isEmpty else { throw VaultError.emptyPassphrase }
                return value
            }
            guard FileManager.default.isReadableFile(atPath: "/dev/tty") else {
                throw CLIError("a new passphrase is needed: --new-passphrase-file FILE, or run this in a terminal.", .usage)
            }
            let first = TerminalPrompt.secret("new passphrase: ") ?? ""
            guard TerminalPrompt.secret("repeat new passphrase: ") == first else { throw CLIError("the passphrases do not match.", .invalidInput) }
            guard !first.isEmpty else { throw VaultError.emptyPassphrase }
            return first
        }
    }
}
