#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One post as search sees it: what the user can read of it (note, link, the page's title).
public struct SearchDocument: Equatable, Sendable {
    public var postID: String
    public var sessionID: String
    public var createdAt: Int64
    public var url: String
    public var note: String?
    public var title: String?
    /// Within one second, the order this device sent its own posts in (as feeds order them; 0 for others').
    public var sentSeq: Int64
    public init(postID: String, sessionID: String, createdAt: Int64, url: String, note: String?, title: String?, sentSeq: Int64 = 0) {
        self.postID = postID; self.sessionID = sessionID; self.createdAt = createdAt; self.url = url; self.note = note; self.title = title
        self.sentSeq = sentSeq
    }
}

/// A post that matched, with its place in its session's feed (newest first), so a feed can be loaded
/// far enough to show it.
public struct SearchHit: Equatable, Sendable {
    public var postID: String
    public var sessionID: String
    public var createdAt: Int64
    /// 0 for the session's newest post.
    public var rankInSession: Int
    public init(postID: String, sessionID: String, createdAt: Int64, rankInSession: Int) {
        self.postID = postID; self.sessionID = sessionID; self.createdAt = createdAt; self.rankInSession = rankInSession
    }
}

/// The searchable text of one session's posts, held in memory only (never written anywhere: the store's
/// encryption at rest keeps its meaning).
///
/// Every post's note, URL and title are folded to lowercase once and laid end to end in one byte buffer,
/// separated by a NUL (which no folded text holds, so a match never spans two posts). A query is one
/// scan of that buffer: 100,000 posts take milliseconds, with no index to keep in step.
public struct SessionSearchCorpus: Sendable {
    public let sessionID: String
    /// The posts' ids laid end to end (newest first, as a feed shows them), with where each starts:
    /// one buffer instead of a string per post keeps 100,000 posts' ids in about 6 MB.
    let idBytes: [UInt8]
    let idStarts: [Int32]
    let createdAt: [Int64]
    /// Where each post's text starts in `bytes`.
    let starts: [Int32]
    let bytes: [UInt8]

    public var count: Int { createdAt.count }

    /// `documents` in any order; they are kept in the feed's order: newest first, then within a second as
    /// this device sent them, then by id (so `n` walks down the feed and a hit's rank is its place).
    public init(sessionID: String, documents: [SearchDocument]) {
        self.sessionID = sessionID
        let sorted = documents.sorted { a, b in
            if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
            return a.sentSeq != b.sentSeq ? a.sentSeq > b.sentSeq : a.postID > b.postID
        }
        var bytes = [UInt8](), starts = [Int32](), idBytes = [UInt8](), idStarts = [Int32]()
        bytes.reserveCapacity(sorted.reduce(0) { $0 + $1.url.utf8.count + ($1.note?.utf8.count ?? 0) + ($1.title?.utf8.count ?? 0) + 3 })
        starts.reserveCapacity(sorted.count)
        idStarts.reserveCapacity(sorted.count + 1)
        idBytes.reserveCapacity(sorted.reduce(0) { $0 + $1.postID.utf8.count })
        for d in sorted {
            starts.append(Int32(bytes.count))
            for part in [d.note, d.url, d.title] {
                guard let part, !part.isEmpty else { continue }
                bytes.append(contentsOf: PostSearchIndex.fold(part))
                bytes.append(0x0A)  // between fields: a query holds no newline, so it matches within one field
            }
            bytes.append(0)
            idStarts.append(Int32(idBytes.count))
            idBytes.append(contentsOf: d.postID.utf8)
        }
        idStarts.append(Int32(idBytes.count))
        self.bytes = bytes
        self.starts = starts
        self.idBytes = idBytes
        self.idStarts = idStarts
        createdAt = sorted.map(\.createdAt)
    }

    func postID(_ post: Int) -> String {
        String(decoding: idBytes[Int(idStarts[post])..<Int(idStarts[post + 1])], as: UTF8.self)
    }

    /// Posts whose note, URL or title holds `needle` (already folded), newest first.
    func hits(_ needle: [UInt8]) -> [SearchHit] { matches(needle).map(hit) }

    func hit(_ post: Int) -> SearchHit { SearchHit(postID: postID(post), sessionID: sessionID, createdAt: createdAt[post], rankInSession: post) }

    /// The indexes (newest first) of the posts whose text holds `needle`: one scan, one entry per post.
    func matches(_ needle: [UInt8]) -> [Int] {
        guard !needle.isEmpty, !bytes.isEmpty else { return [] }
        var out = [Int]()
        bytes.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return }
                var offset = 0
                while offset < hay.count, let at = Self.find(pinBase, pin.count, in: base, from: offset, to: hay.count) {
                    let post = Self.post(containing: at, starts: starts)
                    out.append(post)
                    // On to the next post: one hit per post.
                    offset = post + 1 < starts.count ? Int(starts[post + 1]) : hay.count
                }
            }
        }
        return out
    }

    /// The first place at or after `from` where the needle starts: `memchr` for its first byte (glibc's
    /// vectorised scan), then a compare of the rest. (`memmem` is not exported to Swift here.)
    static func find(_ needle: UnsafeRawPointer, _ count: Int, in hay: UnsafeRawPointer, from: Int, to end: Int) -> Int? {
        let first = Int32(needle.load(as: UInt8.self))
        var at = from
        while end - at >= count {
            guard let p = memchr(hay + at, first, end - at - count + 1) else { return nil }
            let i = hay.distance(to: UnsafeRawPointer(p))
            if memcmp(hay + i, needle, count) == 0 { return i }
            at = i + 1
        }
        return nil
    }

    /// The post whose text holds byte `offset` (binary search over the starts).
    static func post(containing offset: Int, starts: [Int32]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(starts[mid]) <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}

/// All sessions' corpora, and the query over them.
public struct PostSearchIndex: Sendable {
    /// The most hits a query returns (the newest); beyond it the result says it is partial.
    public static let maxHits = 2000
    /// Longer queries are cut here: no note is longer than one message anyway.
    public static let maxQueryBytes = 1024

    public private(set) var corpora: [String: SessionSearchCorpus] = [:]
    public init() {}

    public var postCount: Int { corpora.values.reduce(0) { $0 + $1.count } }

    public mutating func replace(_ corpus: SessionSearchCorpus) {
        corpora[corpus.sessionID] = corpus.count == 0 ? nil : corpus
    }

    public mutating func remove(sessionID: String) { corpora[sessionID] = nil }

    public struct Result: Equatable, Sendable {
        /// Newest first, at most `maxHits`.
        public var hits: [SearchHit]
        /// More posts matched than `hits` holds.
        public var truncated: Bool
        public init(hits: [SearchHit], truncated: Bool) { self.hits = hits; self.truncated = truncated }
    }

    /// Case-insensitive substring search over notes, URLs and titles; in one session, or in all.
    public func search(_ query: String, in sessionID: String? = nil) -> Result {
        let needle = Self.fold(query.trimmingWhitespace(), limit: Self.maxQueryBytes)
        guard !needle.isEmpty, !needle.contains(0), !needle.contains(0x0A) else { return Result(hits: [], truncated: false) }
        if let sessionID {
            let found = corpora[sessionID]?.matches(needle) ?? []
            return Result(hits: found.prefix(Self.maxHits).map { corpora[sessionID]!.hit($0) }, truncated: found.count > Self.maxHits)
        }
        // Across sessions: small (time, corpus, post) triples first, sorted; only the hits kept become values
        // (a query that matches every post costs a sort of integers, not 100,000 hits).
        let sessions = Array(corpora.values)
        var found = [(createdAt: Int64, corpus: Int32, post: Int32)]()
        for (c, corpus) in sessions.enumerated() {
            for post in corpus.matches(needle) { found.append((corpus.createdAt[post], Int32(c), Int32(post))) }
        }
        found.sort { a, b in
            if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
            // One session's posts of one second stay in its feed's order; sessions by id.
            if a.corpus == b.corpus { return a.post < b.post }
            return sessions[Int(a.corpus)].sessionID > sessions[Int(b.corpus)].sessionID
        }
        let hits = found.prefix(Self.maxHits).map { sessions[Int($0.corpus)].hit(Int($0.post)) }
        return Result(hits: hits, truncated: found.count > Self.maxHits)
    }

    /// Lowercased UTF-8, with control characters (NUL, newlines) as spaces.
    static func fold(_ text: String, limit: Int = .max) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(min(limit, text.utf8.count))
        // ASCII is folded byte by byte; anything else through Unicode's lowercase mapping.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for b in text.utf8.prefix(limit) {
                switch b {
                case 0x41...0x5A: out.append(b | 0x20)
                case 0..<0x20, 0x7F: out.append(0x20)
                default: out.append(b)
                }
            }
            return out
        }
        for scalar in text.lowercased().unicodeScalars {
            let value = scalar.value
            let piece = value < 0x20 || value == 0x7F ? " " : String(scalar)
            if out.count + piece.utf8.count > limit { break }
            out.append(contentsOf: piece.utf8)
        }
        return out
    }
}
