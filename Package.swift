// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "strata",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Strata", targets: ["Strata"]),
        // The PostgreSQL runtime (postgres-nio): a product of its own, so SQLite-only users build no NIO.
        .library(name: "StrataPostgres", targets: ["StrataPostgres"]),
        // The `strata` command. `strata` builds no SwiftNIO (SQLite only, seconds to build);
        // `strata-postgres` is the same command with `migrate --url`/`status --url` over StrataPostgres.
        .executable(name: "strata", targets: ["StrataMain"]),
        .executable(name: "strata-postgres", targets: ["StrataPostgresMain"]),
        .plugin(name: "StrataPlugin", targets: ["StrataPlugin"]),
        .plugin(name: "StrataMigrationPlugin", targets: ["StrataMigrationPlugin"]),
        // `swift package strata <subcommand> …`: every subcommand, nothing on PATH.
        .plugin(name: "StrataCommandPlugin", targets: ["StrataCommandPlugin"]),
    ],
    // Which SQLite the runtime links: the system's libsqlite3 (default), or SQLCipher for
    // encryption at rest (`swift build --traits SQLCipher`, docs/Encryption.md).
    traits: [
        .default(enabledTraits: ["SystemSQLite"]),
        .trait(name: "SystemSQLite", description: "Link the system's libsqlite3 (the default)."),
        .trait(name: "SQLCipher", description: "Build for SQLCipher instead of SQLite (the app links libsqlcipher), for Database.Configuration(key:)."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The StrataPostgres product only: PostgreSQL's wire protocol, and the logger it takes.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Documentation only: `swift package generate-documentation` (scripts/docs.sh).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // SQLite's header; the library itself is linked by the Strata target, by trait.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(
            name: "Strata",
            dependencies: ["CSQLite"],
            // Under the SQLCipher trait the app's target links `sqlcipher` itself
            // (docs/Encryption.md): SwiftPM's plugin-driven builds (DocC) enable every trait,
            // and a trait-conditional `sqlcipher` here would then be linked where it is absent.
            linkerSettings: [.linkedLibrary("sqlite3", .when(traits: ["SystemSQLite"]))]
        ),
        .target(name: "StrataCompiler", dependencies: ["Strata", "CYAML"]),
        .target(
            name: "StrataPostgres",
            dependencies: [
                "Strata",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Throwaway PostgreSQL clusters for tests (initdb + pg_ctl in a temporary folder).
        // What the test targets that run the `strata` executable share.
        .target(name: "StrataTestSupport", path: "Tests/StrataTestSupport"),
        .target(name: "StrataPostgresTestSupport", dependencies: ["StrataPostgres"], path: "Tests/StrataPostgresTestSupport"),
        // The `strata` command's code; two one-line executables run it.
        .target(
            name: "StrataCommands",
            dependencies: [
                "StrataCompiler",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/StrataCLI"
        ),
        // The `strata` executable: the commands without PostgreSQL, so `swift run strata …` builds
        // no SwiftNIO, BoringSSL or swift-crypto (given `--url` it names the `strata-postgres` command).
        // A second executable rather than a `Postgres` trait: a trait of a dependency can only be
        // enabled in the user's manifest (`swift run --traits` applies to the root package alone),
        // `--traits Postgres` drops the default SystemSQLite trait, and switching traits rebuilds
        // every target of the package (docs/CLI.md, "PostgreSQL").
        .executableTarget(name: "StrataMain", dependencies: ["StrataCommands"]),
        // The `strata-postgres` executable: the same command with `--url postgres://…`.
        .executableTarget(name: "StrataPostgresMain", dependencies: ["StrataCommands", "StrataPostgres"]),
        // The same command as the plugins' tool. It is a target of its own, in no declared product,
        // because SwiftPM cannot give a plugin an executable target that a product of another name
        // ships ("no product named …", swiftlang/swift-package-manager#8831).
        .executableTarget(name: "StrataPluginTool", dependencies: ["StrataCommands"]),
        .plugin(
            name: "StrataPlugin",
            capability: .buildTool(),
            dependencies: [.target(name: "StrataPluginTool")]
        ),
        .executableTarget(
            name: "LibraryDemo",
            dependencies: ["Strata"],
            path: "Examples/LibraryDemo",
            plugins: ["StrataPlugin"]
        ),
        .plugin(
            name: "StrataMigrationPlugin",
            capability: .command(
                intent: .custom(verb: "strata-migration", description: "Write the next migration of a schema, or verify its migrations."),
                permissions: [.writeToPackageDirectory(reason: "writes <Name>.migrations/NNNN_name.sql beside the schema")]
            ),
            dependencies: [.target(name: "StrataPluginTool")]
        ),
        // No permission declared, so `swift package strata check …` needs no flag (see the plugin).
        .plugin(
            name: "StrataCommandPlugin",
            capability: .command(
                intent: .custom(verb: "strata", description: "Run a strata subcommand: check, generate, migration, migrate, status, introspect, diagram.")
            ),
            dependencies: [.target(name: "StrataPluginTool")]
        ),
        .testTarget(name: "StrataTests", dependencies: ["Strata", "StrataTestSupport"]),
        .testTarget(
            name: "StrataPostgresTests",
            dependencies: ["StrataPostgres", "StrataPostgresTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // A `dialects: [sqlite, postgres]` schema compiled by the real build plugin, run against a
        // throwaway server: the generated PostgresDAOs, the migration history, `strata migrate --url`.
        .testTarget(
            name: "StrataPostgresIntegrationTests",
            dependencies: ["StrataPostgres", "StrataPostgresTestSupport", "StrataCompiler", "StrataTestSupport"],
            plugins: ["StrataPlugin"]
        ),
        .testTarget(name: "StrataCompilerTests", dependencies: ["StrataCompiler", "StrataTestSupport", "StrataPostgresTestSupport"], exclude: ["Fixtures"]),
        .testTarget(
            name: "StrataIntegrationTests",
            dependencies: ["Strata", "StrataTestSupport"],
            plugins: ["StrataPlugin"]
        ),
        // A test-only SQLite VFS that injects I/O errors (StrataReliabilityTests.IOFaultTests).
        .target(name: "CFaultVFS", dependencies: ["CSQLite"], path: "Tests/CFaultVFS"),
        .testTarget(
            name: "StrataReliabilityTests",
            dependencies: ["Strata", "StrataCompiler", "CFaultVFS", "StrataTestSupport"],
            plugins: ["StrataPlugin"]
        ),
        // The adoption corpus's real-world shapes (Northwind, Sakila, Core Data, GeoPackage,
        // WordPress, Anki): their introspected schemas, compiled by the build plugin, read every row.
        // A target of its own: their record names meet those of StrataReliabilityTests' styles.
        .testTarget(
            name: "StrataAdoptionTests",
            dependencies: ["Strata", "StrataCompiler", "StrataTestSupport"],
            plugins: ["StrataPlugin"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
