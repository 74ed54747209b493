import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What goes to relays through the account's client (`AccountClient`): posts, reactions, sessions, members,
/// contacts, the profile name, "added you".
extension EffectRunner {
    func runSending(_ effect: AppEffect) throws {
        guard let client else { return }
        let search = self.search, now = self.now
        switch effect {
        case .you(.loadAddedYou):
            run({ try await client.addedYou() }, { [.you(.addedYouLoaded($0.followers, complete: $0.complete))] }, failed: { .you(.addedYouFailed($0)) })
        case .you(.watchAddedYou(let on)):
            run({ await client.watchAddedYou(on) }, { _ in [] }, failed: { .failed(.watchAddedYou, $0) })
        case .post(.sendPost(let sid, let url, let note)):
            run({ try await client.sendPost(sid, url, note, now) },
                { search?.invalidate([$0.sessionID]); return [.post(.postSent(postID: $0.postID, sessionID: $0.sessionID))] }, failed: { .post(.postSendFailed($0)) })
        case .post(.react(let postID, let emoji)):
            run({ try await client.react(postID, emoji, now) }, { result in
                [.post(.reactionSent(postID: postID, sessionID: result.sessionID, emoji: emoji, removed: result.removed))]
            }, failed: { .failed(.react(postID: postID), $0) })
        case .post(.deletePost(let id)):
            run({ try await client.deletePost(id, now) }, { deleted in
                search?.invalidate([deleted.sessionID])
                return [.post(.postDeleted(postID: id, sessionID: deleted.sessionID, warnings: deleted.warnings))]
            }, failed: { .failed(.deletePost(id), $0) })
        case .sessions(.createSession(let name, let members)):
            run({ try await client.createSession(name, members, now) }, { [.sessions(.sessionCreated(sessionID: $0))] }, failed: { .sessions(.sessionCreateFailed($0)) })
        case .sessions(.saveMembers(let sid, let members)):
            run({ try await client.setMembers(sid, members, now) }, { [.sessions(.membersSaved(sessionID: sid))] }, failed: { .sessions(.membersSaveFailed($0)) })
        case .sessions(.renameSession(let sid, let name)):
            run({ try await client.renameSession(sid, name, now) }, { [.sessions(.sessionRenamed(sessionID: sid, name: name))] }, failed: { .failed(.renameSession(sid), $0) })
        case .sessions(.deleteSession(let sid)):
            run({ try await client.deleteSession(sid, now) },
                { search?.invalidate([sid]); return [.sessions(.sessionDeleted(sessionID: sid, warnings: $0))] }, failed: { .failed(.deleteSession(sid), $0) })
        case .sessions(.setArchived(let sid, let archived)):
            run({ try await client.setArchived(sid, archived) }, { [] }, failed: { .failed(.archive(sid), $0) })
        case .sessions(.decideRequest(let sid, let decision)):
            // Local only: answered here, in order with the loads that follow it.
            do { try client.decideRequest(sid, decision) } catch { dispatch(.failed(.sessionRequest(sid), ClientError(error))) }
        case .you(.addContact(let pk, let alias, let input)):
            try actions?.keepRelayHints(pk, from: input)
            run({ try await client.addContact(pk, alias) }, { [.you(.contactSaved(pk))] }, failed: { .you(.contactSaveFailed($0)) })
        case .you(.setAlias(let pk, let alias)):
            run({ try await client.setAlias(pk, alias) }, { [.you(.contactSaved(pk))] }, failed: { .you(.contactSaveFailed($0)) })
        case .you(.removeContact(let pk)):
            run({ try await client.removeContact(pk) }, { [.you(.contactsLoaded($0)), .you(.contactRemoved(pk))] }, failed: { .failed(.removeContact(pk), $0) })
        case .you(.setProfileName(let name)):
            run({ try await client.publishProfileName(name) }, { _ in [.you(.profileNameSaved(name))] }, failed: { .failed(.profileName, $0) })
        default:
            assertionFailure("\(effect) is not a sending effect")  // `run` routes by area
        }
    }

    /// Runs a use case off the effect queue and dispatches what it answered, or its error in words.
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T, _ succeeded: @escaping @Sendable (T) -> [AppAction],
             failed: @escaping @Sendable (ClientError) -> AppAction) {
        startAccountTask { answer in
            do {
                for action in succeeded(try await work()) { answer(action) }
            } catch {
                answer(failed(ClientError(error)))
            }
        }
    }
}
