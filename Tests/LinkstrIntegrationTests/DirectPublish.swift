import Foundation
import LinkstrRelay
import NostrProtocol
import Synchronization

/// Events made in a test, published as they are through our own pool (waits until the relay accepted
/// them, or fails with why).
enum DirectPublish {
    static func events(_ events: [NostrEvent], to url: String) throws {
        let done = DispatchSemaphore(value: 0), failure = Mutex<String?>(nil)
        Task {
            let pool = RelayPool()
            await pool.setRelays([(url, true)])
            _ = await pool.waitForWritableRelay()
            if case .failure(let e) = await pool.publish(events, timeout: .seconds(20)) { failure.withLock { $0 = "\(e)" } }
            await pool.stop()
            done.signal()
        }
        done.wait()
        if let failure = failure.withLock({ $0 }) { throw HarnessFailure(description: "publishing failed: \(failure)") }
    }
}
