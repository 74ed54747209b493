#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim` (not in the Glibc module's headers), looked up once; a no-op elsewhere. After
/// a burst of short-lived allocations (a junk flood, a search index build) the allocator keeps the freed
/// memory; this gives it back to the system.
public enum MemoryTrim {
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    public static func now() { _ = trim?(0) }
}
