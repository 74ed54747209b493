import Dispatch
import Foundation

/// Small timing helpers shared by the benchmarks.
enum Timing {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func secondsAsync(_ body: () async throws -> Void) async rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Median and p99 of `runs` timings of `body`, in milliseconds.
    static func distribution(runs: Int, _ body: (Int) throws -> Void) rethrows -> (median: Double, p99: Double) {
        var samples = [Double]()
        for i in 0..<runs { samples.append(try seconds { try body(i) } * 1000) }
        samples.sort()
        return (samples[samples.count / 2], samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))])
    }

    /// With `LINKSTR_BENCH_MARKS` set: now on CLOCK_MONOTONIC, which `perf record -k CLOCK_MONOTONIC`
    /// stamps samples with, so that `perf report --time` can take one sync out of the whole run.
    static func monotonicMark() -> Double? {
        guard ProcessInfo.processInfo.environment["LINKSTR_BENCH_MARKS"] != nil else { return nil }
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    static func report(_ label: String, _ value: String) {
        print("  \(label.padding(toLength: 46, withPad: " ", startingAt: 0))\(value)")
    }
}
