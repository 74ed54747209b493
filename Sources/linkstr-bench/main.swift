import Foundation

// linkstr-bench [protocol|store|ingest|sync|tui|view|field|junk|junk-stream|sync-tui|sync-news|wipe|backup|search|speed|cold-memory|media|media-tui|outbox|profiles|export|queue|hooks|all] [N] [relay, for speed; variants, for junk-stream]: release-mode benchmarks; figures go to docs/BENCHMARKS.md.
let args = Array(CommandLine.arguments.dropFirst())
let mode = args.first ?? "all"
let n = args.dropFirst().first.flatMap(Int.init)
do {
    switch mode {
    case "protocol": try ProtocolBench.run(wrapCount: n ?? 10_000)
    case "store": try StoreBench.run(posts: n ?? 100_000)
    case "ingest": try IngestBench.run(messages: n ?? 20_000)
    case "sync": try await SyncBench.run(wraps: n ?? 10_000)
    case "tui": try TUIBench.run(posts: n ?? 100_000)
    case "view": ViewBench.run(posts: n ?? 100)
    case "field": try FieldBench.run(bytes: n ?? 1 << 20)
    case "junk": try JunkBench.run(count: n ?? 100_000)
    case "junk-stream": try await JunkStreamBench.run(seconds: n ?? 60, variants: args.dropFirst(2).first == "variants")
    case "sync-tui": try await SyncTUIBench.run(wraps: n ?? 10_000)
    case "sync-news": try await SyncTUIBench.run(wraps: n ?? 20_000, keys: 0, idle: 30)
    case "wipe": try WipeBench.run(posts: n ?? 100_000)
    case "backup": try BackupBench.run(posts: n ?? 100_000)
    case "search": try SearchBench.run(posts: n ?? 100_000)
    case "speed": try await SpeedBench.run(wraps: n ?? 20_000, only: args.dropFirst(2).first)
    case "cold-memory": try await ColdMemoryBench.run(wraps: n ?? 100_000)
    case "media": try await MediaBench.run(runs: n ?? 50)
    case "media-tui": try MediaTUIBench.run(posts: n ?? 1_000)
    case "outbox": try await OutboxBench.run(posts: n ?? 20)
    case "profiles": try await ProfilesBench.run(people: n ?? 1_000)
    case "export": try ExportBench.run(posts: n ?? 10_000)
    case "queue": try await QueueBench.run(posts: n ?? 1_000)
    case "hooks": try await HookBench.run(posts: n ?? 6)
    case "all":
        try ProtocolBench.run(wrapCount: 10_000)
        try StoreBench.run(posts: 100_000)
        try await SyncBench.run(wraps: 10_000)
        try TUIBench.run(posts: 100_000)
        try FieldBench.run(bytes: 1 << 20)
    default:
        print("usage: linkstr-bench [protocol|store|ingest|sync|tui|view|field|junk|junk-stream|sync-tui|sync-news|wipe|backup|search|speed|cold-memory|media|media-tui|outbox|profiles|export|queue|hooks|all] [N]")
        exit(2)
    }
} catch {
    print("benchmark failed: \(error)")
    exit(1)
}
