// swift-tools-version: 6.1
// Observation benchmarks: commit-to-value latency with 1 and 100 observers, and the cost of
// 100 observers of other tables on a 50k-row insert transaction; Strata and GRDB's
// ValueObservation on the same workload. Run: `swift run -c release --scratch-path .build-bench ObservationBench`.
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder (`main`, `wt-12`, CI's clone…).
let strata = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.lastPathComponent.lowercased()

let package = Package(
    name: "ObservationBench",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "ObservationBench",
            dependencies: [
                .product(name: "Strata", package: strata),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
