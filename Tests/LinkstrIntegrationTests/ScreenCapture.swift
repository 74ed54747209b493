import Foundation

/// The foreground colour (SGR parameters) of the first `glyph` on the first line containing `marker`, from
/// `capture-pane -e` output.
func foregroundSGR(of glyph: Character, onLineContaining marker: String, in escaped: String) -> String? {
    guard let line = escaped.screenLines.first(where: { $0.contains(marker) }) else { return nil }
    var fg: String?
    var i = line.startIndex
    while i < line.endIndex {
        if line[i] == "\u{1B}", line.index(after: i) < line.endIndex, line[line.index(after: i)] == "[" {
            var j = line.index(i, offsetBy: 2)
            while j < line.endIndex, !(line[j].isLetter) { j = line.index(after: j) }
            guard j < line.endIndex else { break }
            if line[j] == "m" {
                let params = line[line.index(i, offsetBy: 2)..<j].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                var k = 0
                while k < params.count {
                    switch params[k] {
                    case "", "0": fg = nil
                    case "38" where k + 2 < params.count && params[k + 1] == "5": fg = "38;5;" + params[k + 2]; k += 2
                    case "38" where k + 4 < params.count && params[k + 1] == "2": fg = params[k...(k + 4)].joined(separator: ";"); k += 4
                    case "39": fg = nil
                    case let p where (p.count == 2 && (p.hasPrefix("3") || p.hasPrefix("9"))): fg = p
                    default: break
                    }
                    k += 1
                }
            }
            i = line.index(after: j)
            continue
        }
        if line[i] == glyph { return fg ?? "default" }
        i = line.index(after: i)
    }
    return nil
}

extension String {
    var screenLines: [String] { split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}
