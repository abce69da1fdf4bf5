// swift-tools-version: 6.1
//
// CueKit: caption and subtitle tracks in Swift.
//
// Modules follow the data flow, bytes -> reader -> cue model -> writer, and are split by what they
// link: the model, WebVTT, SubRip and Cast are pure Swift; CueKitTTML (and CueKitConversion, which
// reads every format) links libxml2, so a program that handles WebVTT alone never loads it; only
// CueKitServer and CueKitCastSender link SwiftNIO.

import PackageDescription

let package = Package(
    name: "CueKit",
    products: [
        .library(name: "CueKit", targets: ["CueKit"]),
        .library(name: "CueKitWebVTT", targets: ["CueKitWebVTT"]),
        .library(name: "CueKitSubRip", targets: ["CueKitSubRip"]),
        .library(name: "CueKitASS", targets: ["CueKitASS"]),
        .library(name: "CueKitEBUSTL", targets: ["CueKitEBUSTL"]),
        .library(name: "CueKitSCC", targets: ["CueKitSCC"]),
        .library(name: "CueKitCast", targets: ["CueKitCast"]),
        .library(name: "CueKitTTML", targets: ["CueKitTTML"]),
        .library(name: "CueKitSynthetic", targets: ["CueKitSynthetic"]),
        .library(name: "CueKitConversion", targets: ["CueKitConversion"]),
        .library(name: "CueKitHLS", targets: ["CueKitHLS"]),
        .library(name: "CueKitQC", targets: ["CueKitQC"]),
        // The networked half of Cast, in products of their own so that reading tracks never links NIO.
        .library(name: "CueKitServer", targets: ["CueKitServer"]),
        .library(name: "CueKitCastSender", targets: ["CueKitCastSender"]),
        .library(name: "CueKitCastV2", targets: ["CueKitCastV2"]),
        .library(name: "CueKitFetch", targets: ["CueKitFetch"]),
        .executable(name: "cuekit", targets: ["CueKitCLI"]),
        .executable(name: "cuekit-cast", targets: ["CueKitCastCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // `swift package generate-documentation`: the DocC catalogs in Sources/<Module>/Documentation.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The cue model every reader fills and every writer reads, cue text, diagnostics, byte I/O.
        .target(name: "CueKit", dependencies: ["CCueKitBytes"]),
        // One vector pass over a WebVTT block or a SubRip block's text (line ends, `-->`, markup,
        // non-ASCII), in C for the bit masks Swift's SIMD types cannot make.
        .target(name: "CCueKitBytes"),
        // WebVTT: the W3C parsing algorithm on bytes, and a streaming writer.
        .target(name: "CueKitWebVTT", dependencies: ["CueKit", "CCueKitBytes"]),
        // SubRip (.srt) reader and writer.
        .target(name: "CueKitSubRip", dependencies: ["CueKit", "CCueKitBytes"]),
        // ASS and SSA (.ass, .ssa) reader: styles to style sheets, override tags to cue text.
        .target(name: "CueKitASS", dependencies: ["CueKit"]),
        // EBU-STL (EBU Tech 3264, .stl) reader: the binary GSI and TTI blocks, teletext and open subtitles.
        .target(name: "CueKitEBUSTL", dependencies: ["CueKit"]),
        // Scenarist SCC (.scc) reader: CEA-608 byte pairs through a 608 decoder, cues as it displays them.
        .target(name: "CueKitSCC", dependencies: ["CueKit"]),
        // Google Cast TextTrackStyle, media tracks and media information, and styled WebVTT.
        .target(name: "CueKitCast", dependencies: ["CueKit"]),
        // libxml2 from the system (Debian: libxml2-dev), seen only by CueKitTTML.
        .systemLibrary(
            name: "CCueKitLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // TTML (TTML1/2, IMSC 1.x text, DFXP, SMPTE-TT, EBU-TT-D) read with libxml2's SAX2 push parser.
        .target(name: "CueKitTTML", dependencies: ["CueKit", "CCueKitBytes", "CCueKitLibXML2"]),
        // Deterministic synthetic tracks for benchmarks (`cuekit generate`, Benchmarks/).
        .target(name: "CueKitSynthetic", dependencies: ["CueKit"]),
        // The conversion engine every door shares: any track file read, edited, put in order and
        // written (TrackConversion).
        .target(
            name: "CueKitConversion", dependencies: ["CueKit", "CueKitWebVTT", "CueKitSubRip", "CueKitASS", "CueKitEBUSTL", "CueKitSCC", "CueKitTTML", "CueKitCast"]),
        // HLS subtitle renditions: a track cut into WebVTT segments and a media playlist, aligned to
        // the video's MPEG-2 TS time, and named in a multivariant playlist. Files only, no network.
        .target(name: "CueKitHLS", dependencies: ["CueKit", "CueKitWebVTT", "CueKitCast", "CueKitConversion"]),
        // Caption QC: the style guides QA teams enforce (Netflix, BBC, DCMP, FCC 608) as rules checked
        // cue by cue, profiles as JSON data, and the mechanical fixes. The cue model alone.
        .target(
            name: "CueKitQC", dependencies: ["CueKit"],
            resources: [
                .embedInCode("Profiles/netflix.json"), .embedInCode("Profiles/bbc.json"),
                .embedInCode("Profiles/dcmp.json"), .embedInCode("Profiles/fcc-608.json"),
            ]),
        // `cuekit serve`: tracks and media over HTTP with CORS, the receiver the senders drive.
        .target(
            name: "CueKitServer",
            dependencies: [
                "CueKit", "CueKitCast", "CueKitConversion", "CueKitHLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        // RemoteMediaClient: a Swift sender for a CueKit receiver, over its ws:// WebSocket on
        // SwiftNIO alone (or any RemoteMediaTransport: CueKitCastV2 adds a Cast device's channel).
        .target(
            name: "CueKitCastSender",
            dependencies: [
                "CueKitCast",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The Cast v2 channel real devices speak (TLS, length-prefixed protobuf frames), a sender
        // over it (RemoteMediaClient.connect(toDevice:)), and a Cast device for development and
        // tests that runs any CastMediaApplication (CueKitServer's receiver). The server and the
        // sender do not depend on it: only what speaks Cast v2 links protobuf, X509, Crypto and TLS.
        .target(
            name: "CueKitCastV2",
            dependencies: [
                "CueKitCast", "CueKitCastSender",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Proto/cast_channel.proto"]
        ),
        // Remote HLS subtitle renditions downloaded into a folder, to be read as local files
        // (`cuekit fetch`, `cuekit convert URL --fetch`): HTTP and TLS through async-http-client.
        .target(
            name: "CueKitFetch",
            dependencies: [
                "CueKit", "CueKitConversion",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // What the two executables share: output sinks, failures and exit statuses, reading and
        // style options, the network commands' names and abstracts, and the version handshake.
        .target(
            name: "CueKitCommandSupport",
            dependencies: [
                "CueKit", "CueKitWebVTT", "CueKitCast", "CueKitConversion", "CueKitSCC",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The `cuekit` command: a thin layer over the libraries. It links no network code: it hands
        // the network commands to `cuekit-cast`.
        .executableTarget(
            name: "CueKitCLI",
            dependencies: [
                "CueKit", "CueKitWebVTT", "CueKitSubRip", "CueKitSCC", "CueKitCast", "CueKitTTML", "CueKitSynthetic",
                "CueKitConversion", "CueKitHLS", "CueKitQC", "CueKitCommandSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `cuekit-cast`: serve, and the Cast commands that reach receivers and devices (SwiftNIO).
        .executableTarget(
            name: "CueKitCastCLI",
            dependencies: [
                "CueKit", "CueKitCast", "CueKitCommandSupport", "CueKitServer", "CueKitCastSender", "CueKitCastV2", "CueKitFetch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The library in use: any caption file to styled WebVTT with CueKitConversion alone.
        .executableTarget(name: "ConvertAnything", dependencies: ["CueKitConversion"], path: "Examples/ConvertAnything"),

        // Helpers shared by the test targets: fixture paths, the chunking verifier, seeded randomness.
        // What the tests share: process runners, fixtures' paths, the Chromium renderer and its
        // DevTools driver (a WebSocket client, so it links SwiftNIO; tests only).
        .target(
            name: "CueKitTestSupport",
            dependencies: [
                "CueKit", "CueKitCast",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
            ],
            path: "Tests/CueKitTestSupport"),
        .testTarget(
            name: "CueKitTests",
            dependencies: [
                "CCueKitBytes", "CueKit", "CueKitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "CueKitWebVTTTests",
            dependencies: [
                "CCueKitBytes", "CueKit", "CueKitWebVTT", "CueKitSynthetic", "CueKitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Runs web-platform-tests' WebVTT parsing suites (vendored in Fixtures/conformance/webvtt).
        .testTarget(name: "CueKitWebVTTConformanceTests", dependencies: ["CueKitWebVTT", "CueKitTestSupport"]),
        // Runs the built `cuekit` and `cuekit-cast` binaries; depending on their targets builds them
        // first (and lets the tests parse the command lines of both).
        .testTarget(
            name: "CueKitCLITests",
            dependencies: ["CueKitCLI", "CueKitCastCLI", "CueKitCommandSupport", "CueKitWebVTT", "CueKitSubRip", "CueKitSynthetic", "CueKitTestSupport"]),
        .testTarget(
            name: "CueKitTTMLTests",
            dependencies: ["CueKit", "CueKitTTML", "CueKitWebVTT", "CueKitTestSupport"]
        ),
        // Compares the TTML reader with ttconv 1.2.3's output on the corpus vendored in
        // Fixtures/conformance/ttml, has ttconv read what the TTML writer writes, and has imscJS
        // (Fixtures/conformance/imscJS) draw it beside Chromium drawing the WebVTT.
        .testTarget(
            name: "CueKitTTMLConformanceTests",
            dependencies: ["CueKit", "CueKitCast", "CueKitTTML", "CueKitWebVTT", "CueKitSubRip", "CueKitSynthetic", "CueKitTestSupport"]
        ),
        // Each module's tests sit in Tests/<Module>Tests, organised like its sources.
        .testTarget(name: "CueKitSubRipTests", dependencies: ["CueKitSubRip", "CueKit", "CueKitWebVTT", "CueKitTestSupport"]),
        // The ASS reader, with pysubs2 (from `.venv`) as its peer.
        .testTarget(name: "CueKitASSTests", dependencies: ["CueKitASS", "CueKit", "CueKitConversion", "CueKitTestSupport"]),
        // The EBU-STL reader, with ttconv (from `.venv`) as its peer.
        .testTarget(
            name: "CueKitEBUSTLTests", dependencies: ["CueKitEBUSTL", "CueKit", "CueKitWebVTT", "CueKitConversion", "CueKitTestSupport"]),
        // The SCC reader, with ttconv (from `.venv`) as its peer.
        .testTarget(
            name: "CueKitSCCTests", dependencies: ["CueKitSCC", "CueKit", "CueKitQC", "CueKitWebVTT", "CueKitConversion", "CueKitTestSupport"]),
        .testTarget(name: "CueKitCastTests", dependencies: ["CueKit", "CueKitCast", "CueKitWebVTT", "CueKitTestSupport"]),
        // Runs the built ConvertAnything example too; depending on it builds it first.
        .testTarget(
            name: "CueKitConversionTests",
            dependencies: ["CueKit", "CueKitCast", "CueKitConversion", "CueKitSynthetic", "CueKitTestSupport", "ConvertAnything"]),
        // The QC rules, profiles and fixes, with random tracks for the fixer's property.
        .testTarget(
            name: "CueKitQCTests",
            dependencies: [
                "CueKit", "CueKitQC", "CueKitWebVTT", "CueKitTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // The segmenter, the TS and fMP4 readers and the playlists; with ffmpeg, ffprobe and Python's m3u8 as peers.
        .testTarget(name: "CueKitHLSTests", dependencies: ["CueKit", "CueKitWebVTT", "CueKitCast", "CueKitConversion", "CueKitHLS", "CueKitTestSupport"]),
        // The server over real sockets, with Chromium as the receiver and two senders.
        .testTarget(
            name: "CueKitServerTests",
            dependencies: [
                "CueKit", "CueKitCast", "CueKitConversion", "CueKitServer", "CueKitCastSender", "CueKitCastV2", "CueKitTestSupport",
                // Built first for the test that converts through every door.
                "CueKitCLI", "ConvertAnything",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Remote renditions fetched from a live server on loopback; `cuekit convert URL --fetch`
        // through both built executables.
        .testTarget(
            name: "CueKitFetchTests",
            dependencies: [
                "CueKit", "CueKitConversion", "CueKitFetch", "CueKitServer", "CueKitTestSupport", "CueKitCLI", "CueKitCastCLI",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "CueKitCastV2Tests",
            dependencies: [
                "CueKitCast", "CueKitCastV2", "CueKitCastSender", "CueKitServer", "CueKitTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
