import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

// Test helper for the crash test: ingests a deterministic stream of messages into a data directory,
// one transaction per batch, printing the number of committed batches as it goes.
// Usage: linkstr-ingest-worker HOME SEED COUNT BATCH
let args = CommandLine.arguments
guard args.count == 5, let seed = UInt64(args[2]), let count = Int(args[3]), let batch = Int(args[4]) else {
    FileHandle.standardError.write(Data("usage: linkstr-ingest-worker HOME SEED COUNT BATCH\n".utf8))
    exit(2)
}
let me = SecretKey.generate(using: SeededRandom(seed: seed))
let messages = ScenarioGenerator.stream(count: count, seed: seed, me: me.publicKey.hex)
do {
    let store = try LocalStore(paths: DataPaths.resolve(home: args[1])).account(me, now: 1)
    for (i, start) in stride(from: 0, to: messages.count, by: batch).enumerated() {
        let chunk = Array(messages[start..<min(start + batch, messages.count)])
        _ = try store.ingest(chunk, processedWraps: chunk.flatMap(\.wrapIDs), now: 1)
        FileHandle.standardOutput.write(Data("committed \(i + 1)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("ingest failed: \(error)\n".utf8))
    exit(1)
}
