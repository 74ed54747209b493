import LinkstrDomain
import LinkstrRelay
import LinkstrStorage

/// The relays an account uses, for the terminal app and the CLI alike: the stored list, or
/// the `--relay` values given for this run (validated here, once: an invalid one is an error in both
/// front ends, never silently dropped), and the edits: add, remove, enable, disable, reset, test.
/// With `--relay` the edits change only this run's list; the stored one is left alone.
public struct RelayList: Sendable {
    public struct Entry: Equatable, Sendable {
        public let url: String
        public var enabled: Bool
        public init(url: String, enabled: Bool) { self.url = url; self.enabled = enabled }
    }

    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// A typed address that is not a ws:// or wss:// URL.
        case invalid
        /// A `--relay` value that is not one (named, as there may be several).
        case invalidOverride(String)
        case duplicate
        case notInList
        public var description: String {
            switch self {
            case .invalid: return RelayURL.invalidMessage
            case .invalidOverride(let input): return RelayURL.invalidMessage + " (\(DisplayText.singleLine(input)))"
            case .duplicate: return RelayURL.duplicateMessage
            case .notInList: return "that relay is not in your list."
            }
        }
    }

    public private(set) var entries: [Entry]
    /// The `--relay` values replace the stored list for this run.
    public let overridden: Bool
    private let store: AccountStore?

    /// The `--relay` values, normalised; the first invalid one is the error.
    public static func validated(_ overrides: [String]) throws(Failure) -> [String] {
        var urls = [String]()
        for input in overrides {
            guard let url = RelayURL.normalized(input) else { throw .invalidOverride(input) }
            if !urls.contains(url) { urls.append(url) }
        }
        return urls
    }

    /// The account's list: `overrides` when given, else the stored list (the defaults on first use).
    public init(store: AccountStore?, overrides: [String], now: Int64) throws {
        self.store = store
        if !overrides.isEmpty {
            overridden = true
            entries = try Self.validated(overrides).map { Entry(url: $0, enabled: true) }
        } else {
            overridden = false
            entries = try store?.relays(now: now).map { Entry(url: $0.url, enabled: $0.enabled) } ?? []
        }
    }

    public var enabledURLs: [String] { entries.filter(\.enabled).map(\.url) }
    /// What the relay pool is given.
    public var poolEntries: [(url: String, enabled: Bool)] { entries.map { ($0.url, $0.enabled) } }
    /// No relays (before an account is open).
    public static let empty = RelayList(entries: [], overridden: false, store: nil)

    private init(entries: [Entry], overridden: Bool, store: AccountStore?) {
        self.entries = entries; self.overridden = overridden; self.store = store
    }

    /// Adds a relay (enabled); returns its normalised URL.
    @discardableResult
    public mutating func add(_ input: String, now: Int64) throws -> String {
        guard let url = RelayURL.normalized(input) else { throw Failure.invalid }
        guard !entries.contains(where: { $0.url == url }) else { throw Failure.duplicate }
        if !overridden, let store, case .failure = try store.addRelay(url, now: now) { throw Failure.duplicate }
        entries.append(Entry(url: url, enabled: true))
        if !overridden { entries.sort { $0.url < $1.url } }  // as the store lists them
        return url
    }

    public mutating func remove(_ input: String) throws {
        let url = RelayURL.normalized(input) ?? input
        guard let i = entries.firstIndex(where: { $0.url == url }) else { throw Failure.notInList }
        if !overridden, let store { try store.removeRelay(url) }
        entries.remove(at: i)
    }

    public mutating func setEnabled(_ input: String, _ enabled: Bool) throws {
        let url = RelayURL.normalized(input) ?? input
        guard let i = entries.firstIndex(where: { $0.url == url }) else { throw Failure.notInList }
        if !overridden, let store { try store.setRelayEnabled(url, enabled) }
        entries[i].enabled = enabled
    }

    /// Back to the default relays, all enabled.
    public mutating func reset(now: Int64) throws {
        if !overridden, let store { try store.resetRelays(now: now) }
        entries = RelayURL.defaults.map { Entry(url: $0, enabled: true) }
        if !overridden { entries.sort { $0.url < $1.url } }
    }

    /// One relay tested: a fresh connection, one subscription answered (or refused), NIP-11, timed.
    public struct Probe: Sendable {
        public let url: String
        public let ok: Bool
        public let connectMilliseconds: Double?
        public let answerMilliseconds: Double?
        public let summary: String
        /// Why the relay has no NIP-11 document, when it answered but that request failed.
        public var informationProblem: String? = nil
    }

    /// Tests `input` (validated), or every enabled relay, one after another.
    public func test(_ input: String? = nil) async throws -> [Probe] {
        var urls = enabledURLs
        if let input {
            guard let url = RelayURL.normalized(input) else { throw Failure.invalid }
            urls = [url]
        }
        var probes = [Probe]()
        for url in urls { probes.append(await Self.probe(url)) }
        return probes
    }

    public static func probe(_ url: String) async -> Probe {
        do {
            let r = try await RelayProbe.run(url)
            return Probe(url: url, ok: r.closedWith == nil, connectMilliseconds: r.connectMilliseconds,
                         answerMilliseconds: r.answerMilliseconds, summary: r.summary, informationProblem: r.informationProblem)
        } catch {
            return Probe(url: url, ok: false, connectMilliseconds: nil, answerMilliseconds: nil, summary: String(describing: error))
        }
    }
}
