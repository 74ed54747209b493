import Foundation
import LinkstrDomain
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// `.linkstrbackup` files with a large history (`posts` posts in 1,000 sessions): export (read,
/// derive, encode), the file's size, validation, restore into an empty store (one transaction), and
/// the sealed form (scrypt at the NIP-49 default cost, then XChaCha20-Poly1305).
enum BackupBench {
    static func run(posts: Int) throws {
        let me = SecretKey.generate(using: SeededRandom(seed: 46))
        let source = try BenchHome("backup-source", me: me), target = try BenchHome("backup-target", me: me)
        defer { source.remove(); target.remove() }
        let store = try LocalStore(paths: source.paths).account(me, now: 1)
        let fill = try LargeHistory.fill(store, me: me.publicKey.hex, sessions: 1_000, postsPerSession: max(1, posts / 1_000))
        print("backup: \(fill.messages) messages stored")

        var data = Data()
        var file: IOSBackupFile?
        let export = try Timing.seconds {
            file = BackupExport.file(try store.backupContents(secretKey: me), now: 2)
            data = try file!.encoded()
        }
        Timing.report("export (iOS form)", String(format: "%.2f s, %.1f MiB, %d records", export, Double(data.count) / 1_048_576, file?.recordCount ?? 0))
        var validated: ValidatedBackup?
        let validate = try Timing.seconds { validated = try BackupValidation.validate(data) }
        Timing.report("decode and validate", String(format: "%.2f s", validate))
        let restored = try LocalStore(paths: target.paths).account(me, now: 3)
        var outcome: BackupRestore.Outcome?
        let restore = try Timing.seconds { outcome = try restored.restoreBackup(validated!, now: 4) }
        Timing.report("restore (one transaction)", String(format: "%.2f s, %d sessions and %d posts added", restore,
                                                            outcome?.sessionsAdded ?? 0, outcome?.postsAdded ?? 0))
        benchCheck(try restored.visibleState() == store.visibleState(), "the restored account shows what the source shows")
        var sealed = Data()
        let seal = try Timing.seconds { sealed = try SealedBackup.seal(file!, key: me, passphrase: BenchHome.passphrase) }
        let open = try Timing.seconds { _ = try SealedBackup.open(sealed, passphrase: BenchHome.passphrase) }
        Timing.report("sealed form: seal / open", String(format: "%.2f s / %.2f s (scrypt 2^%d twice each)", seal, open, NIP49.defaultLogN))
    }
}
