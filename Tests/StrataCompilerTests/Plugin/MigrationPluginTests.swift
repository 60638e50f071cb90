import Foundation
import Testing

/// The `strata-migration` and `strata` command plugins, run the way a user runs them: in a fresh
/// package that depends on this one by path, with `swift package … strata-migration` and
/// `swift package strata …`; then the package's own build, which must compile no NIO target. It is a nested SwiftPM
/// build (minutes on a small machine), so it runs under `CI=true` (which `.ci/run` sets) or with
/// `STRATA_PLUGIN_TEST=1`, and is skipped otherwise.
@Suite(.serialized) struct MigrationPluginTests {
    static var enabled: Bool {
        ExternalTool.isCI || ProcessInfo.processInfo.environment["STRATA_PLUGIN_TEST"] == "1"
    }

    static let schema = """
        database: Shop
        tables:
          Customer:
            table: customers
            columns:
              id:    { type: int, primaryKey: autoincrement }
              name:  text
              email: { type: text, unique: true }
          Order:
            table: orders
            columns:
              id:         { type: int, primaryKey: autoincrement }
              customerId: { type: int, references: Customer.id, onDelete: cascade }
        """

    /// A user package: one executable target holding `Shop.schema.yml`, using the build plugin.
    static func makePackage() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("strata-user-package-\(UUID().uuidString)")
        let sources = root.appendingPathComponent("Sources/ShopApp")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // A path dependency's identity is its directory name (strata, or a worktree's name).
        let identity = literal(ExternalTool.repositoryRoot.lastPathComponent)
        let manifest = """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "ShopApp",
                platforms: [.macOS(.v13)],
                dependencies: [.package(path: \(literal(ExternalTool.repositoryRoot.path)))],
                targets: [
                    .executableTarget(
                        name: "ShopApp",
                        dependencies: [.product(name: "Strata", package: \(identity))],
                        plugins: [.plugin(name: "StrataPlugin", package: \(identity))]
                    ),
                ]
            )

            """
        try manifest.write(to: root.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try schema.write(to: sources.appendingPathComponent("Shop.schema.yml"), atomically: true, encoding: .utf8)
        try "import Strata\n".write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        return root
    }

    static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `swift package` in the user package, with its own scratch directory so it never waits for
    /// the lock of the build running these tests.
    ///
    /// It waits on a thread of its own, not on one of Swift Testing's few cooperative threads
    /// (two on a 2-core machine): a nested build of minutes must not stall the other tests.
    static func swiftPackage(_ arguments: [String], in package: URL) async throws -> ExternalTool.Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try swiftPackageBlocking(arguments, in: package) })
            }
            thread.start()
        }
    }

    static func swiftPackageBlocking(_ arguments: [String], in package: URL) throws -> ExternalTool.Result {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SWIFTPM_") }
        environment["CI"] = nil
        let scratch = package.appendingPathComponent(".build-user").path
        // At the lowest priority: the other tests of the run (some count their time) go first.
        return try ExternalTool.run("nice", ["-n", "19", "swift", "package", "--scratch-path", scratch] + arguments,
                                    in: package, environment: environment)
    }

    @Test(.enabled(if: enabled, "the command plugin test builds a user package (minutes); CI=true or STRATA_PLUGIN_TEST=1 runs it"))
    func writesAndVerifiesTheFirstMigration() async throws {
        #expect(ExternalTool.find("swift") != nil, "swift is not on PATH")
        let package = try Self.makePackage()
        defer {
            try? FileManager.default.removeItem(at: package)
            // SwiftPM leaves lock files named after the scratch path in the temporary directory.
            let temporary = FileManager.default.temporaryDirectory
            for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
            where name.contains(package.lastPathComponent) {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
        let migration = package.appendingPathComponent("Sources/ShopApp/Shop.migrations/0001_initial.sql")

        let plugin = ["--allow-writing-to-package-directory", "strata-migration"]
        var result = try await Self.swiftPackage(plugin + ["new", "--name", "initial"], in: package)
        #expect(result.status == 0, "strata-migration new failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Shop.migrations/0001_initial.sql"), "\(result.stdout)")
        let sql = try String(contentsOf: migration, encoding: .utf8)
        #expect(sql.contains(#"CREATE TABLE "customers""#), "\(sql)")
        #expect(sql.contains(#"CREATE TABLE "orders""#), "\(sql)")
        #expect(sql.contains(#"REFERENCES "customers" ("id") ON DELETE CASCADE"#), "\(sql)")

        result = try await Self.swiftPackage(plugin + ["verify"], in: package)
        #expect(result.status == 0, "strata-migration verify failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("ok: 1 migration(s)"), "\(result.stdout)")

        try await runsEverySubcommandAndBuildsNoNIO(package)

        // A schema that no longer matches its migrations fails verify, naming the command to run.
        try (Self.schema + "\n      phone: text?\n").write(
            to: package.appendingPathComponent("Sources/ShopApp/Shop.schema.yml"), atomically: true, encoding: .utf8)
        result = try await Self.swiftPackage(plugin + ["verify"], in: package)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("column orders.phone is declared but missing"),
                "\(result.stdout)\n\(result.stderr)")

        result = try await Self.swiftPackage(plugin + ["bogus"], in: package)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("usage: swift package"), "\(result.stderr)")
    }

    /// The build plugin on a schema with typed queries for PostgreSQL (Fixtures/Generated's
    /// Ledger: schema, migrations, `Ledger.prepared.json`): a query edited since the file was
    /// written fails the app's `swift build` at the query's line, naming `strata-postgres
    /// prepare`; with the query as prepared, the same build succeeds.
    @Test(.enabled(if: enabled, "the build plugin test builds a user package (minutes); CI=true or STRATA_PLUGIN_TEST=1 runs it"))
    func aStalePreparedFileFailsTheBuildNamingTheCommand() async throws {
        let package = try Self.makePackage()
        defer { Self.remove(package) }
        let sources = package.appendingPathComponent("Sources/ShopApp")
        try FileManager.default.removeItem(at: sources.appendingPathComponent("Shop.schema.yml"))
        for name in ["Ledger.schema.yml", "Ledger.prepared.json", "Ledger.migrations"] {
            try FileManager.default.copyItem(at: GeneratedFixtures.directory.appendingPathComponent(name), to: sources.appendingPathComponent(name))
        }
        let schema = sources.appendingPathComponent("Ledger.schema.yml")
        let text = try String(contentsOf: schema, encoding: .utf8)
        let query = "SELECT count(*) AS n FROM entries"
        #expect(text.contains(query))
        try text.replacingOccurrences(of: query, with: query + " WHERE cents > 0").write(to: schema, atomically: true, encoding: .utf8)
        var result = try await Self.swiftBuild(in: package)
        let output = result.stdout + result.stderr
        #expect(result.status != 0, "the build succeeded with a stale Ledger.prepared.json:\n\(output)")
        // (The plugin passes the schema's absolute path.)
        let prepared = sources.appendingPathComponent("Ledger.prepared.json")
        #expect(output.contains(
            "\(schema.path):61:3: error: query 'entryCount' changed since it was prepared for PostgreSQL (\(prepared.path) is stale)"), "\(output)")
        #expect(output.contains("run `strata-postgres prepare \(schema.path) --url postgres://…` again"), "\(output)")

        try text.write(to: schema, atomically: true, encoding: .utf8)
        result = try await Self.swiftBuild(in: package)
        #expect(result.status == 0, "the build fails with Ledger.prepared.json as written:\n\(result.stdout)\n\(result.stderr)")
    }

    /// Removes a user package and the lock files SwiftPM leaves in the temporary directory,
    /// named after its scratch path.
    static func remove(_ package: URL) {
        try? FileManager.default.removeItem(at: package)
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.contains(package.lastPathComponent) {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// `swift package strata <subcommand>` (the StrataCommandPlugin: nothing on PATH), then the
    /// app's build through the build plugin; neither compiles a target of SwiftNIO, BoringSSL,
    /// swift-crypto or postgres-nio (issue 29).
    func runsEverySubcommandAndBuildsNoNIO(_ package: URL) async throws {
        let schema = "Sources/ShopApp/Shop.schema.yml"
        try "database: Broken\ntables:\n  T:\n    columns:\n      id: { type: integr, primaryKey: true }\n"
            .write(to: package.appendingPathComponent("Broken.schema.yml"), atomically: true, encoding: .utf8)
        // Each `swift package` call relinks the tool (seconds; a minute on a loaded machine): few calls.
        var result = try await Self.swiftPackage(["strata", "check", "Broken.schema.yml"], in: package)
        #expect(result.status != 0)
        // SwiftPM forwards a command plugin's standard error to its standard output.
        #expect(result.stdout.contains("Broken.schema.yml:5:"), "\(result.stdout)\n\(result.stderr)")
        // No permission flag: it writes where the shell's relative path says.
        result = try await Self.swiftPackage(["strata", "generate", schema, "--output", "generated"], in: package)
        #expect(result.status == 0, "swift package strata generate failed:\n\(result.stdout)\n\(result.stderr)")
        let generated = try String(contentsOf: package.appendingPathComponent("generated/Shop.swift"), encoding: .utf8)
        #expect(generated.contains("struct Customer"), "\(generated.prefix(400))")
        result = try await Self.swiftPackage(["strata", "migrate", schema, "--database", "shop.sqlite"], in: package)
        #expect(result.status == 0, "swift package strata migrate failed:\n\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("0001_initial"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: package.appendingPathComponent("shop.sqlite").path))
        // The plugin's tool has no PostgreSQL; it names the command that has.
        result = try await Self.swiftPackage(["strata", "status", schema, "--url", "postgres://localhost/shop"], in: package)
        #expect(result.status != 0)
        #expect(result.stdout.contains("  swift run strata-postgres status \(schema) --url postgres://localhost/shop"), "\(result.stdout)\n\(result.stderr)")

        result = try await Self.swiftBuild(in: package)
        #expect(result.status == 0, "swift build failed:\n\(result.stdout)\n\(result.stderr)")
        let compiled = try Self.compiledTargets(scratch: package.appendingPathComponent(".build-user"))
        #expect(compiled.contains("Strata") && compiled.contains("ShopApp"), "\(compiled.sorted())")
        let server = compiled.filter(Self.isServerStackTarget)
        #expect(server.isEmpty, "a SQLite-only package compiled \(server.sorted()); all: \(compiled.sorted())")
    }

    /// A target of the PostgreSQL client's stack: SwiftNIO, BoringSSL, swift-crypto, postgres-nio
    /// and what they bring (asn1, atomics, collections, async-algorithms, metrics,
    /// service-lifecycle, swift-log); the same list as Benchmarks/Scripts/buildcost.py.
    static func isServerStackTarget(_ name: String) -> Bool {
        ["NIO", "BoringSSL", "Crypto", "CXKCP", "ASN1", "Postgres", "ConnectionPool", "Atomics", "Collections",
         "DequeModule", "ContainersPreview", "AsyncAlgorithms", "Metrics", "Lifecycle", "UnixSignals",
         "ConcurrencyHelpers", "Logging"].contains { name.contains($0) }
    }

    /// The targets a build under `scratch` compiled: the `<Target>.build` folders (any platform,
    /// debug or release; `-tool` for the plugins' host copies) holding an object file. SwiftPM
    /// also creates empty folders for targets it plans but does not compile.
    static func compiledTargets(scratch: URL) throws -> Set<String> {
        let manager = FileManager.default
        var names: Set<String> = []
        let roots = try manager.contentsOfDirectory(at: scratch, includingPropertiesForKeys: nil)
        for root in roots {
            for configuration in ["debug", "release"] {
                let folder = root.appendingPathComponent(configuration)
                guard let entries = try? manager.contentsOfDirectory(atPath: folder.path) else { continue }
                for entry in entries where entry.hasSuffix(".build") {
                    let files = manager.enumerator(atPath: folder.appendingPathComponent(entry).path)?.compactMap { $0 as? String } ?? []
                    if files.contains(where: { $0.hasSuffix(".o") }) { names.insert(String(entry.dropLast(".build".count))) }
                }
            }
        }
        return names
    }

    /// `swift build` in the user package, with the same scratch directory and priority as
    /// ``swiftPackage(_:in:)``.
    static func swiftBuild(in package: URL) async throws -> ExternalTool.Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result {
                    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SWIFTPM_") }
                    environment["CI"] = nil
                    let scratch = package.appendingPathComponent(".build-user").path
                    return try ExternalTool.run("nice", ["-n", "19", "swift", "build", "--scratch-path", scratch],
                                                in: package, environment: environment)
                })
            }
            thread.start()
        }
    }
}
