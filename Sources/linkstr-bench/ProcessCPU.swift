import Foundation

/// CPU a process has used, from Linux's `/proc/PID/stat`: the junk benches' app, and where a sync's two
/// cores went, ours against the relay's on the same machine.
enum ProcessCPU {
    /// User plus system clock ticks of `pid` so far (with `children`, also those of its reaped children).
    static func ticks(_ pid: Int32, children: Bool = false) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 14 else { return nil }
        return fields[11...(children ? 14 : 12)].compactMap { Int($0) }.reduce(0, +)
    }

    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// CPU seconds of `pid` so far, its reaped children included.
    static func seconds(_ pid: Int32) -> Double? { ticks(pid, children: true).map { Double($0) / ticksPerSecond } }

    static func ours() -> Double { seconds(getpid()) ?? 0 }
}
