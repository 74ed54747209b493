import Foundation

/// Where tests find the shared reference material and the Python tools that `scripts/test` installs.
/// Missing pieces are errors that say how to fix them, never silent skips.
public enum TestEnvironment {
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// The package root (this file is Sources/LinkstrTestSupport/TestEnvironment.swift).
    public static let projectRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared` next to the project root (or `LINKSTR_SHARED_DIR`).
    public static func sharedDirectory() throws -> URL {
        let url = ProcessInfo.processInfo.environment["LINKSTR_SHARED_DIR"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Missing(description: "shared reference directory not found at \(url.path); it must sit next to the project (../shared)")
        }
        return url
    }

    public static func sharedFile(_ relativePath: String) throws -> URL {
        let url = try sharedDirectory().appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Missing(description: "required reference file missing: \(url.path)")
        }
        return url
    }

    public static func sharedData(_ relativePath: String) throws -> Data {
        try Data(contentsOf: sharedFile(relativePath))
    }

    /// The virtualenv that `scripts/test` creates (or `LINKSTR_TEST_VENV`).
    public static func venv() throws -> URL {
        let url = ProcessInfo.processInfo.environment["LINKSTR_TEST_VENV"].map { URL(fileURLWithPath: $0) }
            ?? projectRoot.appendingPathComponent(".venv-test")
        guard FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("bin/python").path) else {
            throw Missing(description: "test virtualenv not found at \(url.path): run the tests with scripts/test, which creates it")
        }
        return url
    }

    public static func python() throws -> URL { try venv().appendingPathComponent("bin/python") }

    public static func interopScript(_ name: String) -> URL {
        projectRoot.appendingPathComponent("Tests/Interop").appendingPathComponent(name)
    }
}

extension TestEnvironment {
    /// An executable built by this package, next to the running test binary (`.build/<config>/`).
    public static func builtProduct(_ name: String) throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            projectRoot.appendingPathComponent(".build/debug"),
        ]
        for dir in candidates {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Missing(description: "the \(name) executable was not built (looked in \(candidates.map(\.path)))")
    }
}
