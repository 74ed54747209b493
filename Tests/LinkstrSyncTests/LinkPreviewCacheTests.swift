import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// What the preview cache remembers: a page that answered without a title is not asked again for a
/// day; a page that could not be reached is asked again soon (a network blip must not hide a title).
final class LinkPreviewCacheTests: XCTestCase {
    /// A TCP port on 127.0.0.1 that takes connections and never answers.
    func silentPort() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 16), 0)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    /// Takes every connection waiting on the listener; answers how many there were.
    func accepted(_ fd: Int32) -> Int {
        var count = 0
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 0) == 1 else { return count }
            let c = accept(fd, nil, nil)
            guard c >= 0 else { return count }
            close(c)
            count += 1
        }
    }

    func testAnUnreachablePageIsAskedAgainSoonAndARefusedOneNotForADay() async throws {
        let (fd, port) = try silentPort()
        defer { close(fd) }
        let store = try LocalStore().account(SecretKey.generate(), now: 1)
        let now = ManagedClock(1_000)
        let silent = "http://127.0.0.1:\(port)/page"
        let cache = LinkPreviewCache(store: store, fetcher: LinkPreviewFetcher(allowPrivateAddresses: true, timeout: .milliseconds(300)),
                                     clock: { now.value })
        let first = await cache.refresh([silent])
        XCTAssertEqual(first, [:])
        XCTAssertNil(try store.linkMetadata(for: silent), "no answer in time says nothing about the page: nothing is cached")

        XCTAssertEqual(accepted(fd), 1)
        // Within the minute it is not asked again (the listener's queue holds every connection made).
        _ = await cache.refresh([silent])
        XCTAssertEqual(accepted(fd), 0, "not asked again at once")
        now.value += LinkPreviewCache.retryUnreachableAfter
        _ = await cache.refresh([silent])
        XCTAssertEqual(accepted(fd), 1, "asked again a minute later")

        // A refusal that is about the page itself (here: a private address) is cached, retried after a day.
        let strict = LinkPreviewCache(store: store, fetcher: LinkPreviewFetcher(allowPrivateAddresses: false), clock: { now.value })
        let refused = "http://127.0.0.1:\(port)/other"
        _ = await strict.refresh([refused])
        let cached = try XCTUnwrap(try store.linkMetadata(for: refused))
        XCTAssertNil(cached.title)
        XCTAssertEqual(cached.fetchedAt, now.value)
    }
}

/// A clock the test moves by hand.
final class ManagedClock: Sendable {
    private let current: Mutex<Int64>
    init(_ v: Int64) { current = Mutex(v) }
    var value: Int64 {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
