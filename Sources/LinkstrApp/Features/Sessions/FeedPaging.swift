import LinkstrDomain

/// PgDn and PgUp in a feed move one screen of posts (they moved 5 while 16 were visible). Posts differ
/// in height, so a screen is counted in rows, each post as tall as the feed draws it: a sender's header
/// when the sender changes, the link, the page's title, the note, the clock warning, the reactions, the
/// send mark (queued, failed), and at least the thumbnail's box.
enum FeedPaging {
    /// The rows of a thumbnail's box beside a feed post (the view's `ThumbnailBox.feedRows`).
    static let thumbnailRows = 3

    /// The rows the feed has for posts at this screen height: the pane less its title row.
    static func height(screenRows: Int) -> Int { max(1, Layout.paneHeight(screenRows: screenRows) - 1) }

    /// How many rows post `i` takes in the feed.
    static func rows(of i: Int, _ feed: SessionFeed, _ state: AppState) -> Int {
        guard let view = feed.posts[safe: i] else { return 1 }
        let p = view.post
        var rows = 1
        if state.linkTitles[p.url] != nil { rows += 1 }
        if let note = p.note, !note.isEmpty { rows += 1 }
        if p.datedAhead != nil { rows += 1 }
        if !view.reactions.isEmpty { rows += 1 }
        if state.sendQueue.posts[p.id] != nil { rows += 1 }
        let listed = (feed.summary?.standing ?? .listed) == .listed
        if state.showsImages, listed, state.thumbnails[p.url] != nil { rows = max(rows, thumbnailRows) }
        if i == 0 || feed.posts[i - 1].post.author != p.author { rows += 2 }
        return rows
    }

    /// The last post wholly on a screen whose first post is `top`.
    static func lastVisible(from top: Int, _ feed: SessionFeed, _ state: AppState) -> Int {
        let height = height(screenRows: state.screen.rows)
        var last = top, used = rows(of: top, feed, state)
        while last + 1 < feed.posts.count {
            used += rows(of: last + 1, feed, state)
            if used > height { break }
            last += 1
        }
        return last
    }

    /// The first post shown with `feed.selection` on screen: `feed.scroll` while the selection is on its
    /// screen, else scrolled just enough to show it (the view does the same as other keys move it, so
    /// `scroll` is kept only by PgDn/PgUp, which start from here).
    static func top(_ feed: SessionFeed, _ state: AppState) -> Int {
        let selection = feed.selection
        var top = min(max(0, feed.scroll), max(0, feed.posts.count - 1))
        if selection <= top { return selection }
        while top < selection, lastVisible(from: top, feed, state) < selection { top += 1 }
        return top
    }

    /// PgDn: the next screen, its first post selected (the last screen's when there is no next).
    static func pageDown(_ feed: inout SessionFeed, _ state: AppState) {
        guard !feed.posts.isEmpty else { return }
        feed.scroll = top(feed, state)
        let next = lastVisible(from: feed.scroll, feed, state) + 1
        if next < feed.posts.count {
            feed.scroll = next
            feed.selection = next
        } else {
            feed.selection = feed.posts.count - 1
        }
    }

    /// PgUp: the screen before, its last post selected (the first post when already at the top).
    static func pageUp(_ feed: inout SessionFeed, _ state: AppState) {
        feed.scroll = top(feed, state)
        guard feed.scroll > 0 else {
            feed.selection = 0
            return
        }
        let height = height(screenRows: state.screen.rows)
        var top = feed.scroll, used = 0
        while top > 0 {
            used += rows(of: top - 1, feed, state)
            if used > height { break }
            top -= 1
        }
        if top == feed.scroll { top -= 1 }  // a post taller than the screen: one step
        feed.selection = feed.scroll - 1
        feed.scroll = top
    }
}
