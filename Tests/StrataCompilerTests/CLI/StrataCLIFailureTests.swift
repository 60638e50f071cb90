import Foundation
import Strata
import Testing
@testable import StrataCompiler
import StrataTestSupport

/// The real `strata` on files it must not trust: a database altered by hand (drift), a file
/// that is not SQLite, one it cannot open or may not write, an output folder it cannot write.
/// Each gets a short message naming the file, exit code 1, and nothing changed.
extension StrataCLITests {
    /// A rename by hand, then a migration that rebuilds the table: before the drift check the
    /// rebuild copied `"note"` — now an unknown identifier — as the string 'note' into every
    /// row and `migrate` reported success.
    @Test func migrateAndStatusRefuseADatabaseAlteredByHandAndListTheDifferences() throws {
        let workspace = try initialized()
        let dir = workspace.url
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir).status == 0)
        let path = dir.appendingPathComponent("shop.sqlite").path
        do {
            let db = try Database(path: path)
            try db.execute("INSERT INTO customer (name, note) VALUES ('Ann', NULL), ('Bob', 'vip')")
            try db.execute("ALTER TABLE customer RENAME COLUMN note TO memo; CREATE INDEX by_hand ON customer (name)")
        }
        // The next version rebuilds customer (note becomes NOT NULL with a default).
        try workspace.writeSchema(
            ShopSchema.yaml(customer: ShopSchema.customer.replacingOccurrences(of: "note:  text?", with: "note:  { type: text, default: \"\" }")))
        var result = try strata("migration", "new", "Shop.schema.yml", "--name", "note_required", in: dir)
        #expect(result.status == 0, "\(result.stderr)")

        result = try strata("status", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 1)
        #expect(result.stdout.contains("structure: altered outside the migrations since version 1"), "\(result.stdout)")
        #expect(result.stderr.contains("error: the database was altered outside its migrations since version 1 was applied: table customer was changed, index by_hand was added"), "\(result.stderr)")
        #expect(result.stderr.contains("  column customer.note is missing (the migrations create it)"), "\(result.stderr)")
        #expect(result.stderr.contains("  column customer.memo is in the database but no migration creates it"), "\(result.stderr)")
        #expect(result.stderr.contains("  index by_hand (on customer (name)) is in the database but no migration creates it"), "\(result.stderr)")

        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("applying"), "\(result.stdout)")
        #expect(result.stderr.contains("error: migration refused: the database was altered outside its migrations since version 1 was applied"), "\(result.stderr)")
        #expect(result.stderr.contains("  column customer.memo is in the database but no migration creates it"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was applied"))
        let db = try Database(path: path)
        #expect(try db.rows("SELECT max(version) FROM strata_migrations") == [[.integer(1)]])
        #expect(try db.rows("SELECT memo FROM customer ORDER BY id") == [[.null], [.text("vip")]])

        // Undoing the change by hand lets it migrate, and the data is right.
        try db.execute("ALTER TABLE customer RENAME COLUMN memo TO note; DROP INDEX by_hand")
        result = try strata("status", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0 && result.stdout.contains("structure: as version 1 left it"), "\(result.stdout) \(result.stderr)")
        result = try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: dir)
        #expect(result.status == 0 && result.stdout.contains("applying 0002_note_required … done"), "\(result.stderr)")
        #expect(try db.rows("SELECT note FROM customer ORDER BY id") == [[.text("")], [.text("vip")]])
    }

    @Test func aFileThatIsNotSQLiteIsNamedAndLeftAlone() throws {
        let workspace = try initialized()
        let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let url = workspace.url.appendingPathComponent("junk.sqlite")
        try junk.write(to: url)
        for command in ["status", "migrate"] {
            let result = try strata(command, "Shop.schema.yml", "--database", "junk.sqlite", in: workspace.url)
            #expect(result.status == 1)
            #expect(result.stderr == "error: junk.sqlite: file is not a database\n", "\(command): \(result.stderr)")
        }
        #expect(try Data(contentsOf: url) == junk)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func aDatabaseThatCannotBeOpenedIsNamed() throws {
        let workspace = try initialized()
        var result = try strata("migrate", "Shop.schema.yml", "--database", "no/such/folder/shop.sqlite", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot open no/such/folder/shop.sqlite: unable to open database file (No such file or directory)\n", "\(result.stderr)")
        result = try strata("migrate", "Shop.schema.yml", "--database", "Shop.migrations", in: workspace.url)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: cannot open Shop.migrations: ") && result.stderr.contains("Is a directory"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anOutputFolderThatIsAFileGetsOneLine() throws {
        let workspace = try initialized()
        try Data("x".utf8).write(to: workspace.url.appendingPathComponent("out"))
        var result = try strata("generate", "Shop.schema.yml", "--output", "out", in: workspace.url)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot write ") && result.stderr.contains("out/Shop.swift: ") && result.stderr.contains("out is a file, not a folder"), "\(result.stderr)")

        // The migrations folder is a file.
        let other = try MigrationWorkspace()
        try other.writeSchema(ShopSchema.v1)
        try Data("x".utf8).write(to: other.url.appendingPathComponent("Shop.migrations"))
        result = try strata("migration", "new", "Shop.schema.yml", "--name", "initial", in: other.url)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: cannot write ") && result.stderr.contains("Shop.migrations is a file, not a folder"), "\(result.stderr)")
    }

    // MARK: - Permissions (run as an unprivileged user: root ignores file permissions)

    /// Whether `strata` can run here without write access to a workspace: always as an
    /// ordinary user; as root only when `nobody` (through `setpriv`) may run the built
    /// executable and read a temporary folder. The permission tests are enabled only when it
    /// can, so where they cannot run they show as skipped instead of passing having checked
    /// nothing. (A missing executable is not a reason to skip: the tests' `#require` fails.)
    static var canDropWriteAccess: Bool {
        guard getuid() == 0, let executable = StrataExecutable.url else { return true }
        guard let directory = try? TemporaryDirectory() else { return false }
        return nobodyCanRun(executable, reading: directory.url)
    }

    private static let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
    private static let dropToNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Whether `nobody`, through `setpriv`, may run `executable` and read `directory` (a
    /// checkout under a private home folder is out of its reach).
    private static func nobodyCanRun(_ executable: URL, reading directory: URL) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: setpriv.path) else { return false }
        let probe = Process()
        probe.executableURL = setpriv
        probe.arguments = dropToNobody + ["/bin/sh", "-c", "test -x \"$0\" && test -r \"$1\"", executable.path, directory.path]
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    /// Runs `strata` as a user who may read but not write the workspace: `nobody` through
    /// `setpriv` when the tests run as root, this user otherwise (the workspace is made
    /// read-only by `chmod` for the call). Nil when neither is possible here (see
    /// ``canDropWriteAccess``).
    func strataWithoutWriteAccess(_ arguments: String..., in directory: URL) throws -> Result? {
        let executable = try #require(StrataExecutable.url)
        let process = Process()
        if getuid() == 0 {
            guard Self.nobodyCanRun(executable, reading: directory) else { return nil }
            process.executableURL = Self.setpriv
            process.arguments = Self.dropToNobody + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory.path).map { directory.appendingPathComponent($0).path }
        if getuid() != 0 {
            for path in entries + [directory.path] { chmod(path, 0o555) }
        }
        defer {
            if getuid() != 0 {
                for path in entries + [directory.path] { chmod(path, 0o755) }
            }
        }
        process.currentDirectoryURL = directory
        return try StrataExecutable.capture(process)
    }

    @Test(.enabled(if: canDropWriteAccess, "runs strata as a user without write access: as root, needs setpriv and a build nobody can run"))
    func statusWorksOnAReadOnlyDatabaseAndMigrateSaysItIsReadOnly() throws {
        let workspace = try initialized()
        #expect(try strata("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url).status == 0)
        try workspace.writeSchema(addPhone)
        #expect(try strata("migration", "new", "Shop.schema.yml", "--name", "add_phone", in: workspace.url).status == 0)
        // A clean file: no -wal or -shm beside it, so a reader cannot lean on them.
        let path = workspace.url.appendingPathComponent("shop.sqlite").path
        do {
            let db = try Database(path: path)
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        chmod(workspace.url.path, 0o755)

        let status = try #require(try strataWithoutWriteAccess("status", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url))
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("version: 1 (latest: 2)") && status.stdout.contains("pending:\n  0002_add_phone"), "\(status.stdout)")

        let migrate = try #require(try strataWithoutWriteAccess("migrate", "Shop.schema.yml", "--database", "shop.sqlite", in: workspace.url))
        #expect(migrate.status == 1)
        #expect(migrate.stderr.split(separator: "\n").count == 1, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("shop.sqlite") && migrate.stderr.contains("readonly database"), "\(migrate.stderr)")
        #expect(!migrate.stdout.contains("done"))

        // A name that needs escaping in the file: URI of the fallback.
        try FileManager.default.copyItem(atPath: path, toPath: workspace.url.appendingPathComponent("shop #1?%.sqlite").path)
        let odd = try #require(try strataWithoutWriteAccess("status", "Shop.schema.yml", "--database", "shop #1?%.sqlite", in: workspace.url))
        #expect(odd.status == 0 && odd.stdout.contains("version: 1 (latest: 2)"), "\(odd.stderr)")

        let dryRun = try #require(try strataWithoutWriteAccess("migrate", "Shop.schema.yml", "--database", "shop.sqlite", "--dry-run", in: workspace.url))
        #expect(dryRun.status == 0 && dryRun.stdout.contains("would apply:"), "\(dryRun.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(.enabled(if: canDropWriteAccess, "runs strata as a user without write access: as root, needs setpriv and a build nobody can run"))
    func anUnwritableOutputFolderGetsOneLine() throws {
        let workspace = try initialized()
        let generate = try #require(try strataWithoutWriteAccess("generate", "Shop.schema.yml", "--output", ".", in: workspace.url))
        #expect(generate.status == 1)
        #expect(generate.stderr.split(separator: "\n").count == 1, "\(generate.stderr)")
        #expect(generate.stderr.hasPrefix("error: cannot write ") && generate.stderr.hasSuffix("Shop.swift: Permission denied\n"), "\(generate.stderr)")

        try workspace.writeSchema(addPhone)
        let new = try #require(try strataWithoutWriteAccess("migration", "new", "Shop.schema.yml", "--name", "add_phone", in: workspace.url))
        #expect(new.status == 1)
        #expect(new.stderr.split(separator: "\n").count == 1, "\(new.stderr)")
        #expect(new.stderr.hasPrefix("error: cannot write ") && new.stderr.hasSuffix("0002_add_phone.sql: Permission denied\n"), "\(new.stderr)")
        #expect(try MigrationFiles.load(schemaPath: workspace.schemaPath).count == 1)
    }
}

extension StrataCLITests {
    /// `strata` builds no SwiftNIO, so `--url` is refused before anything is read or connected
    /// to, with the `strata-postgres` command that has it: the same arguments, quoted for the
    /// shell, the URL's password masked (an error message ends up in CI logs).
    @Test func urlWithoutPostgresSupportNamesTheStrataPostgresCommand() throws {
        let workspace = try initialized()
        let dir = workspace.url
        let url = "postgres://app:s3cret@db.example:5432/shop"
        for (subcommand, extra) in [("migrate", " --to 1"), ("status", "")] {
            let arguments = [subcommand, "Shop.schema.yml", "--url", url] + extra.split(separator: " ").map(String.init)
            let result = try StrataExecutable.run(arguments, in: dir)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stdout.isEmpty, "\(result.stdout)")
            #expect(!result.stderr.contains("s3cret"), "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines == [
                "error: this strata has no PostgreSQL support (so that building it builds no SwiftNIO); --url needs the strata-postgres command:",
                "  swift run strata-postgres \(subcommand) Shop.schema.yml --url 'postgres://app:***@db.example:5432/shop'\(extra)",
            ], "\(result.stderr)")
        }
        // A path with a space and a quote comes out as one shell word.
        let spaced = dir.appendingPathComponent("it's mine.schema.yml").path
        let result = try strata("status", spaced, "--url", "postgres://localhost/x", in: dir)
        let quoted = "'" + spaced.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        #expect(result.stderr.hasSuffix("  swift run strata-postgres status \(quoted) --url postgres://localhost/x\n"), "\(result.stderr)")
        withExtendedLifetime(workspace) {}
    }
}
