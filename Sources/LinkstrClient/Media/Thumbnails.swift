import LinkstrDomain
import LinkstrLogging
import LinkstrMedia
import LinkstrRelay
import LinkstrStorage

/// Links' thumbnails: found (YouTube's own image by the video id, else the image the page
/// names, learnt with its title), fetched within the image limits, made small once and kept sealed in
/// the account's media cache. A hostile or broken image costs one bounded fetch and decode and shows
/// nothing; it is not asked for again for a day (a network failure: a minute, as titles).
public actor Thumbnails {
    public static let parallelFetches = 4
    public static let retryFailuresAfter: Int64 = 86_400
    public static let retryUnreachableAfter: Int64 = 60
    /// `media_cache_mb`'s default: 1 GiB.
    public static let defaultCacheBytes: Int64 = 1024 << 20

    private let store: AccountStore
    public nonisolated let media: MediaCache
    private let fetcher: ImageFetcher
    private let clock: @Sendable () -> Int64
    private var inFlight = Set<String>()
    private var retryAfter: [String: Int64] = [:]

    public init(store: AccountStore, media: MediaCache, fetcher: ImageFetcher, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.media = media
        self.fetcher = fetcher
        self.clock = clock
    }

    /// The cache key of a link's thumbnail.
    public static func key(_ link: String) -> String { "thumbnail|" + link }

    /// The thumbnails already cached for `links` (each file's first chunk read, nothing fetched).
    public nonisolated func cached(_ links: [String]) -> [String: Thumbnail] {
        var found = [String: Thumbnail]()
        for link in Set(links) {
            // A cache: a file that does not open is removed and counts as missing.
            guard let entry = try? media.entry(Self.key(link)), let w = entry.width, let h = entry.height else { continue }
            found[link] = Thumbnail(link: link, width: w, height: h, revision: entry.savedAt)
        }
        return found
    }

    /// Forgets `link`'s thumbnail (and that it failed), so the next refresh fetches it again.
    public func forget(_ link: String) {
        retryAfter[link] = nil
        do { try media.remove(Self.key(link)) } catch {
            LinkstrLogging.logger("media").error("could not remove a thumbnail", metadata: ["error": "\(type(of: error))"])
        }
    }

    /// A cached thumbnail's pixels, for drawing (nil when it is not cached or does not decode).
    public nonisolated func pixels(_ link: String) -> DecodedImage? {
        guard let stored = try? media.read(Self.key(link)) else { return nil }
        return try? ImageDecoder.decode(stored.bytes)
    }

    /// Fetches the thumbnails of `links` that are missing and have a source (call after the titles were
    /// refreshed, which learns the pages' images); returns those found.
    public func refresh(_ links: [String]) async -> [String: Thumbnail] {
        let now = clock()
        let pageImages: [String: String]
        do { pageImages = try store.linkImageURLs(for: links) } catch { pageImages = [:] }  // unreadable: YouTube's only
        let due = Set(links).sorted().compactMap { link -> (String, String)? in
            guard !inFlight.contains(link), (retryAfter[link] ?? 0) <= now, cached([link]).isEmpty,
                  let source = ThumbnailSource.youTube(for: link) ?? pageImages[link] else { return nil }
            return (link, source)
        }
        inFlight.formUnion(due.map(\.0))
        defer { inFlight.subtract(due.map(\.0)) }
        var found = [String: Thumbnail]()
        var index = 0
        while index < due.count {
            let batch = Array(due[index..<min(index + Self.parallelFetches, due.count)])
            index += batch.count
            let fetcher = self.fetcher, media = self.media, clock = self.clock
            let results = await Concurrently.map(batch) { link, source in
                (link, await Self.fetch(link, from: source, fetcher: fetcher, into: media, now: clock()))
            }
            for (link, result) in results {
                switch result {
                case .success(let thumbnail): found[link] = thumbnail
                case .failure(.unreachable): retryAfter[link] = clock() + Self.retryUnreachableAfter
                case .failure: retryAfter[link] = clock() + Self.retryFailuresAfter
                }
            }
        }
        return found
    }

    enum ThumbnailFailure: Error { case unreachable, refused, notStored }

    /// One thumbnail: fetched, decoded within the limits, made small, sealed into the cache.
    static func fetch(_ link: String, from source: String, fetcher: ImageFetcher, into media: MediaCache,
                      now: Int64) async -> Result<Thumbnail, ThumbnailFailure> {
        let bytes: [UInt8]
        do { bytes = try await fetcher.fetch(source) } catch {
            switch error {
            case .network, .unresolvable: return .failure(.unreachable)
            default: return .failure(.refused)
            }
        }
        guard let image = try? ImageDecoder.decode(bytes) else { return .failure(.refused) }
        let small = ThumbnailImage.encode(image)
        do {
            try media.store(small.bytes, key: key(link), entry: .init(kind: .thumbnail, source: source, width: small.width, height: small.height,
                                                                    format: small.format.rawValue, savedAt: now))
        } catch {
            LinkstrLogging.logger("media").error("could not cache a thumbnail", metadata: ["error": "\(type(of: error))"])
            return .failure(.notStored)
        }
        return .success(Thumbnail(link: link, width: small.width, height: small.height, revision: now))
    }
}
