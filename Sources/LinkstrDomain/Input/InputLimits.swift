/// How much linkstr reads from a file or standard input that a person points it at, decided once.
/// Each is far above what the thing can be (a key is under 200 characters, a note must fit in one gift
/// wrap of 65,535 bytes) and far below what would hurt (`/dev/zero`, a film given by mistake).
public enum InputLimits {
    /// An nsec, hex or ncryptsec key read by `identity import`.
    public static let keyText = 64 * 1024
    /// A `--passphrase-file`: only its first line is the passphrase.
    public static let passphraseFile = 64 * 1024
    /// `config.toml`, `keys.toml` and themes: a few KiB each.
    public static let configFile = 1024 * 1024
    /// `--note-file`: twice what one message can carry, so that sending says by how much it is too long.
    public static let noteFile = 2 * MessageLimits.content
}
