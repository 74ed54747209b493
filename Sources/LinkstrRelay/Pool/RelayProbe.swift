import Foundation
import LinkstrDomain
import NIOCore
import NostrProtocol

/// "Test relay": a fresh connection, one subscription answered (EOSE or CLOSED), and the NIP-11 document,
/// each timed. Independent of the pool, so it tells what a relay does now, not what the pool remembers.
public enum RelayProbe {
    public struct Result: Sendable, Equatable {
        public let connectMilliseconds: Double
        public let answerMilliseconds: Double
        /// The relay's refusal instead of EOSE: a CLOSED message, or a NOTICE with a `restricted:` or
        /// `auth-required:` prefix (some relays refuse that way).
        public let closedWith: String?
        /// The relay sent a NIP-42 AUTH challenge.
        public let asksForAuth: Bool
        public let information: RelayInformation?
        /// Why there is no NIP-11 document (nil when there is one): the relay still works without it,
        /// but its limits and AUTH policy are then unknown.
        public let informationProblem: String?

        /// One line for a status bar or a terminal.
        public var summary: String {
            var parts = [String(format: "connected in %.0f ms", connectMilliseconds),
                         closedWith.map { "refused to answer: \($0)" } ?? String(format: "answered in %.0f ms", answerMilliseconds)]
            if let info = information {
                // The name is the relay's own words: one harmless line, short.
                var about = info.name.map { "\"" + String(DisplayText.singleLine($0).prefix(40)) + "\"" } ?? "NIP-11"
                if let limit = info.maxLimit { about += ", max_limit \(limit)" }
                if info.authRequired { about += ", requires AUTH" }
                parts.append(about)
            } else if let informationProblem {
                parts.append("no NIP-11 document (\(informationProblem))")
            }
            if asksForAuth && information?.authRequired != true { parts.append("asks for NIP-42 AUTH") }
            return parts.joined(separator: ", ")
        }
    }

    /// Every step has the deadline `timeout`; silence is said as "no answer in N s".
    public static func run(_ relay: String, timeout: TimeAmount = .seconds(5)) async throws(ConnectionError) -> Result {
        do { return try await probe(relay, timeout: timeout) } catch is TimeoutError {
            throw ConnectionError.io(silence(timeout))
        } catch { throw ConnectionError.describe(error) }
    }

    private static func silence(_ timeout: TimeAmount) -> String { "no answer in \(timeout.nanoseconds / 1_000_000_000) s" }

    private static func probe(_ relay: String, timeout: TimeAmount) async throws -> Result {
        guard let url = URL(string: relay) else { throw ConnectionError.invalidURL(relay) }
        let started = ContinuousClock.now
        let connection = try await WebSocketConnection.connect(to: url, timeout: timeout)
        defer { connection.close() }
        let connected = ContinuousClock.now
        // A query that matches nothing: any relay answers it at once with EOSE.
        let subscription = "linkstr-probe"
        connection.send(ClientMessage.req(subscriptionID: subscription, filters: [Filter(kinds: [NIP59.giftWrapKind], limit: 0)]).encoded())
        async let information = fetchInformation(url, timeout: timeout)
        let (closedWith, asksForAuth) = try await withTimeout(timeout) { () async throws -> (String?, Bool) in
            var challenged = false
            for await event in connection.events {
                guard case .text(let text) = event else {
                    if case .closed(let reason) = event { throw ConnectionError.io(reason ?? "the relay closed the connection") }
                    if case .brokeProtocol(let reason) = event { throw ConnectionError.io(reason) }
                    continue
                }
                switch try? RelayMessage.decode(text) {
                case .eose(let id)? where id == subscription: return (nil, challenged)
                case .closed(let id, let message)? where id == subscription: return (message.raw, challenged)
                case .notice(let text)? where text.hasPrefix("restricted:") || text.hasPrefix("auth-required:"): return (text, challenged)
                case .auth?: challenged = true
                default: continue
                }
            }
            throw ConnectionError.io("the relay closed the connection")
        }
        let answered = ContinuousClock.now
        func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
        let (info, problem) = await information
        return Result(connectMilliseconds: ms(connected - started), answerMilliseconds: ms(answered - connected),
                      closedWith: closedWith.map(DisplayText.singleLine), asksForAuth: asksForAuth,
                      information: info, informationProblem: problem)
    }

    /// The document, or why there is none in one line (the relay's words sanitised).
    private static func fetchInformation(_ url: URL, timeout: TimeAmount) async -> (RelayInformation?, String?) {
        do { return (try await RelayInformation.fetch(relayURL: url, timeout: timeout), nil) } catch {
            let words = error is TimeoutError ? silence(timeout) : ConnectionError.describe(error).description
            return (nil, String(DisplayText.singleLine(words).prefix(120)))
        }
    }
}
