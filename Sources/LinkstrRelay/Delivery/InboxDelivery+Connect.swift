import Foundation
import LinkstrDomain
import NIOCore
import NostrProtocol
import Synchronization

/// The steps every short connection shares: refuse a blocked relay, resolve by the public-address rule
/// (within the deadline: a resolver can hang), connect to the address checked, read NIP-11 beside it,
/// and run one `OneShotExchange` until it finishes, the relay goes, or the deadline passes.
extension InboxDelivery {
    struct Opened: Sendable {
        let connection: WebSocketConnection
        let informationTask: Task<RelayInformation?, Never>?
        var information: RelayInformation? { get async { await informationTask?.value } }
    }

    struct OpenFailure: Error {
        let words: String
    }

    func open(_ relay: String) async -> Result<Opened, OpenFailure> {
        guard let url = URL(string: relay), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
              let host = url.host, !host.isEmpty else { return .failure(OpenFailure(words: "invalid relay url")) }
        guard !isBlocked(RelayURL.normalized(relay) ?? relay) else { return .failure(OpenFailure(words: "blocked by you")) }
        let name = DisplayText.singleLine(host), port = url.port ?? (scheme == "wss" ? 443 : 80)
        let resolve = self.resolve, allowPrivate = allowPrivateAddresses, timeout = self.timeout
        let address: SocketAddress
        switch try? await withTimeout(timeout, sleep: time.sleep, { await resolve(host, port, allowPrivate) }) {
        case nil: return .failure(OpenFailure(words: "\(name) did not resolve in \(Self.words(timeout))"))
        case .unresolvable?: return .failure(OpenFailure(words: "no such host: \(name)"))
        case .privateAddress?: return .failure(OpenFailure(words: "\(name) is a local or private address"))
        case .address(let checked)?: address = checked
        }
        let information: Task<RelayInformation?, Never>? = readsInformation
            ? Task { try? await RelayInformation.fetch(relayURL: url, address: address, timeout: timeout) } : nil
        // To the address that was checked, not to a second lookup that could answer differently.
        do {
            return .success(Opened(connection: try await WebSocketConnection.connect(to: url, address: address, timeout: timeout),
                                   informationTask: information))
        } catch {
            information?.cancel()
            return .failure(OpenFailure(words: String(describing: error)))
        }
    }

    /// Runs the exchange; its state as it stood when it finished or the deadline passed.
    func run(_ goal: OneShotExchange.Goal, on opened: Opened) async -> (state: OneShotExchange, timedOut: Bool) {
        let connection = opened.connection
        var sign: OneShotExchange.Sign?
        if let signer {
            let relay = connection.url.absoluteString
            sign = { challenge in signer(relay, challenge) }
        }
        let machine = ExchangeBox(OneShotExchange(goal, sign: sign))
        @Sendable func perform(_ actions: [OneShotExchange.Action]) -> Bool {
            for action in actions {
                switch action {
                case .send(let text): connection.send(text)
                case .finished: return true
                }
            }
            return false
        }
        if perform(machine.withLock { $0.start() }) { return (machine.withLock { $0 }, false) }
        do {
            try await withTimeout(timeout, sleep: time.sleep) {
                for await message in connection.events {
                    guard case .text(let text) = message else {
                        if case .closed = message { return }
                        if case .brokeProtocol = message { return }
                        continue
                    }
                    guard let decoded = try? RelayMessage.decode(text) else { continue }
                    if perform(machine.withLock { $0.received(decoded) }) { return }
                }
            }
            return (machine.withLock { $0 }, false)
        } catch {
            return (machine.withLock { $0 }, true)
        }
    }
}

/// The exchange, shared by the reading task and the caller that reads it after the deadline.
private final class ExchangeBox: Sendable {
    private let state: Mutex<OneShotExchange>
    init(_ exchange: OneShotExchange) { state = Mutex(exchange) }
    func withLock<T: Sendable>(_ body: (inout OneShotExchange) -> T) -> T { state.withLock { body(&$0) } }
}
