import Foundation
import LinkstrMedia
import Synchronization

/// Pictures made into terminal sequences off the UI thread, cached per link and box size: the
/// UI thread only looks them up; a miss is drawn on a background queue, and `wake` tells the loop to
/// paint it. The cache is bounded in bytes, least recently used first out.
public final class ImageArt: Sendable {
    public struct Key: Hashable, Sendable {
        public var link: String
        public var revision: Int64
        public var columns: Int
        public var rows: Int
    }

    public static let cacheBytes = 48 << 20

    public let proto: ImageProtocol
    let colors: SymbolArt.Colors
    let cell: (width: Int, height: Int)
    private let pictures: Pictures
    private let wake: @Sendable () -> Void
    private let queue = DispatchQueue(label: "linkstr.images", qos: .userInitiated)
    private struct State {
        var art: [Key: (rows: [String], bytes: Int, used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var pending = Set<Key>()
        var ready = false
        var generation = 0
    }
    private let state = Mutex(State())

    public init(proto: ImageProtocol, colors: SymbolArt.Colors, cell: (width: Int, height: Int), pictures: Pictures,
                wake: @escaping @Sendable () -> Void) {
        self.proto = proto
        self.colors = colors
        self.cell = cell
        self.pictures = pictures
        self.wake = wake
    }

    /// The sequences for `key` when drawn; nil now, and drawn in the background, when not yet.
    public func lookup(_ key: Key) -> [String]? {
        let generation = pictures.current
        let (hit, start): ([String]?, Bool) = state.withLock { s in
            if s.generation != generation { s = State(generation: generation) }  // another account: nothing of the last
            s.clock += 1
            if let found = s.art[key] {
                s.art[key]!.used = s.clock
                return (found.rows, false)
            }
            guard !s.pending.contains(key) else { return (nil, false) }
            s.pending.insert(key)
            return (nil, true)
        }
        if start { draw(key, generation: generation) }
        return hit
    }

    /// True once since pictures were drawn that the screen may be waiting for.
    public func takeReady() -> Bool { state.withLock { s in defer { s.ready = false }; return s.ready } }

    /// The kitty image id of a box: the same picture at the same size is sent once and placed again.
    public static func kittyID(_ key: Key) -> UInt32 {
        var hasher = FNV1a()
        hasher.add(key.link)
        hasher.add("|\(key.revision)|\(key.columns)x\(key.rows)")
        return hasher.value % 0xFF_FFFE + 1
    }

    private func draw(_ key: Key, generation: Int) {
        queue.async { [self] in
            let rows = pictures.pixels(key.link).map {
                TerminalImage.render($0, columns: key.columns, rows: key.rows, as: proto, colors: colors, cell: cell, id: Self.kittyID(key))
            }
            state.withLock { s in
                guard s.generation == generation else { return }
                s.pending.remove(key)
                // Nothing to draw (gone from the cache, or it does not decode): asked again only when the
                // screen next changes its pictures, and no wake, so a bad file costs no loop.
                guard let rows else { return }
                let bytes = rows.reduce(0) { $0 + $1.utf8.count }
                s.clock += 1
                s.art[key] = (rows, bytes, s.clock)
                s.bytes += bytes
                while s.bytes > Self.cacheBytes, let oldest = s.art.min(by: { $0.value.used < $1.value.used }) {
                    s.art[oldest.key] = nil
                    s.bytes -= oldest.value.bytes
                }
                s.ready = true
            }
            wake()
        }
    }
}

/// FNV-1a, 32 bits: a stable small number for a string (Swift's own hash changes every run).
struct FNV1a {
    private(set) var value: UInt32 = 2_166_136_261
    mutating func add(_ s: String) {
        for byte in s.utf8 {
            value ^= UInt32(byte)
            value = value &* 16_777_619
        }
    }
}
