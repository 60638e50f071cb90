// swift-tools-version: 6.1
// Full-text search benchmark: `search(_:limit:)` and `searchWithSnippets(_:limit:)` of a
// generated DAO over 100,000 rows (an FTS5 external-content index), p50 per query.
// Run: `swift run -c release --scratch-path .build-bench SearchBench` (from Benchmarks/Search).
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (`main`, `wt-17b`, CI's clone…).
let strata = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "SearchBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "SearchBench",
            dependencies: [.product(name: "Strata", package: strata)],
            plugins: [.plugin(name: "StrataPlugin", package: strata)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
