import Foundation
import LinkstrTestSupport
import NostrProtocol

/// Reference files from ../shared, parsed with Foundation (independent of our own JSON parser).
enum Fixtures {
    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: TestEnvironment.sharedData(path))
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try TestEnvironment.sharedData(path), as: UTF8.self)
    }

    static func hex(_ s: String) -> [UInt8] { Hex.decode(s)! }

    /// Re-serializes a Foundation JSON value so our own decoder can read it.
    static func jsonString(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }
}
