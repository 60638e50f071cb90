// swift-tools-version: 6.3
import Foundation
import PackageDescription

// Strata is a path dependency (the folder above), and SwiftPM names a path dependency after
// its folder: `wt-benchmarks`, `main`, `project` in CI's clone... So the identity that
// `.product(package:)` and `.plugin(package:)` need is computed here from the folder name.
let strataPath = ".."
let strata = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "StrataBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: strataPath),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The raw SQLite C API, for the hand-written baseline.
        .systemLibrary(name: "CSQLiteRaw", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // The workloads, three ways each; the schema is compiled by the real StrataPlugin.
        .target(
            name: "BenchKit",
            dependencies: [
                "CSQLiteRaw",
                .product(name: "Strata", package: strata),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: [.plugin(name: "StrataPlugin", package: strata)]
        ),
        // One workload in a loop, for callgrind and quick timing: `bench-one <workload> <impl>`.
        .executableTarget(name: "BenchOne", dependencies: ["BenchKit"]),
        // The typed-query benchmark (issue 11): `swift run -c release TypedQueryBench`.
        .executableTarget(
            name: "TypedQueryBench",
            dependencies: ["CSQLiteRaw", .product(name: "Strata", package: strata), .product(name: "GRDB", package: "GRDB.swift")],
            plugins: [.plugin(name: "StrataPlugin", package: strata)]
        ),
        // The ordo-one/benchmark harness: `swift package benchmark`.
        .executableTarget(
            name: "StrataBenchmarks",
            dependencies: [
                "BenchKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StrataBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
