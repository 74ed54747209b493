import LinkstrDomain
import NostrProtocol

/// The outcome of publishing one user action's events (wire document §8.5).
public enum PublishError: Error, Equatable, Sendable, CustomStringConvertible {
    case noRelaysEnabled
    case onlyReadOnly
    case offline
    case reconnectTimeout
    /// Some event was refused (or lost) by every relay it was sent to; the first relay's words.
    case rejected(String)
    case timeout
    case tooLarge

    public var description: String {
        switch self {
        case .noRelaysEnabled: return "no relays are enabled. enable at least one relay in settings."
        case .onlyReadOnly: return "connected relays are read-only. add a writable relay to send."
        case .offline: return "you're offline. waiting for a relay connection."
        case .reconnectTimeout: return "couldn't reconnect to relays in time. try again."
        case .rejected(let m): return m.isEmpty ? "relays refused the event." : m
        case .timeout: return "couldn't confirm send with relays. try again."
        case .tooLarge: return "the message is larger than the relays accept."
        }
    }
}

/// Which relays accepted each event of a successful publish.
public struct PublishReceipt: Sendable, Equatable {
    public let acceptedBy: [EventID: [String]]
    /// Relays that refused (or dropped, or never answered) some event, with their words. Filled in for a
    /// publish that waits for every relay (best-effort steps report which relay refused what).
    public var refusedBy: [String: String] = [:]
}

/// Acknowledgements for one batch: success once every event has one `OK true` from any relay; failure
/// as soon as one event has been refused or lost on every relay it went to.
public struct PublishTracker: Sendable {
    public let eventIDs: [EventID]
    public private(set) var expectedRelays: Set<String>
    private var acceptedBy: [EventID: [String]] = [:]
    private var failedOn: [EventID: [String: String]] = [:]
    private var firstRejection: String?

    public init(eventIDs: [EventID], relays: Set<String>) {
        self.eventIDs = eventIDs
        expectedRelays = relays
    }

    public mutating func ok(relay: String, eventID: EventID, accepted: Bool, message: RelayStatusMessage) {
        guard eventIDs.contains(eventID), expectedRelays.contains(relay) else { return }
        // A relay that already holds the event has it: that is the point of publishing.
        if accepted || message.prefix == .duplicate {
            acceptedBy[eventID, default: []].append(relay)
        } else {
            failedOn[eventID, default: [:]][relay] = message.raw
            // The relay's own words ("error: unknown") name neither the relay nor that it refused.
            let words = message.raw.isEmpty ? "no reason given" : String(DisplayText.singleLine(message.raw).prefix(200))
            if firstRejection == nil { firstRejection = "\(relay) refused it: \(words)" }
        }
    }

    /// The socket went away before the relay answered.
    public mutating func relayDropped(_ relay: String) {
        guard expectedRelays.contains(relay) else { return }
        for id in eventIDs where !(acceptedBy[id]?.contains(relay) ?? false) && failedOn[id]?[relay] == nil {
            failedOn[id, default: [:]][relay] = "relay connection dropped."
        }
    }

    /// Every relay has answered (accepted or refused) every event.
    public var everyRelayAnswered: Bool {
        eventIDs.allSatisfy { id in expectedRelays.allSatisfy { acceptedBy[id]?.contains($0) == true || failedOn[id]?[$0] != nil } }
    }

    /// What every relay said so far; those that said nothing are `unanswered`.
    public func report(unanswered: String) -> PublishReceipt {
        var refused = [String: String]()
        for relay in expectedRelays.sorted() {
            for id in eventIDs where acceptedBy[id]?.contains(relay) != true {
                refused[relay] = failedOn[id]?[relay] ?? unanswered
                break
            }
        }
        return PublishReceipt(acceptedBy: acceptedBy, refusedBy: refused)
    }

    /// nil while undecided.
    public var outcome: Result<PublishReceipt, PublishError>? {
        for id in eventIDs where acceptedBy[id] == nil {
            let failures = failedOn[id] ?? [:]
            if expectedRelays.allSatisfy({ failures[$0] != nil }) {
                return .failure(.rejected(firstRejection ?? failures.values.first ?? "relay connection dropped."))
            }
        }
        if eventIDs.allSatisfy({ acceptedBy[$0] != nil }) { return .success(PublishReceipt(acceptedBy: acceptedBy)) }
        return nil
    }
}
