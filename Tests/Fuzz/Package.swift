// swift-tools-version: 6.1
//
// libFuzzer targets for CueKit's readers: one executable per target, each built with
// `-sanitize=fuzzer,address` by `run.sh` (the root package never builds them). Every target feeds
// arbitrary bytes to one reader and traps when it finds a crash, a hang, a leak, or a broken promise
// (chunked reading that differs from whole reading, markup that does not read back).

import PackageDescription

let fuzzTarget: (String, [Target.Dependency]) -> Target = { name, dependencies in
    .executableTarget(
        name: name,
        dependencies: dependencies + ["CFuzzerDriver", "FuzzSupport"]
    )
}

let package = Package(
    name: "CueKitFuzz",
    dependencies: [
        .package(name: "CueKit", path: "../.."),
    ],
    targets: [
        // Declares libFuzzer's driver entry point, which each target's main.swift calls.
        .target(name: "CFuzzerDriver"),
        // What the targets share: the large-structure mode, whole and chunked reading compared.
        .target(name: "FuzzSupport", dependencies: [.product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzWebVTT", [.product(name: "CueKitWebVTT", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzCueText", [.product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzTTML", [.product(name: "CueKitTTML", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzSubRip", [.product(name: "CueKitSubRip", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzCastJSON", [.product(name: "CueKitCast", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzSCC", [.product(name: "CueKitSCC", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzEBUSTL", [.product(name: "CueKitEBUSTL", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzASS", [.product(name: "CueKitASS", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
        fuzzTarget("FuzzHLSPlaylist", [.product(name: "CueKitConversion", package: "CueKit"), .product(name: "CueKit", package: "CueKit")]),
    ],
    swiftLanguageModes: [.v6]
)
