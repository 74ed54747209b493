import Foundation
import LinkstrStorage
import LinkstrTestSupport
import NostrProtocol

/// A flood of junk gift wraps (correct ids, bad signatures) through a real local relay (nostr-relay
/// storing them unchecked): the release CLI's `sync` CPU per wrap and database growth, then the terminal
/// app's resident memory before and after the same number arrives live.
enum JunkBench {
    static func run(count: Int) throws {
        let binary = try BenchHome.binary()
        let bench = try BenchHome("junk", me: SecretKey.generate(using: SeededRandom(seed: 44)))
        defer { bench.remove() }
        let (home, paths, me, passphrase) = (bench.home, bench.paths, bench.me, bench.passphrase)
        let relay = try TestRelay(maxLimit: 500, checksSignatures: false)
        defer { relay.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["LINKSTR_PASSPHRASE"] = passphrase
        func sync() throws -> (seconds: Double, cpu: Double, json: [String: Any]) {
            let cpuBefore = childCPU(), started = Date()
            // A relay sending mostly junk is dropped (`JunkMeter`) and `sync` then waits for it until its
            // deadline: 30 s, not 15 min (what came before the drop was all checked by then).
            let r = try ProcessRunner.run(binary, ["--home", home.path, "--relay", relay.url, "sync", "--json", "--timeout", "30"],
                                          environment: environment, timeout: 120)
            let json = (try? JSONSerialization.jsonObject(with: Data(r.stdoutText.utf8)) as? [String: Any]) ?? [:]
            return (Date().timeIntervalSince(started), childCPU() - cpuBefore, json)
        }
        func databaseBytes() -> Int {
            ["", "-wal"].reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: paths.database.path + $1)[.size] as? Int) ?? 0) }
        }
        let empty = try sync()
        let sizeBefore = databaseBytes()
        let seeded = try seed(relay, me.publicKey.hex, count)
        let flood = try sync()
        let invalid = flood.json["invalid"] as? Int ?? 0
        print("junk: \(binary.path), \(seeded.accepted) junk wraps stored by nostr-relay (seeded in \(String(format: "%.0f", seeded.seconds)) s)")
        Timing.report("sync through the flood", String(format: "%.1f s wall, %.2f s CPU; %d rejected as invalid", flood.seconds, flood.cpu, invalid))
        Timing.report("CPU per junk wrap", String(format: "%.1f µs (%.1f µs less an empty sync's %.2f s)", flood.cpu / Double(max(invalid, 1)) * 1e6,
                                                  (flood.cpu - empty.cpu) / Double(max(invalid, 1)) * 1e6, empty.cpu))
        Timing.report("database growth", String(format: "%.1f KiB (%d → %d bytes)", Double(databaseBytes() - sizeBefore) / 1024, sizeBefore, databaseBytes()))

        // The terminal app: resident memory before and after the same flood arrives live.
        let tmux = try Tmux()
        try tmux.start("j", [binary.path, "--home", home.path, "--relay", relay.url], environment: ["LINKSTR_PASSPHRASE": passphrase])
        try tmux.waitFor("j", text: "1 / 1", timeout: 120)
        let pid = try appPID(home)
        waitUntilIdle(pid)
        let before = rssKiB(pid)
        let live = try seed(relay, me.publicKey.hex, count)
        waitUntilIdle(pid)
        let peak = peakKiB(pid)
        let after = rssKiB(pid)
        try tmux.keys("j", "C-c")
        Timing.report("terminal app RSS, \(live.accepted) live junk wraps", String(format: "%.1f MiB before, %.1f MiB after (peak %.1f MiB): %+.1f MiB",
                                                                                   Double(before) / 1024, Double(after) / 1024, Double(peak) / 1024,
                                                                                   Double(after - before) / 1024))
    }

    static func seed(_ relay: TestRelay, _ recipient: String, _ count: Int) throws -> (accepted: Int, seconds: Double) {
        let started = Date()
        let r = try ProcessRunner.run(try TestEnvironment.python(), [TestEnvironment.interopScript("junk_seed.py").path, relay.url, recipient, String(count)],
                                      timeout: 1800)
        return (Int(r.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, Date().timeIntervalSince(started))
    }

    static func childCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func appPID(_ home: URL) throws -> Int32 {
        let r = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/pgrep"), ["-f", "linkstr --home \(home.path) --relay"])
        guard let pid = r.stdoutText.split(separator: "\n").compactMap({ Int32($0) }).max() else {
            throw ProcessRunner.Failure(description: "the app's process was not found")
        }
        return pid
    }

    static func status(_ pid: Int32, _ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    static func rssKiB(_ pid: Int32) -> Int { status(pid, "VmRSS") }
    static func peakKiB(_ pid: Int32) -> Int { status(pid, "VmHWM") }

    /// Until the process has used no CPU for two seconds.
    static func waitUntilIdle(_ pid: Int32) {
        func ticks() -> Int { ProcessCPU.ticks(pid) ?? 0 }
        var last = ticks(), quiet = 0
        while quiet < 4 {
            usleep(500_000)
            let now = ticks()
            quiet = now == last ? quiet + 1 : 0
            last = now
        }
    }
}
