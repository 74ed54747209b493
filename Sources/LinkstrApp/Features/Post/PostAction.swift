import LinkstrDomain

/// What happened to a post: shown, sent from the composer, reacted to, deleted, opened.
public enum PostAction: Equatable, Sendable {
    /// `listed`: its session is one of the user's, not a stranger's request (nothing is fetched or drawn for those).
    case postLoaded(postID: String, view: PostView?, sessionName: String, listed: Bool = true)
    /// Titles of shared pages, from the cache or just fetched.
    case linkTitlesLoaded([String: String])
    /// Links' thumbnails, from the media cache or just fetched.
    case thumbnailsLoaded([String: Thumbnail])
    /// The page was fetched again: its title and picture as found now (nil: none), or why it could not be.
    case previewRefreshed(url: String, title: String?, thumbnail: Thumbnail?, error: ClientError?)
    case postSent(postID: String, sessionID: String)
    case postSendFailed(ClientError)
    /// We deleted one of our posts for everyone; `warnings`: what the best-effort kind 5 could not do.
    case postDeleted(postID: String, sessionID: String, warnings: [String])
    /// A reaction went out (`removed`: it was taken back); the one answer to `react`.
    case reactionSent(postID: String, sessionID: String, emoji: String, removed: Bool)
    /// A link went to the player or the browser (`how`, in words: "playing with mpv…").
    case linkOpened(how: String)
    /// The player said what happened (mpv's IPC): starting, playing, ended, closed, failed and why.
    case playbackChanged(PlaybackEvent)
    /// A save for offline went on (progress) or ended.
    case saveProgressed(url: String, SaveProgress)
    /// The editor (`$VISUAL`/`$EDITOR`) was left; nil text: it could not run or failed (`error` says why);
    /// with text, `error` is a warning (its temporary copy could not be removed).
    case editorFinished(text: String?, error: String?)
    case clipboardRead(String?)
    /// What became of each member's copy of our post (read with it).
    case deliveriesLoaded(postID: String, [MemberDeliveryRow])
    /// Deliveries of these rumors were recorded: the post shown, if among them, is read again.
    case deliveriesChanged([String])
    /// Members a post to the session would not reach where they read, one line each (none: all reached).
    case reachChecked(sessionID: String, warnings: [String])
    /// The send queue changed.
    case sendQueueChanged(SendQueueNews)
    /// A queued item was taken out (never sent): a post of it is gone here too.
    case sendCancelled(action: QueuedAction, postID: String?, sessionID: String)
    /// Items to try again now (how many).
    case sendRetried(Int)
}
