import LinkstrDomain
import LinkstrLogging
import LinkstrRelay
import LinkstrStorage

/// Link titles for posts: fetched (a few at a time) when missing or stale in the account's sealed cache
/// (which `AccountStore.linkTitles(for:)` reads), and cached, failures included so a dead link is not
/// asked again on every screen. A failure of the way there (no answer in time, no connection, no name
/// resolution) says nothing about the page: it is not cached, and the page is asked again after
/// `retryUnreachableAfter` (in this run), so one network blip does not hide a title for a day.
public actor LinkPreviewCache {
    /// A title is trusted this long; a failed fetch is retried after a day.
    public static let freshFor: Int64 = 7 * 86_400
    public static let retryFailuresAfter: Int64 = 86_400
    public static let parallelFetches = 4
    public static let retryUnreachableAfter: Int64 = 60

    private let store: AccountStore
    private let fetcher: LinkPreviewFetcher
    private let clock: @Sendable () -> Int64
    private var inFlight = Set<String>()
    /// Pages that could not be reached, and when they may be asked again.
    private var unreachableUntil: [String: Int64] = [:]

    public init(store: AccountStore, fetcher: LinkPreviewFetcher, clock: @escaping @Sendable () -> Int64) {
        self.store = store
        self.fetcher = fetcher
        self.clock = clock
    }

    /// Fetches what is missing or stale among `urls` and returns the titles found.
    public func refresh(_ urls: [String]) async -> [String: String] {
        let now = clock()
        let due = Set(urls).filter { url in
            guard !inFlight.contains(url), WebURL.normalized(url) != nil, (unreachableUntil[url] ?? 0) <= now else { return false }
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
            let results = await Concurrently.map(batch) { url -> (String, Result<LinkPreview, LinkPreviewFetcher.Failure>) in
                // Assigned, then returned: Swift 6.3.1 at -O loses a child's value returned from inside
                // `do throws(…) { return … }` in a task group's closure (titles were never fetched in
                // release builds; `linkstr-bench media` fails when this regresses).
                let result: Result<LinkPreview, LinkPreviewFetcher.Failure>
                do throws(LinkPreviewFetcher.Failure) { result = .success(try await fetcher.fetch(url)) } catch { result = .failure(error) }
                return (url, result)
            }
            for (url, result) in results {
                switch result {
                case .success(let preview):
                    remember(preview, for: url)
                    titles[url] = preview.title
                case .failure(let failure) where Self.saysNothingAboutThePage(failure):
                    unreachableUntil[url] = clock() + Self.retryUnreachableAfter
                case .failure:
                    remember(nil, for: url)
                }
            }
        }
        return titles
    }

    static func saysNothingAboutThePage(_ failure: LinkPreviewFetcher.Failure) -> Bool {
        switch failure {
        case .network, .unresolvable, .blockedHost: return true
        case .notWeb, .privateAddress, .status, .notHTML, .notImage, .tooManyRedirects, .noTitle: return false
        }
    }

    /// One preview now (the CLI's `preview`), cached like the others; errors say why there is none.
    public func preview(_ url: String) async throws -> LinkPreview {
        do {
            let preview = try await fetcher.fetch(url)
            remember(preview, for: url)
            return preview
        } catch {
            if !Self.saysNothingAboutThePage(error) { remember(nil, for: url) }
            throw error
        }
    }

    /// Caches a title and the page's image (nil: none found, retried after a day). A cache: a failed write
    /// is logged, and the page is simply fetched again next time.
    private func remember(_ preview: LinkPreview?, for url: String) {
        do { try store.storeLinkMetadata(.init(title: preview?.title, imageURL: preview?.imageURL, fetchedAt: clock()), for: url) } catch {
            LinkstrLogging.logger("previews").error("could not cache a title", metadata: ["error": "\(type(of: error))"])
        }
    }
}
