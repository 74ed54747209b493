import Foundation
import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import XCTest

@testable import LinkstrTUI

/// Issue 28: one answer per user action. A send, a reaction and a delete each answer the app once (the
/// engine no longer reports our own apply as arriving messages, and the runner no longer adds a reload
/// of its own), against a real relay.
final class OneAnswerTests: XCTestCase {
    /// The answers that say a user action was done or that messages arrived.
    static func isAnswer(_ action: AppAction) -> Bool {
        switch action {
        case .post(.postSent), .post(.reactionSent), .post(.postDeleted), .sessions(.sessionCreated), .sessions(.messagesArrived), .sessions(.readStateChanged): return true
        default: return false
        }
    }

    func testASendAReactionAndADeleteAnswerOnceEach() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let harness = try EffectHarness(relays: [relay.url])
        defer { harness.close() }
        try harness.send(.boot) { $0.contains(.onboarding(.identityMissing)) }
        _ = try harness.created(.onboarding(.createIdentity(name: "Ann", passphrase: "correct horse battery staple")))
        harness.runner.perform(.startSync)
        try harness.send(.you(.loadIdentities)) { _ in true }
        let created = try harness.send(.sessions(.createSession(name: "Films", members: []))) { $0.contains { if case .sessions(.sessionCreated) = $0 { true } else { false } } }
        guard case .sessions(.sessionCreated(let sid))? = created.first(where: Self.isAnswer) else { return XCTFail("\(created)") }

        func answers(_ effect: AppEffect, until done: (AppAction) -> Bool) throws -> [AppAction] {
            var got = try harness.send(effect) { $0.contains(where: done) }
            // Anything still due from the engine's updates comes in while the runner answers two more loads.
            usleep(300_000)
            got += try harness.send(.you(.loadIdentities)) { $0.contains { if case .you(.identitiesLoaded) = $0 { true } else { false } } }
            return got.filter(Self.isAnswer)
        }
        let sent = try answers(.post(.sendPost(sessionID: sid, url: "https://example.com/v", note: "look"))) { if case .post(.postSent) = $0 { true } else { false } }
        XCTAssertEqual(sent.count, 1, "one answer to a send: \(sent)")
        guard case .post(.postSent(let postID, _))? = sent.first else { return XCTFail("\(sent)") }
        let reacted = try answers(.post(.react(postID: postID, emoji: "🔥"))) { if case .post(.reactionSent) = $0 { true } else { false } }
        XCTAssertEqual(reacted, [.post(.reactionSent(postID: postID, sessionID: sid, emoji: "🔥", removed: false))], "one answer to a reaction")
        let deleted = try answers(.post(.deletePost(postID))) { if case .post(.postDeleted) = $0 { true } else { false } }
        XCTAssertEqual(deleted.count, 1, "one answer to a delete: \(deleted)")
    }
}
