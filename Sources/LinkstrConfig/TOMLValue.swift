/// A TOML value as `TOMLParser` reads it. Dates and times keep their text (nothing in linkstr's files
/// reads one; they are valid TOML, so a file holding one still loads).
public indirect enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)
    case datetime(String)
    case array([TOMLValue])
    case table([String: TOMLValue])

    var string: String? { if case .string(let s) = self { s } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var integer: Int64? { if case .integer(let n) = self { n } else { nil } }
    var array: [TOMLValue]? { if case .array(let a) = self { a } else { nil } }
    var table: [String: TOMLValue]? { if case .table(let t) = self { t } else { nil } }
}
