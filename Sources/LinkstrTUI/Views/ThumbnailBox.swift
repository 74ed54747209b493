import LinkstrApp
import LinkstrDomain
import LinkstrMedia

/// Where thumbnails go and how big: a small one beside each feed post, a large one in the post
/// detail, each the image's shape; none for a stranger's session request or when pictures are off.
enum ThumbnailBox {
    static let feedColumns = 12
    static let feedRows = 3
    static let detailMaxColumns = 80
    static let detailMaxRows = 16

    /// The thumbnail to draw for `link`, if any.
    static func thumbnail(_ state: AppState, _ link: String, listed: Bool) -> Thumbnail? {
        guard state.showsImages, listed else { return nil }
        return state.thumbnails[link]
    }

    static func feed(_ t: Thumbnail) -> (columns: Int, rows: Int) {
        SymbolArt.fit(width: t.width, height: t.height, columns: feedColumns, rows: feedRows)
    }

    /// The detail's box within `columns`×`rows` cells, or nil when too little room is left to be worth it.
    static func detail(_ t: Thumbnail, columns: Int, rows: Int) -> (columns: Int, rows: Int)? {
        let box = SymbolArt.fit(width: t.width, height: t.height, columns: min(columns, detailMaxColumns), rows: min(rows, detailMaxRows))
        return box.rows >= 3 && box.columns >= 6 ? box : nil
    }
}
