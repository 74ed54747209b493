// swift-tools-version: 6.0
// Targets depend inward only: C system modules → NostrProtocol (pure) → LinkstrDomain (pure)
// → storage and relay I/O → sync/runtime → front ends. See docs/ARCHITECTURE.md.
import PackageDescription

let package = Package(
    name: "linkstr",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "linkstr", targets: ["linkstr"]),
        .executable(name: "linkstr-bench", targets: ["linkstr-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        // C system libraries (Debian -dev packages); shims hold what Swift cannot import.
        .systemLibrary(name: "CSecp256k1", pkgConfig: "libsecp256k1", providers: [.apt(["libsecp256k1-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CImage", pkgConfig: "stb", providers: [.apt(["libstb-dev", "libwebp-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        .systemLibrary(name: "CSecret", pkgConfig: "libsecret-1", providers: [.apt(["libsecret-1-dev"])]),

        // Nostr protocol: keys, NIP-01/19/44/49/59, hostile-input JSON. Pure: no sockets, no disk.
        .target(name: "NostrProtocol", dependencies: ["CSecp256k1", "COpenSSL"]),

        // linkstr's rules: payloads, URL rules, ingest, membership, outbound. Pure: no I/O, no clock.
        .target(name: "LinkstrDomain", dependencies: ["NostrProtocol"]),

        // Images: decoding within the domain's limits, and terminal cells drawn from pixels (libchafa).
        .target(name: "LinkstrMedia", dependencies: ["CImage", "CChafa", "LinkstrDomain"]),

        // swift-log to a private, rotated file; what is logged never holds secrets or content.
        .target(name: "LinkstrLogging", dependencies: [.product(name: "Logging", package: "swift-log")]),

        // Encrypted SQLite repositories (GRDB on the system libsqlite3) and the identity vault.
        .target(name: "LinkstrStorage", dependencies: ["NostrProtocol", "LinkstrDomain", "CSecret", .product(name: "GRDB", package: "GRDB.swift"),
                                                      .product(name: "GRDBSQLite", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log")]),

        // Relay I/O: a WebSocket client on SwiftNIO, the relay pool (NIP-01/11/42), publishing with acknowledgements.
        .target(name: "LinkstrRelay", dependencies: [
            "NostrProtocol", "LinkstrDomain", "LinkstrLogging",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOWebSocket", package: "swift-nio"),
            .product(name: "NIOTLS", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),

        // The sync engine: subscriptions, paged backfill, gift-wrap ingest in batches, sending.
        .target(name: "LinkstrSync", dependencies: ["NostrProtocol", "LinkstrDomain", "LinkstrStorage", "LinkstrRelay", "LinkstrLogging",
                                                    .product(name: "Logging", package: "swift-log")]),

        // Use cases shared by both front ends (the TUI's effect runner and the CLI's commands).
        .target(name: "LinkstrClient", dependencies: ["NostrProtocol", "LinkstrDomain", "LinkstrStorage", "LinkstrRelay", "LinkstrSync", "LinkstrMedia"]),

        // The terminal app's state, actions, effects and reducers. Pure.
        .target(name: "LinkstrApp", dependencies: ["NostrProtocol", "LinkstrDomain"]),

        // config.toml and keys.toml: the TOML reader and what each key means, for both front ends.
        .target(name: "LinkstrConfig", dependencies: ["LinkstrDomain", "LinkstrStorage", "LinkstrClient", "LinkstrApp"]),

        // The ncurses front end: views into a canvas, the terminal backend, input, themes, and the effect runtime.
        .target(name: "LinkstrTUI", dependencies: ["CNcursesw", "CQRencode", "NostrProtocol", "LinkstrDomain", "LinkstrStorage",
                                                   "LinkstrRelay", "LinkstrSync", "LinkstrClient", "LinkstrApp", "LinkstrMedia", "LinkstrConfig",
                                                   .product(name: "Logging", package: "swift-log")]),

        .executableTarget(
            name: "linkstr",
            dependencies: [
                "NostrProtocol", "LinkstrDomain", "LinkstrStorage", "LinkstrRelay", "LinkstrSync", "LinkstrClient", "LinkstrApp", "LinkstrConfig", "LinkstrTUI", "LinkstrLogging",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test helper: ingests a deterministic message stream (the crash test kills it mid-write).
        .executableTarget(name: "linkstr-ingest-worker", dependencies: ["LinkstrStorage", "LinkstrTestSupport", "NostrProtocol"]),
        .executableTarget(name: "linkstr-bench", dependencies: ["NostrProtocol", "LinkstrDomain", "LinkstrStorage", "LinkstrRelay", "LinkstrSync", "LinkstrClient",
                                                              "LinkstrMedia",
                                                                 "LinkstrApp", "LinkstrConfig", "LinkstrTUI", "LinkstrTestSupport"]),

        // Locating ../shared, the test virtualenv and child processes; used by tests and the benchmark.
        .target(name: "LinkstrTestSupport", dependencies: ["LinkstrDomain", "NostrProtocol", "LinkstrApp", "CImage"]),

        .testTarget(name: "NostrProtocolTests", dependencies: ["NostrProtocol", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrMediaTests", dependencies: ["LinkstrMedia", "LinkstrDomain", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrDomainTests", dependencies: ["LinkstrDomain", "NostrProtocol", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrAppTests", dependencies: ["LinkstrApp", "LinkstrDomain", "NostrProtocol", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrTUITests", dependencies: ["LinkstrTUI", "LinkstrConfig", "CQRencode", "LinkstrApp", "LinkstrClient", "LinkstrDomain", "NostrProtocol", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrClientTests", dependencies: ["LinkstrClient", "LinkstrStorage", "LinkstrSync", "LinkstrDomain", "NostrProtocol",
                                                          "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrRelayTests", dependencies: ["LinkstrRelay", "NostrProtocol"]),
        .testTarget(name: "LinkstrSyncTests", dependencies: ["LinkstrSync", "LinkstrTestSupport"]),
        .testTarget(name: "LinkstrIntegrationTests", dependencies: ["LinkstrTestSupport", "NostrProtocol", "LinkstrDomain", "LinkstrRelay", "LinkstrStorage",
                                                                   "LinkstrTUI", "LinkstrMedia", "LinkstrClient", "LinkstrSync", "LinkstrLogging",
                                                                   .product(name: "Logging", package: "swift-log"), "linkstr"]),
        .testTarget(name: "LinkstrStorageTests", dependencies: ["LinkstrStorage", "LinkstrDomain", "NostrProtocol", "LinkstrTestSupport",
                                                             "linkstr-ingest-worker"],
                    exclude: ["Fixtures"]),
    ]
)
