// swift-tools-version: 6.1
// Strata built with its SQLCipher trait, and tests of encryption at rest against a real
// SQLCipher (docs/Encryption.md). `scripts/sqlcipher-test.sh` runs it; `.ci/run` calls that.
import PackageDescription

let package = Package(
    name: "SQLCipherPackage",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "strata", path: "../..", traits: ["SQLCipher"]),
    ],
    targets: [
        // As an app's target does under the trait: it links SQLCipher itself.
        .testTarget(
            name: "SQLCipherTests",
            dependencies: [.product(name: "Strata", package: "strata")],
            linkerSettings: [.linkedLibrary("sqlcipher")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
