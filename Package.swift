// swift-tools-version:6.2
// 6.2 because Hummingbird 2.28 and hummingbird-websocket 2.8 need it in their own manifests.
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

let package = Package(
    name: "explorer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "explorer", targets: ["Explorer"]),
        .library(name: "Core", targets: ["Core"]),
        .library(name: "Sandbox", targets: ["Sandbox"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // TLS for https and wss (Core's own HTTP/1.1 client, swift-websocket's).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // `traits: []` drops full Foundation and ICU from Hummingbird: smaller binary, faster start-up.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        // Only the HummingbirdBcrypt product is used (the sandbox's password hashes).
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket.git", from: "1.6.2"),
        // gzip and deflate answers (already built for swift-websocket's permessage-deflate).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        // HMAC-SHA256 for the sandbox's signed tokens.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        // OpenAPI 3.0/3.1 import (`--spec`, `spec load`). `traits: []`: its default trait needs ~11 GB to build.
        .package(url: "https://github.com/mattpolzin/OpenAPIKit.git", exact: "6.4.0", traits: []),
        // YAML profile files and specs (specs decoded into OpenAPIKit's Codable documents).
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        // HTTPFields for a WebSocket handshake's headers (swift-websocket's own dependency).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        // Swift concurrency's global-executor hook, set directly (Explorer's `EventLoopExecutor`).
        .target(name: "CConcurrencyHook"),
        .target(
            name: "Core",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "WSCompression", package: "swift-websocket"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Profile files, the built-in ones included (docs/profiles.md).
                .product(name: "Yams", package: "Yams"),
            ],
            // The built-in profiles: profile files like a user's, compiled into the
            // binary, and their JSON twins, which are what a start reads (BuiltInProfiles).
            resources: ["linku", "nova", "levelup", "posture"].flatMap {
                [.embedInCode("Profiles/BuiltIn/\($0).yaml"), .embedInCode("Profiles/BuiltIn/\($0).json")]
            }
        ),
        .target(
            name: "Sandbox",
            dependencies: [
                "Core",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "Explorer",
            dependencies: [
                "Core",
                "Sandbox",
                "CLibEdit",
                "CConcurrencyHook",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenAPIKit", package: "OpenAPIKit"),
                .product(name: "OpenAPIKit30", package: "OpenAPIKit"),
                .product(name: "Yams", package: "Yams"),
            ],
            linkerSettings: leanLinking
        ),
        // Benchmark only (bench/ws): WebSocket round trips through Core's client, without the REPL.
        .executableTarget(name: "ws-bench", dependencies: [
            "Core", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "WSClient", package: "swift-websocket"),
        ], path: "bench/ws-bench"),
        .testTarget(name: "CoreTests", dependencies: [
            "Core",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .testTarget(name: "SandboxTests", dependencies: [
            "Sandbox", "Core",
            .product(name: "WSClient", package: "swift-websocket"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        .testTarget(name: "ExplorerTests", dependencies: ["Explorer", "Core", "Sandbox", .product(name: "NIOCore", package: "swift-nio")]),
    ]
)

/// How the executable is linked on Linux, for a smaller start (BENCHMARKS.md,
/// "Start-up and memory: how the binary is linked"): lld instead of gold, the
/// executable's own symbols not exported (the Swift runtime's static-link
/// arguments export all 50,000 of them, which only a debugger reading the
/// symbol table would use), and its 150,000 relative relocations packed
/// (DT_RELR) where the C library's loader reads them: glibc 2.36 and later.
var leanLinking: [LinkerSetting] {
    var flags = ["-use-ld=lld", "-Xlinker", "--no-export-dynamic"]
    #if canImport(Glibc)
    // "glibc 2.36"
    var text = [CChar](repeating: 0, count: 64)
    _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
    let version = String(cString: text).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    if version.count >= 2, (version[0], version[1]) >= (2, 36) { flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] }
    #endif
    return [.unsafeFlags(flags, .when(platforms: [.linux]))]
}
