import LinkstrDomain

/// Work for a post: read it, mark it read, send one, react, delete, open its link, edit the note, paste.
public enum PostEffect: Equatable, Sendable {
    case loadPost(String)
    case markPostRead(String)
    case sendPost(sessionID: String, url: String, note: String?)
    /// Hands the note to `$VISUAL`/`$EDITOR` with the screen suspended (the terminal loop runs it).
    case editNote(String)
    case react(postID: String, emoji: String)
    case deletePost(String)
    case readClipboard
    case openURL(String)
    /// Plays a video in this terminal (`playback = "terminal"`): the terminal loop suspends the screen
    /// around the player, as for the editor.
    case playInTerminal(String)
    /// Stops the video playing in a window (another replaces it); it reports nothing more.
    case stopPlayer
    /// Saves the post's video (yt-dlp) or image into the media cache; `cancelSave` stops it.
    case saveMedia(String)
    case cancelSave(String)
    /// Fetches the page's title and picture again, past the caches ("refresh metadata" in the iOS app).
    case refreshPreview(String)
    /// Which members a post to this session would not reach where they read (the composer warns).
    case checkReach(sessionID: String)
    /// The send queue's item: tried again now, or taken out (never sent).
    case retrySend(item: Int64)
    case cancelSend(item: Int64)
}
