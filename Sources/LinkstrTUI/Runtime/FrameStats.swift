import Foundation
import LinkstrApp

/// The loop's own clocks, in seconds as doubles: a frame and a key are timed on the machine's real
/// clocks (what the user waits for), and a paste's 30 ms flush is terminal timing, not the account's
/// time (`TimeSource`, which the effects and the engine run on).
enum Monotonic {
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

public enum WallClock {
    public static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// `LINKSTR_FRAME_STATS=file`: frame timings for the TUI benchmark, written as JSON on exit.
final class FrameStats {
    let path: String
    let processStart: Double
    var firstFrame: Double?
    var firstFullFrame: Double?
    var keyLatencies: [Double] = []
    var frames = 0
    /// When each boot step was first on screen, to tell where the time to the full frame goes.
    var steps: [String: Double] = [:]

    init(path: String, processStart: Double) { self.path = path; self.processStart = processStart }

    func recordFrame(_ state: AppState) {
        frames += 1
        let t = WallClock.now - processStart
        if firstFrame == nil { firstFrame = t }
        if case .booting(let step) = state.phase, steps[step.rawValue] == nil { steps[step.rawValue] = t * 1000 }
        // "Full": the main screen with the session list loaded.
        if firstFullFrame == nil, state.phase == .main, !state.sessions.loading { firstFullFrame = t }
    }

    /// Each key's time split into input and reduce, answers applied, state compared, view built, and
    /// terminal drawn; and how many answers from the runner that frame applied.
    var keyParts: [[Double]] = []
    var keyAnswers: [Int] = []
    func recordKey(_ seconds: Double, parts: [Double], answers: Int) {
        keyLatencies.append(seconds)
        keyParts.append(parts)
        keyAnswers.append(answers)
    }

    /// Batches the sync reported, session lists read from the store (every session), and lists that
    /// came with the news (only the touched rows read): news pushes its rows, it does not read them back.
    var batchesArrived = 0, listsLoaded = 0, listsPushed = 0
    func recordAction(_ action: AppAction) {
        switch action {
        case .sessions(.messagesArrived(_, _, let listing, _)):
            batchesArrived += 1
            if listing != nil { listsPushed += 1 }
        case .sessions(.sessionsLoaded): listsLoaded += 1
        default: break
        }
    }

    /// Feed opens, from the key to the frame that shows the feed loaded (not the "loading…" frame).
    var feedOpens: [Double] = []
    private var feedRequestedAt: Double?
    func feedRequested(at t: Double) { if feedRequestedAt == nil { feedRequestedAt = t } }
    func recordFeed(_ state: AppState) {
        guard let start = feedRequestedAt else { return }
        guard let feed = state.sessions.open else { feedRequestedAt = nil; return }  // left before it loaded
        if !feed.loading {
            feedOpens.append(Monotonic.now - start)
            feedRequestedAt = nil
        }
    }

    func write() {
        func kib(_ field: String) -> Int {
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
            let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        let object: [String: Any] = [
            "first_frame_ms": (firstFrame ?? -1) * 1000,
            "first_full_frame_ms": (firstFullFrame ?? -1) * 1000,
            "frames": frames,
            "boot_steps_ms": steps,
            "key_latencies_ms": keyLatencies.map { $0 * 1000 },
            "key_parts_ms": keyParts.map { $0.map { $0 * 1000 } },
            "key_answers": keyAnswers,
            "feed_open_ms": feedOpens.map { $0 * 1000 },
            "batches_arrived": batchesArrived,
            "session_lists_loaded": listsLoaded,
            "session_lists_pushed": listsPushed,
            "rss_kib": kib("VmRSS"),
            "peak_rss_kib": kib("VmHWM"),
        ]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) {
            _ = FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600])
        }
    }
}
