/// A size in bytes as people read it (the media cache's usage in Settings and `linkstr cache usage`).
public enum MediaSize {
    public static func words(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1 << 20 { return "\(bytes / 1024) KiB" }
        let mib = Double(bytes) / Double(1 << 20)
        return mib < 10 ? String(format: "%.1f MiB", mib) : "\(Int(mib.rounded())) MiB"
    }
}
