/// A link's thumbnail as the screens know it: which link, and its size in pixels (for the box's shape).
/// The pixels themselves stay in the sealed media cache until a box is drawn.
public struct Thumbnail: Equatable, Hashable, Sendable {
    public let link: String
    public let width: Int
    public let height: Int
    /// When it was cached: a picture fetched again is another drawing.
    public let revision: Int64
    public init(link: String, width: Int, height: Int, revision: Int64 = 0) {
        self.link = link; self.width = width; self.height = height; self.revision = revision
    }
}
