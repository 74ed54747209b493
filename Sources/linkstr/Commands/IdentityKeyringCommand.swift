import ArgumentParser
import Foundation
import LinkstrDomain
import LinkstrStorage
import NostrProtocol

extension IdentityCommand {
    /// `linkstr identity keyring on|off|status`: the active identity's passphrase in the Secret Service
    /// keyring (GNOME Keyring, KWallet, KeePassXC), so that commands and the app unlock without asking.
    struct Keyring: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keyring", abstract: "Keep the passphrase in the desktop's keyring (Secret Service), or stop, or say where it comes from.",
            discussion: "Passphrase sources, in order: --passphrase-file, LINKSTR_PASSPHRASE, passphrase_command, the keyring, the prompt. "
                + "A keyring that is absent, locked, refuses or takes more than 2 s is passed over with one line on stderr.",
            subcommands: [On.self, Off.self, Status.self])

        struct On: LinkstrCommand {
            static let configuration = CommandConfiguration(
                commandName: "on", abstract: "Put the active identity's passphrase in the keyring (proved by unlocking with it first).")
            @OptionGroup var global: GlobalOptions

            func execute() async throws {
                let ctx = try CLIContext(global)
                let (active, npub) = try ctx.activeIdentity()
                do { try ctx.vault.keepInKeyring(active, npub: npub, passphrase: try ctx.passphrase()) } catch let failure as LinkstrStorage.Keyring.Failure {
                    throw CLIError("could not store the passphrase: \(failure.description).", .failure)
                }
                Output.say("the passphrase of \(npub) is in the keyring (\(LinkstrStorage.Keyring.label(npub: npub))).", json: global.json,
                           [("keyring", .bool(true))] + Output.key(active))
            }
        }

        struct Off: LinkstrCommand {
            static let configuration = CommandConfiguration(commandName: "off", abstract: "Remove the active identity's passphrase from the keyring.")
            @OptionGroup var global: GlobalOptions

            func execute() async throws {
                let ctx = try CLIContext(global)
                let (active, npub) = try ctx.activeIdentity()
                let removed: Bool
                do { removed = try ctx.vault.leaveKeyring(active, npub: npub) } catch let failure as LinkstrStorage.Keyring.Failure {
                    throw CLIError("could not remove the passphrase from the keyring: \(failure.description).", .failure)
                }
                Output.say(removed ? "the passphrase of \(npub) is no longer in the keyring." : "the keyring held no passphrase for \(npub).",
                           json: global.json, [("keyring", .bool(false)), ("removed", .bool(removed))] + Output.key(active))
            }
        }

        struct Status: LinkstrCommand {
            static let readsOnly = true
            static let configuration = CommandConfiguration(commandName: "status", abstract: "Where the passphrase comes from now, and what the keyring holds.")
            @OptionGroup var global: GlobalOptions

            func execute() async throws {
                let ctx = try CLIContext(global)
                let (active, npub) = try ctx.activeIdentity()
                let uses = ctx.vault.usesKeyring(active)
                var item = "not asked", problem: String?
                if uses {
                    do throws(LinkstrStorage.Keyring.Failure) {
                        item = try LinkstrStorage.Keyring.lookup(npub: npub) == nil ? "missing" : "found"
                    } catch {
                        item = "unavailable"
                        problem = error.description
                    }
                }
                let source = ctx.passphraseSourceName(keyringUsable: uses && item == "found")
                var text = "the passphrase comes from \(source)."
                if uses { text += " keyring: " + (problem ?? (item == "found" ? "holds it" : "holds no passphrase for \(npub)")) + "." }
                Output.say(text, json: global.json,
                           [("source", .string(source)), ("keyring", .bool(uses)), ("keyring_item", .string(item)),
                            ("keyring_error", problem.map(JSONValue.string) ?? .null)] + Output.key(active))
            }
        }
    }
}

extension CLIContext {
    /// The first source that would give the passphrase, in words: "--passphrase-file", "LINKSTR_PASSPHRASE",
    /// "passphrase_command", "the keyring", "the prompt", or "nowhere".
    func passphraseSourceName(keyringUsable: Bool) -> String {
        if options.passphraseFile != nil { return "--passphrase-file" }
        if ProcessInfo.processInfo.environment["LINKSTR_PASSPHRASE"] != nil { return "LINKSTR_PASSPHRASE" }
        if passphraseCommand != nil { return "passphrase_command" }
        if keyringUsable { return "the keyring" }
        return FileManager.default.isReadableFile(atPath: "/dev/tty") ? "the prompt" : "nowhere"
    }
}
