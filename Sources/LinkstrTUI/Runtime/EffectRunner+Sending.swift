import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What goes to relays through the account's use cases (`AccountActions`): posts, reactions, sessions, contacts, the profile name.
extension EffectRunner {
    func runSending(_ effect: AppEffect) throws {
        switch effect {
        case .loadAddedYou:
            guard let actions else { return }
            run({ try await actions.addedYou() }, { [.you(.addedYouLoaded($0.followers.map(\.pubkey), complete: $0.complete))] }, failed: { .you(.addedYouFailed($0)) })
        case .watchAddedYou(let on):
            guard let engine else { return }
            run({ await engine.watchAddedYou(on) }, { _ in [] }, failed: { .failed(.watchAddedYou, $0) })
        case .sendPost(let sid, let url, let note):
            guard let actions else { return }
            let search = self.search
            run({ [now] in try await actions.sendPost(session: sid, url: url, note: note, now: now) },
                { search?.invalidate([$0.sessionID]); return [.post(.postSent(postID: $0.postID, sessionID: $0.sessionID))] }, failed: { .post(.postSendFailed($0)) })
        case .react(let postID, let emoji):
            guard let actions else { return }
            run({ [now] in try await actions.react(post: postID, emoji: emoji, now: now) }, { result in
                [.post(.reactionSent(postID: postID, sessionID: result.sessionID, emoji: emoji, removed: result.change == .removed))]
            }, failed: { .failed(.react(postID: postID), $0) })
        case .deletePost(let id):
            guard let actions, let store else { return }
            let sid = try store.postView(id)?.post.sessionID ?? ""
            let search = self.search
            run({ [now] in try await actions.deletePost(id, now: now) },
                { search?.invalidate([sid]); return [.post(.postDeleted(postID: id, sessionID: sid, warnings: $0.warnings))] }, failed: { .failed(.deletePost(id), $0) })
        case .createSession(let name, let members):
            guard let actions else { return }
            run({ [now] in try await actions.createSession(name: name, members: members, now: now, random: SystemRandom()) },
                { [.sessions(.sessionCreated(sessionID: $0))] }, failed: { .sessions(.sessionCreateFailed($0)) })
        case .saveMembers(let sid, let members):
            guard let actions else { return }
            run({ [now] in try await actions.setMembers(session: sid, members: members, now: now, random: SystemRandom()) },
                { [.sessions(.membersSaved(sessionID: sid))] }, failed: { .sessions(.membersSaveFailed($0)) })
        case .renameSession(let sid, let name):
            guard let actions else { return }
            run({ [now] in try await actions.renameSession(sid, to: name, now: now, random: SystemRandom()) },
                { [.sessions(.sessionRenamed(sessionID: sid, name: name))] }, failed: { .failed(.renameSession(sid), $0) })
        case .deleteSession(let sid):
            guard let actions else { return }
            let search = self.search
            run({ [now] in try await actions.deleteSession(sid, now: now, random: SystemRandom()) },
                { search?.invalidate([sid]); return [.sessions(.sessionDeleted(sessionID: sid, warnings: $0))] }, failed: { .failed(.deleteSession(sid), $0) })
        case .setArchived(let sid, let archived):
            guard let actions else { return }
            run({ try await actions.setArchived(sid, archived) }, { [] }, failed: { .failed(.archive(sid), $0) })
        case .decideRequest(let sid, let decision):
            do { try actions?.decideRequest(sid, decision) } catch let e as AccountActions.RequestError { dispatch(.failed(.sessionRequest(sid), ClientError(e))) }
        case .addContact(let pk, let alias):
            guard let actions else { return }
            run({ try await actions.addContact(pk, alias: alias) }, { [.you(.contactSaved(pk))] }, failed: { .you(.contactSaveFailed($0)) })
        case .setAlias(let pk, let alias):
            guard let actions else { return }
            run({ _ = try await actions.setAlias(pk, alias) }, { [.you(.contactSaved(pk))] }, failed: { .you(.contactSaveFailed($0)) })
        case .removeContact(let pk):
            guard let actions, let store else { return }
            run({ try await actions.removeContact(pk); return try store.contacts() },
                { [.you(.contactsLoaded($0)), .you(.contactRemoved(pk))] }, failed: { .failed(.removeContact(pk), $0) })
        case .setProfileName(let name):
            guard let engine else { return }
            run({ try await engine.publishProfileName(name) }, { _ in [.you(.profileNameSaved(name))] }, failed: { .failed(.profileName, $0) })
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
