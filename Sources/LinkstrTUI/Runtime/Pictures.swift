import LinkstrClient
import LinkstrMedia
import LinkstrStorage
import Synchronization

/// The open account's thumbnails as the picture drawing sees them: the runner sets them when an account
/// opens and clears them when it closes, so no picture of one account is read for the next.
public final class Pictures: Sendable {
    private let thumbnails = Mutex<Thumbnails?>(nil)
    private let generation = Mutex(0)

    public init() {}

    func use(_ thumbnails: Thumbnails?) {
        self.thumbnails.withLock { $0 = thumbnails }
        generation.withLock { $0 += 1 }
    }

    /// Bumped on every change of account: drawings made for another account are dropped.
    var current: Int { generation.withLock { $0 } }

    /// The open account's media cache (saved copies play from it).
    var media: MediaCache? { thumbnails.withLock { $0 }?.media }

    /// A cached thumbnail's pixels (read and opened from the sealed cache), or nil.
    func pixels(_ link: String) -> DecodedImage? { thumbnails.withLock { $0 }?.pixels(link) }
}
