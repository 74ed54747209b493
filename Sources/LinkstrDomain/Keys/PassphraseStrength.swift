/// Whether a new passphrase is too weak to protect a key file (NIP-49's scrypt slows guessing; it does
/// not save a passphrase found in the first pages of every cracking list). Checked when a passphrase is
/// chosen or changed; `--allow-weak` overrides it for those who insist.
public enum PassphraseStrength {
    public static let minimumLength = 8

    /// The most common passwords of the public breach lists (lower case; compared without case).
    static let common: Set<String> = [
        "password", "password1", "password123", "passw0rd", "12345678", "123456789", "1234567890", "qwertyuiop",
        "qwerty123", "iloveyou", "sunshine", "princess", "football", "baseball", "welcome1", "trustno1",
        "superman", "11111111", "00000000", "abc12345", "letmein1", "monkey123", "dragon123", "starwars",
        "whatever", "linkstr1", "nostr123", "correcthorse", "changeme", "asdfghjkl", "zaq12wsx", "1q2w3e4r",
    ]

    /// Why `passphrase` is weak, in words; nil when it is not.
    public static func weakness(_ passphrase: String) -> String? {
        if passphrase.count < minimumLength { return "it is shorter than \(minimumLength) characters" }
        if common.contains(passphrase.lowercased()) { return "it is one of the most common passwords" }
        return nil
    }
}
