import Foundation

/// CPU seconds a process has used (user + system, its reaped children included), from Linux's
/// `/proc/PID/stat`: where a sync's two cores went, ours against the relay's on the same machine.
enum ProcessCPU {
    static func seconds(_ pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        let ticks = fields[11...14].compactMap { Double($0) }.reduce(0, +)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func ours() -> Double { seconds(getpid()) ?? 0 }
}
