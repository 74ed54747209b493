import Foundation
import LinkstrApp
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// Reading the open account: lists, feeds, posts, contacts, drafts, local preferences, read state, search, link titles.
extension EffectRunner {
    /// Answers with the actions of what was read; searches and page titles answer later, on their own.
    func runReading(_ effect: AppEffect) throws -> [AppAction] {
        switch effect {
        case .sessions(.loadSessions(let list)):
            guard let account else { return [] }
            return [.sessions(.sessionsLoaded(try account.sessions.reload(list, policy: requestPolicy)))]
        case .sessions(.loadFeed(let sid, let limit)):
            guard let reads, let actions else { return [] }
            let page = try reads.postPage(in: sid, limit: limit + 1)
            let summary = try actions.summary(of: sid)
            return [.sessions(.feedLoaded(sessionID: sid, summary: summary, posts: Array(page.prefix(limit)),
                                changes: try reads.membershipChanges(in: sid), hasMore: page.count > limit, held: try reads.heldPosts(in: sid)))]
                + loadLinkTitles(page.map(\.post.url), fetching: summary?.standing == .listed, session: sid)
        case .post(.loadPost(let id)):
            guard let account, let actions else { return [] }
            let view = try account.reads.postView(id)
            let summary = try view.flatMap { try actions.summary(of: $0.post.sessionID) }
            return [.post(.postLoaded(postID: id, view: view, sessionName: summary?.name ?? "", listed: summary?.standing == .listed)),
                    .post(.deliveriesLoaded(postID: id, try view.map { try account.deliveryRows(of: $0.post) } ?? []))]
                + (view.map { loadLinkTitles([$0.post.url], fetching: summary?.standing == .listed, session: $0.post.sessionID) } ?? [])
        case .you(.loadContacts):
            guard let account else { return [] }
            let marks = try account.nip05Marks()
            return [.you(.contactsLoaded(try account.reads.contacts())), .you(.profileNamesLoaded(try account.reads.profileNames()))]
                + (marks.isEmpty ? [] : [.you(.nip05Loaded(marks))])
        case .sessions(.loadDrafts):
            guard let reads else { return [] }
            return [.sessions(.draftsLoaded(try reads.drafts().mapValues { Draft(link: $0.link, note: $0.note) }))]
        case .loadLocalPreferences:
            guard let reads else { return [] }
            // Unreadable JSON (written by a future build) counts as none: these are conveniences.
            let history = try reads.setting(.commandHistory).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            let muted = try reads.setting(.mutedSessions).flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) } ?? []
            let position = options.reopen ? try reads.setting(.uiPosition).flatMap { try? JSONDecoder().decode(UIPosition.self, from: Data($0.utf8)) } : nil
            return [.commandHistoryLoaded(history), .sessions(.mutedLoaded(Set(muted)))] + (position.map { [.positionLoaded($0)] } ?? [])
        case .sessions(.exportSession(let sid, let path, let replacing)):
            guard let account else { return [] }
            do throws(SessionExportFile.Failure) {
                let exported = try account.exportSession(sid, to: path, format: SessionExportFile.format(forPath: path), replacing: replacing,
                                                         dataDirectory: paths.home, now: now)
                return [.sessions(.sessionExportAnswered(.written(path: SessionExportFile.resolved(path), posts: exported.posts.count)))]
            } catch {
                if case .exists(let full) = error { return [.sessions(.sessionExportAnswered(.exists(sessionID: sid, path: full)))] }
                return [.sessions(.sessionExportAnswered(.failed(error.description)))]
            }
        case .savePosition(let position):
            try account?.saveScreenSetting(.uiPosition, String(decoding: try JSONEncoder().encode(position), as: UTF8.self))
            return []
        case .sessions(.saveMuted(let muted)):
            try account?.saveScreenSetting(.mutedSessions, String(decoding: try JSONEncoder().encode(muted.sorted()), as: UTF8.self))
            return []
        case .saveCommandHistory(let history):
            try account?.saveScreenSetting(.commandHistory, String(decoding: try JSONEncoder().encode(history), as: UTF8.self))
            return []
        case .sessions(.saveDraft(let sid, let draft)):
            try account?.saveDraft(draft.map { AccountStore.StoredDraft(link: $0.link, note: $0.note) }, for: sid, now: now)
            return []
        case .sessions(.markSessionRead(let sid)):
            try account?.markSessionRead(sid, now: now)
            return [.sessions(.readStateChanged(sessionID: sid))]
        case .search(.buildSearchIndex):
            guard let search else { return [] }
            let dispatch = self.dispatch
            searchQueue.async {
                do { try search.build() } catch { dispatch(.search(.indexReadFailed(ClientError(error)))) }
            }
            return []
        case .search(.searchPosts(let query, let sid)):
            guard let search else { return [] }
            let dispatch = self.dispatch
            // On the search queue: a first query that finds the index still being built waits there, not here.
            searchQueue.async {
                do {
                    let found = try search.find(query, in: sid, limit: PostSearchAnswer.previewCount)
                    dispatch(.search(.postSearchFinished(PostSearchAnswer(query: query, sessionID: sid, hits: found.answer.result.hits,
                                                                          truncated: found.answer.result.truncated, previews: found.posts,
                                                                          sessionNames: found.sessionNames,
                                                                          indexedPosts: found.answer.indexedPosts))))
                } catch {
                    dispatch(.search(.postSearchFailed(ClientError(error))))
                }
            }
            return []
        case .post(.markPostRead(let id)):
            try account?.markRead(postID: id, now: now)
            return try reads?.postView(id).map { [.sessions(.readStateChanged(sessionID: $0.post.sessionID))] } ?? []
        default:
            assertionFailure("\(effect) is not a reading effect")  // `run` routes by area
            return []
        }
    }

    /// Cached titles and thumbnails at once (returned); missing ones fetched in the background (unless
    /// previews are off, or the links are a stranger's session request: fetching tells the site our
    /// address) and sent as they are found: titles first (they name the pages' images), then thumbnails
    /// (only where pictures are drawn). Fetched titles are searchable: the session's posts are read into
    /// the search index again.
    func loadLinkTitles(_ urls: [String], fetching: Bool, session: String) -> [AppAction] {
        guard let reads, let previews, !urls.isEmpty else { return [] }
        // A cache: when it cannot be read, the titles are fetched again.
        let cached = (try? reads.linkTitles(for: urls)) ?? [:]
        let thumbnails = options.images == nil ? nil : account?.thumbnails
        let cachedThumbnails = fetching ? thumbnails?.cached(urls) ?? [:] : [:]
        // Fetched titles merge into what is shown, so they may land before or after this answer.
        fetchLinkTitles(urls, fetching: fetching, session: session, previews: previews, thumbnails: thumbnails)
        return (cached.isEmpty ? [] : [.post(.linkTitlesLoaded(cached))]) + (cachedThumbnails.isEmpty ? [] : [.post(.thumbnailsLoaded(cachedThumbnails))])
    }

    /// A post's title and picture fetched again, past the caches (the post detail's `R`).
    func refreshPreview(_ url: String) {
        guard let previews else { return }
        guard options.linkPreviews else {
            dispatch(.post(.previewRefreshed(url: url, title: nil, thumbnail: nil,
                                             error: ClientError(.invalid, "link previews are off (link_previews = false in config.toml)"))))
            return
        }
        let thumbnails = options.images == nil ? nil : account?.thumbnails
        startAccountTask { answer in
            let title: String?
            do { title = try await previews.preview(url).title } catch {
                answer(.post(.previewRefreshed(url: url, title: nil, thumbnail: nil, error: ClientError(error))))
                return
            }
            await thumbnails?.forget(url)
            let thumbnail = await thumbnails?.refresh([url])[url]
            answer(.post(.previewRefreshed(url: url, title: title, thumbnail: thumbnail, error: nil)))
        }
    }

    private func fetchLinkTitles(_ urls: [String], fetching: Bool, session: String, previews: LinkPreviewCache, thumbnails: Thumbnails?) {
        guard options.linkPreviews, fetching else { return }
        let search = self.search
        startAccountTask { answer in
            let fetched = await previews.refresh(urls)
            if !fetched.isEmpty {
                search?.invalidate([session])
                answer(.post(.linkTitlesLoaded(fetched)))
            }
            if let thumbnails {
                let found = await thumbnails.refresh(urls)
                if !found.isEmpty { answer(.post(.thumbnailsLoaded(found))) }
            }
        }
    }
}
