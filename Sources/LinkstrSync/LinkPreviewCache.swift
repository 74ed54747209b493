import LinkstrDomain
import LinkstrRelay
import LinkstrLogging
import LinkstrStorage

/// Link titles for posts: fetched (a few at a time) when missing or stale in the account's sealed cache
/// (which `AccountStore.linkTitles(for:)` reads), and cached, failures included so a dead link is not
/// asked again on every screen.
public actor LinkPreviewCache {
    /// A title is trusted this long; a failed fetch is retried after a day.
    public static let freshFor: Int64 = 7 * 86_400
    public static let retryFailuresAfter: Int64 = 86_400
    public static let parallelFetches = 4

    private let store: AccountStore
    private let fetcher: LinkPreviewFetcher
    private let clock: @Sendable () -> Int64
    private var inFlight = Set<String>()

    public init(store: AccountStore, fetcher: LinkPreviewFetcher, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
    }

    /// Fetches what is missing or stale among `urls` and returns the titles found.
    public func refresh(_ urls: [String]) async -> [String: String] {
        let now = clock()
        let due = Set(urls).filter { url in
            guard !inFlight.contains(url), WebURL.normalized(url) != nil else { return false }
            guard let cached = try? store.linkMetadata(for: url) else { return true }
            return now - cached.fetchedAt >= (cached.title == nil ? Self.retryFailuresAfter : Self.freshFor)
        }.sorted()
        inFlight.formUnion(due)
        defer { inFlight.subtract(due) }
        var titles = [String: String]()
        var index = 0
        while index < due.count {
            let batch = Array(due[index..<min(index + Self.parallelFetches, due.count)])
            index += batch.count
            let fetcher = self.fetcher
            let results = await withTaskGroup(of: (String, LinkPreview?).self) { group in
                for url in batch { group.addTask { (url, try? await fetcher.fetch(url)) } }
                return await group.reduce(into: [(String, LinkPreview?)]()) { $0.append($1) }
            }
            for (url, preview) in results {
                remember(preview?.title, for: url)
                if let title = preview?.title { titles[url] = title }
            }
        }
        return titles
    }

    /// One preview now (the CLI's `preview`), cached like the others; errors say why there is none.
    public func preview(_ url: String) async throws -> LinkPreview {
        do {
            let preview = try await fetcher.fetch(url)
            remember(preview.title, for: url)
            return preview
        } catch {
            remember(nil, for: url)
            throw error
        }
    }

    /// Caches a title (nil: none found, retried after a day). A cache: a failed write is logged, and the
    /// page is simply fetched again next time.
    private func remember(_ title: String?, for url: String) {
        do { try store.storeLinkMetadata(.init(title: title, thumbnailPath: nil, fetchedAt: clock()), for: url) } catch {
            LinkstrLogging.logger("previews").error("could not cache a title", metadata: ["error": "\(type(of: error))"])
        }
    }
}
