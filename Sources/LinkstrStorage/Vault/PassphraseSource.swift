import Foundation
import LinkstrDomain
import NostrProtocol

/// Where the passphrase that unlocks identities comes from.
public enum PassphraseSource: Sendable {
    case value(String)
    case file(URL)
    /// A program that prints it (`passphrase_command`).
    case command(PassphraseCommand)
    /// Ask on the terminal (the front end supplies the prompt).
    case prompt(@Sendable (_ question: String) -> String?)
    /// The Secret Service keyring's item for this identity; when it is missing or the keyring fails,
    /// `otherwise`, after `say` was told why in one line.
    indirect case keyring(KeyringUse, otherwise: PassphraseSource?)

    /// The keyring asked for an identity's passphrase (`identity keyring on` marked it).
    public struct KeyringUse: Sendable {
        public let npub: String
        public let say: @Sendable (String) -> Void
        public init(npub: String, say: @escaping @Sendable (String) -> Void) { self.npub = npub; self.say = say }
    }

    /// `--passphrase-file` wins, then `LINKSTR_PASSPHRASE`, then the passphrase command
    /// (`--passphrase-command`, else `passphrase_command`), then the keyring (for an identity that put
    /// its passphrase there), then the prompt when there is one.
    public static func resolve(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                               command: PassphraseCommand? = nil, keyring: KeyringUse? = nil,
                               prompt: (@Sendable (String) -> String?)?) -> PassphraseSource? {
        if let file { return .file(URL(fileURLWithPath: file)) }
        if let v = environment["LINKSTR_PASSPHRASE"] { return .value(v) }
        if let command { return .command(command) }
        let asked = prompt.map { PassphraseSource.prompt($0) }
        if let keyring { return .keyring(keyring, otherwise: asked) }
        return asked
    }

    /// The passphrase (the first line of a file, without its line break).
    public func read(question: String = "passphrase: ") throws(VaultError) -> String {
        switch self {
        case .value(let v): return v
        case .file(let url):
            // Bytes, not characters: "\r\n" is one Character, so a split on "\n" kept a Windows line whole.
            let bytes: [UInt8]
            do throws(BoundedRead.Failure) { bytes = try BoundedRead.file(url.path, limit: InputLimits.passphraseFile, what: "the passphrase file") } catch {
                throw .io(error.description)
            }
            return String(decoding: BoundedRead.firstLine(bytes), as: UTF8.self)
        case .command(let command):
            return try command.run()
        case .prompt(let ask):
            guard let answer = ask(question) else { throw .noPassphrase }
            return answer
        case .keyring(let use, let otherwise):
            do throws(Keyring.Failure) {
                if let stored = try Keyring.lookup(npub: use.npub) { return stored }
                use.say(Keyring.noItem)
            } catch {
                use.say(error.description)
            }
            guard let otherwise else { throw .noPassphrase }
            return try otherwise.read(question: question)
        }
    }
}
