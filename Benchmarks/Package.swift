// swift-tools-version: 6.1
//
// CueKit's benchmarks: a package of their own, so that the root package's build and tests never
// compile the benchmark framework. Run from the repository's root:
//
//     swift package --package-path Benchmarks benchmark --target CueKitBenchmarks
//
// (`--target`: the plugin would also start CueKitScaling, below, which is not a benchmark.)
//
// Inputs (10,000 and 1,000,000 cues; TTML 10,000 and 100,000) are generated at start by
// CueKitSynthetic, deterministically, and never committed.

import PackageDescription

let package = Package(
    name: "CueKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "CueKit", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The benchmark plugin runs the executables whose folder sits in a folder named Benchmarks.
        .executableTarget(
            name: "CueKitBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "CueKit", package: "CueKit"),
                .product(name: "CueKitWebVTT", package: "CueKit"),
                .product(name: "CueKitSubRip", package: "CueKit"),
                .product(name: "CueKitTTML", package: "CueKit"),
                .product(name: "CueKitCast", package: "CueKit"),
                .product(name: "CueKitSynthetic", package: "CueKit"),
            ],
            path: "CueKitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Each reader on inputs of n and 10n units: the time ratio must stay below 15 (linear).
        //     swift run --package-path Benchmarks -c release CueKitScaling
        .executableTarget(
            name: "CueKitScaling",
            dependencies: [
                .product(name: "CueKit", package: "CueKit"),
                .product(name: "CueKitWebVTT", package: "CueKit"),
                .product(name: "CueKitSubRip", package: "CueKit"),
                .product(name: "CueKitTTML", package: "CueKit"),
                .product(name: "CueKitCast", package: "CueKit"),
                .product(name: "CueKitConversion", package: "CueKit"),
                .product(name: "CueKitHLS", package: "CueKit"),
                .product(name: "CueKitQC", package: "CueKit"),
                .product(name: "CueKitSCC", package: "CueKit"),
            ],
            path: "Scaling"
        ),
    ],
    swiftLanguageModes: [.v6]
)
