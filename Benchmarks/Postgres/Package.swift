// swift-tools-version: 6.1
// PostgreSQL benchmark (issue 18): the generated `<Record>PostgresDAO`s against hand-written
// postgres-nio code running the same SQL: insert, fetchAll, find by key, p0 and p50 per run.
// Run: `Benchmarks/Postgres/run.sh` (release build in `.build` here, a throwaway cluster on
// loopback, a markdown table). A package of its own, so the main package never builds it.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (`main`, `wt-18`, CI's clone…).
let strata = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "PostgresBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../.."),
        // The same spellings as the main package's manifest.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "PostgresBench",
            dependencies: [
                .product(name: "StrataPostgres", package: strata),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The schema is compiled by the real build plugin, PostgreSQL DAOs included.
            plugins: [.plugin(name: "StrataPlugin", package: strata)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
