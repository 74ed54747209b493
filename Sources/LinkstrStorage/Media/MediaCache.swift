import Foundation
import LinkstrDomain
import NostrProtocol
import Synchronization

/// The account's media cache: thumbnails and saved media under `<cache>/<pubkey>/media`,
/// every file sealed with the account's data key, as the database's sealed fields are. A file's name is
/// a blind reference of its key (the link it belongs to), so neither names nor bytes say what it holds;
/// its content is read back only through this type (a saved video is streamed out chunk by chunk).
/// Least recently used files go first when the cache grows past its limit (`media_cache_mb`).
public final class MediaCache: Sendable {
    /// What a cached file is, sealed in its first chunk with where it came from.
    public struct Entry: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case thumbnail, image, video }
        public var kind: Kind
        /// Where the bytes came from (the image's or the page's URL).
        public var source: String
        /// The image's size in pixels and its format, for images.
        public var width: Int?
        public var height: Int?
        public var format: String?
        public var savedAt: Int64
        public init(kind: Kind, source: String, width: Int? = nil, height: Int? = nil, format: String? = nil, savedAt: Int64) {
            self.kind = kind; self.source = source; self.width = width; self.height = height; self.format = format; self.savedAt = savedAt
        }
    }

    public struct Usage: Equatable, Sendable {
        public var files: Int
        public var bytes: Int64
        public init(files: Int, bytes: Int64) { self.files = files; self.bytes = bytes }
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case io(String)
        /// A file that does not open with this account's key, is cut short or was altered.
        case damaged
        /// One file larger than the whole cache may hold (`media_cache_mb`): refused while it is written.
        case tooLarge(limit: Int64)
        public var description: String {
            switch self {
            case .io(let why): return why
            case .damaged: return "a cached file is damaged or was altered; it was removed"
            case .tooLarge(let limit):
                return "it is larger than the media cache may hold (media_cache_mb = \(limit >> 20) MiB): nothing was kept. "
                    + "Raise media_cache_mb in config.toml to save it."
            }
        }
    }

    /// Plaintext per sealed chunk: large enough that sealing costs little, small enough to stream.
    static let chunkSize = 1 << 20
    static let magic: [UInt8] = Array("LKMC".utf8) + [1]

    public let directory: URL
    let cipher: FieldCipher
    private let limit: Mutex<Int64>

    init(directory: URL, cipher: FieldCipher, limitBytes: Int64) {
        self.directory = directory
        self.cipher = cipher
        self.limit = Mutex(limitBytes)
    }

    /// The most the cache holds before the least recently used files go.
    public var limitBytes: Int64 {
        get { limit.withLock { $0 } }
        set { limit.withLock { $0 = newValue } }
    }

    /// The file name for a key: a blind reference, nothing of the key itself.
    func name(_ key: String) -> String { cipher.reference("media|" + key) }
    /// Where `key`'s file is (or would be): for diagnostics and tests; its bytes are sealed.
    public func url(_ key: String) -> URL { directory.appendingPathComponent(name(key)) }

    // MARK: writing

    /// Seals `bytes` under `key` in one go (thumbnails, images); replaces what was there.
    public func store(_ bytes: [UInt8], key: String, entry: Entry) throws(Failure) {
        let writer = try self.writer(key: key, entry: entry)
        do {
            try writer.append(bytes)
            try writer.finish()
        } catch {
            writer.cancel()
            throw error
        }
    }

    /// A writer that seals what it is given as it comes (a video from `yt-dlp`'s standard output), so
    /// nothing reaches the disk in the clear; the file appears under its name only when `finish` is called.
    public func writer(key: String, entry: Entry) throws(Failure) -> Writer {
        try makeDirectory()
        return try Writer(cache: self, key: key, entry: entry)
    }

    public final class Writer {
        private let cache: MediaCache
        private let key: String
        private let temporary: URL
        private let handle: FileHandle
        private var pending: [UInt8] = []
        private var index = 1
        private var finished = false
        /// Plaintext sealed so far (whole chunks only, until `finish`).
        public private(set) var written: Int64 = 0
        /// Plaintext handed in so far, sealed or still waiting to fill a chunk.
        public private(set) var received: Int64 = 0

        fileprivate init(cache: MediaCache, key: String, entry: Entry) throws(Failure) {
            self.cache = cache
            self.key = key
            temporary = cache.directory.appendingPathComponent(".partial-" + UUID().uuidString)
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw .io("cannot write in \(cache.directory.path): \(String(cString: strerror(errno)))") }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            let meta: [UInt8]
            do { meta = Array(try JSONEncoder().encode(entry)) } catch { throw .io("cannot encode a cache entry: \(error)") }
            try write(MediaCache.magic)
            try writeChunk(meta, index: 0, last: false)
        }

        /// A writer dropped unfinished leaves nothing (its partial file, sealed, goes).
        deinit {
            guard !finished else { return }
            do { try FileManager.default.removeItem(at: temporary) } catch {}
        }

        /// Refused (`tooLarge`) as soon as the file would be larger than the whole cache: a save never
        /// holds more than the limit on disk, not even for a moment.
        public func append(_ bytes: [UInt8]) throws(Failure) {
            received += Int64(bytes.count)
            let limit = cache.limitBytes
            guard received <= limit else { throw .tooLarge(limit: limit) }
            pending += bytes
            while pending.count > MediaCache.chunkSize {
                try writeChunk(Array(pending[..<MediaCache.chunkSize]), index: index, last: false)
                pending.removeFirst(MediaCache.chunkSize)
                index += 1
            }
        }

        /// Seals the rest, then puts the file in place (0600) and trims the cache to its limit.
        public func finish() throws(Failure) {
            try writeChunk(pending, index: index, last: true)
            pending = []
            do { try handle.synchronize(); try handle.close() } catch { throw .io("cannot write the media cache: \(error)") }
            guard rename(temporary.path, cache.url(key).path) == 0 else { throw .io("cannot write the media cache: \(String(cString: strerror(errno)))") }
            finished = true
            try cache.trim(keeping: cache.name(key))
        }

        /// Stops and removes what was written.
        public func cancel() {
            finished = true
            do { try handle.close() } catch {}
            // Removing a partial file of our own: it may already be gone.
            do { try FileManager.default.removeItem(at: temporary) } catch {}
        }

        private func writeChunk(_ plain: [UInt8], index: Int, last: Bool) throws(Failure) {
            let sealed = cache.cipher.sealBytes(plain, MediaCache.context(cache.name(key), index: index, last: last))
            let n = UInt32(sealed.count)
            try write([UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + sealed)
            if index > 0 { written += Int64(plain.count) }
        }

        private func write(_ bytes: [UInt8]) throws(Failure) {
            do { try handle.write(contentsOf: bytes) } catch { throw .io("cannot write the media cache: \(error)") }
        }
    }

    /// Each chunk is bound to its file, its place and whether it ends the file: chunks cannot be
    /// reordered, moved between files or cut off unnoticed.
    static func context(_ name: String, index: Int, last: Bool) -> String { "media|\(name)|\(index)|\(last ? 1 : 0)" }

    // MARK: reading

    /// The entry stored under `key` (only the first chunk is read), or nil when there is none.
    public func entry(_ key: String) throws(Failure) -> Entry? {
        guard let reader = try reader(key) else { return nil }
        defer { reader.close() }
        return try reader.entry
    }

    /// Everything stored under `key`, opened (thumbnails and images: callers keep to the image limits).
    public func read(_ key: String) throws(Failure) -> (entry: Entry, bytes: [UInt8])? {
        guard let reader = try reader(key) else { return nil }
        defer { reader.close() }
        var bytes = [UInt8]()
        try reader.forEachChunk { bytes += $0 }
        return (try reader.entry, bytes)
    }

    /// Streams what is stored under `key` to `body` chunk by chunk (a saved video to a pipe); marks it used.
    public func stream(_ key: String, to body: ([UInt8]) throws -> Void) throws(Failure) -> Entry? {
        guard let reader = try reader(key) else { return nil }
        defer { reader.close() }
        try reader.forEachChunk(body)
        return try reader.entry
    }

    func reader(_ key: String) throws(Failure) -> Reader? {
        let name = name(key)
        let path = directory.appendingPathComponent(name).path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw .io("cannot read the media cache: \(String(cString: strerror(errno)))")
        }
        // Read means used: the least recently used files are the ones trimmed.
        utimensat(AT_FDCWD, path, nil, 0)
        return try Reader(cache: self, name: name, handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true))
    }

    final class Reader {
        private let cache: MediaCache
        private let name: String
        private let handle: FileHandle
        let entry: Entry

        init(cache: MediaCache, name: String, handle: FileHandle) throws(Failure) {
            self.cache = cache
            self.name = name
            self.handle = handle
            do {
                guard try Self.read(handle, MediaCache.magic.count) == MediaCache.magic else { throw Failure.damaged }
                let (meta, last) = try Self.chunk(handle, cache: cache, name: name, index: 0)
                guard !last else { throw Failure.damaged }
                entry = try JSONDecoder().decode(Entry.self, from: Data(meta))
            } catch {
                cache.discard(name)
                throw .damaged
            }
        }

        func forEachChunk(_ body: ([UInt8]) throws -> Void) throws(Failure) {
            var index = 1
            do {
                while true {
                    let (plain, last) = try Self.chunk(handle, cache: cache, name: name, index: index)
                    try body(plain)
                    if last { return }
                    index += 1
                }
            } catch let failure as Failure {
                if failure == .damaged { cache.discard(name) }
                throw failure
            } catch {
                throw .io("\(error)")
            }
        }

        func close() { do { try handle.close() } catch {} }

        /// The next chunk, opened; which of the two contexts (last or not) opens it says whether it ends the file.
        private static func chunk(_ handle: FileHandle, cache: MediaCache, name: String, index: Int) throws -> ([UInt8], last: Bool) {
            let header = try read(handle, 4)
            guard header.count == 4 else { throw Failure.damaged }
            let n = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            guard n >= 29, n <= MediaCache.chunkSize + 64 else { throw Failure.damaged }
            let sealed = try read(handle, n)
            guard sealed.count == n else { throw Failure.damaged }
            for last in [false, true] {
                if let plain = try? cache.cipher.openBytes(sealed, MediaCache.context(name, index: index, last: last)) { return (plain, last) }
            }
            throw Failure.damaged
        }

        private static func read(_ handle: FileHandle, _ count: Int) throws -> [UInt8] {
            var out = [UInt8]()
            while out.count < count {
                guard let data = try handle.read(upToCount: count - out.count), !data.isEmpty else { break }
                out += data
            }
            return out
        }
    }

    // MARK: housekeeping

    /// How much the cache holds, unfinished files included (a save under way, or one a kill left).
    public func usage() throws(Failure) -> Usage {
        let files = try listing(includingPartial: true)
        return Usage(files: files.count, bytes: files.reduce(0) { $0 + $1.size })
    }

    /// Unfinished files a killed save left (`.partial-*`): removed when the account opens, before any save
    /// can start (the data directory's lock keeps other processes out). Returns how many went.
    @discardableResult
    public func removeLeftovers() throws(Failure) -> Int {
        var removed = 0
        for file in try listing(includingPartial: true) where (file.path as NSString).lastPathComponent.hasPrefix(".partial-") {
            do { try FileManager.default.removeItem(atPath: file.path) } catch { throw .io("cannot remove an unfinished file of the media cache: \(error)") }
            removed += 1
        }
        return removed
    }

    /// Removes every cached file (posts and titles stay: they are in the database).
    public func clear() throws(Failure) {
        for file in try listing(includingPartial: true) {
            do { try FileManager.default.removeItem(atPath: file.path) } catch { throw .io("cannot clear the media cache: \(error)") }
        }
    }

    /// Removes what is stored under `key`.
    public func remove(_ key: String) throws(Failure) {
        let path = url(key).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch { throw .io("cannot remove from the media cache: \(error)") }
    }

    /// Oldest used first, removes files until the cache is within its limit (never `keeping`, just written).
    func trim(keeping: String?) throws(Failure) {
        var files = try listing().sorted { $0.used < $1.used }
        var total = files.reduce(0) { $0 + $1.size }
        let limit = limitBytes
        while total > limit, let oldest = files.first {
            files.removeFirst()
            if (oldest.path as NSString).lastPathComponent == keeping { continue }
            do { try FileManager.default.removeItem(atPath: oldest.path) } catch { throw .io("cannot trim the media cache: \(error)") }
            total -= oldest.size
        }
    }

    private struct File { var path: String; var size: Int64; var used: Date }

    private func listing(includingPartial: Bool = false) throws(Failure) -> [File] {
        let fm = FileManager.default
        guard fm.fileExists(atPath: directory.path) else { return [] }
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: directory.path) } catch { throw .io("cannot read the media cache: \(error)") }
        return names.compactMap { name in
            let ours = (name.utf8.count == 40 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
                || (includingPartial && name.hasPrefix(".partial-"))
            guard ours else { return nil }
            let path = directory.appendingPathComponent(name).path
            guard let attributes = try? fm.attributesOfItem(atPath: path) else { return nil }
            return File(path: path, size: (attributes[.size] as? NSNumber)?.int64Value ?? 0, used: attributes[.modificationDate] as? Date ?? .distantPast)
        }
    }

    private func makeDirectory() throws(Failure) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // The account's cache directory above it, made by the same call, is private too.
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.deletingLastPathComponent().path)
        } catch {
            throw .io("cannot make the media cache directory: \(error)")
        }
    }

    /// A file that does not open is worth nothing: it goes, and is fetched again when needed.
    fileprivate func discard(_ name: String) {
        do { try FileManager.default.removeItem(at: directory.appendingPathComponent(name)) } catch {}
    }
}
