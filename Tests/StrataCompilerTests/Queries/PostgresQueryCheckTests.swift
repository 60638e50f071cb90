import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// Top-level queries on PostgreSQL (`dialects: [sqlite, postgres]`): the Check stage reads
/// `<Name>.prepared.json` beside the schema and every problem with it is an error at an exact
/// line and column: a missing or stale file at the query's line naming `strata-postgres
/// prepare`, a malformed one at the file, a type the two dialects disagree on with both types
/// and the cast.
@Suite struct PostgresQueryCheckTests {
    static let schema = """
        options: { dialects: [sqlite, postgres] }
        tables:
          Item:
            table: item
            columns:
              id: { type: int, primaryKey: autoincrement }
              name: text
              price: double?
        queries:
          cheap:
            sql: "SELECT name, price FROM item WHERE price < :max AND id IN (:ids)"
            params: { ids: "[int]" }
          average:
            sql: "SELECT avg(price) AS average FROM item"
            returns: one

        """

    /// A directory holding `Shop.schema.yml` (``schema`` or `text`).
    struct Fixture {
        let directory: TemporaryDirectory
        var schemaPath: String { directory.path("Shop.schema.yml") }
        var preparedPath: String { directory.path("Shop.prepared.json") }

        init(_ text: String = PostgresQueryCheckTests.schema) throws {
            directory = try TemporaryDirectory()
            try text.write(toFile: directory.path("Shop.schema.yml"), atomically: true, encoding: .utf8)
        }

        /// The declarations as decoded (what `strata-postgres prepare` fingerprints).
        func declarations() throws -> [SQLQuery] {
            try #require(Frontend.read(path: schemaPath).schema).queries
        }

        /// The file a server would have written for ``PostgresQueryCheckTests/schema``, with `edit` applied.
        func writePrepared(_ edit: (inout PreparedQueries) -> Void = { _ in }) throws {
            let declared = try declarations()
            func fingerprint(_ name: String) throws -> String {
                PreparedQueries.sourceFingerprint(of: try #require(declared.first { $0.name == name }))
            }
            var file = PreparedQueries(
                migrationsFingerprint: PreparedQueries.migrationsFingerprint([]),
                queries: [
                    PreparedQuery(
                        name: "cheap", sourceFingerprint: try fingerprint("cheap"),
                        sql: "SELECT name, price FROM item WHERE price < $1 AND id = ANY($2)",
                        parameters: [PreparedParameter(name: "max", type: "float8"), PreparedParameter(name: "ids", type: "_int8", isList: true)],
                        columns: [PreparedColumn(name: "name", type: "text", nullable: false), PreparedColumn(name: "price", type: "float8", nullable: true)]),
                    PreparedQuery(
                        name: "average", sourceFingerprint: try fingerprint("average"), sql: "SELECT avg(price) AS average FROM item",
                        parameters: [], columns: [PreparedColumn(name: "average", type: "float8", nullable: true)]),
                ])
            edit(&file)
            try file.encodedText().write(toFile: preparedPath, atomically: true, encoding: .utf8)
        }

        func check() -> (compiled: CompiledSchema?, errors: [String]) {
            let result = Compiler.check(path: schemaPath)
            return (result.compiled, result.diagnostics.map { "\($0.location): \($0.message)" + ($0.hint.map { " | " + $0 } ?? "") })
        }

        /// `path:line:column: message` relative to the fixture's directory.
        func errors() -> [String] {
            check().errors.map { $0.replacingOccurrences(of: directory.url.path + "/", with: "") }
        }
    }

    @Test func anUpToDateFileCompilesWithTheBindingsInDollarOrder() throws {
        let fixture = try Fixture()
        try fixture.writePrepared()
        let result = fixture.check()
        #expect(result.errors.isEmpty, "\(result.errors)")
        let queries = try #require(result.compiled?.postgresQueries)
        #expect(queries.map(\.query.name) == ["cheap", "average"])
        #expect(queries[0].sql == "SELECT name, price FROM item WHERE price < $1 AND id = ANY($2)")
        #expect(queries[0].query.parameters.map(\.name) == ["max", "ids"])
        #expect(queries[0].bindings == [0, 1])
        #expect(queries[0].columnTypes == ["text", "float8"])
    }

    @Test func aMissingFileIsAnErrorAtEachQueryNamingTheCommand() throws {
        let fixture = try Fixture()
        let errors = fixture.errors()
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.hasPrefix("Shop.schema.yml:10:3: query 'cheap' has never been prepared for PostgreSQL: ") == true, "\(errors)")
        #expect(errors.first?.contains("Shop.prepared.json does not exist | run `strata-postgres prepare ") == true, "\(errors)")
        #expect(errors.last?.hasPrefix("Shop.schema.yml:13:3: query 'average' has never been prepared") == true, "\(errors)")
    }

    @Test func aMissingEntryIsAnErrorAtItsQuery() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { $0.queries.removeAll { $0.name == "average" } }
        let errors = fixture.errors()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("Shop.schema.yml:13:3: query 'average' has never been prepared for PostgreSQL: ") == true, "\(errors)")
        #expect(errors.first?.contains("has no entry for it | run `strata-postgres prepare ") == true, "\(errors)")
    }

    /// The user edits the SQL after preparing: the build fails at the query, naming the command.
    @Test func staleSQLIsAnErrorAtTheQueryNamingTheCommand() throws {
        let fixture = try Fixture()
        try fixture.writePrepared()
        let edited = Self.schema.replacingOccurrences(of: "price < :max", with: "price <= :max")
        try edited.write(toFile: fixture.schemaPath, atomically: true, encoding: .utf8)
        let errors = fixture.errors()
        #expect(errors.count == 1, "\(errors)")
        let expected = "Shop.schema.yml:10:3: query 'cheap' changed since it was prepared for PostgreSQL (Shop.prepared.json is stale) | run `strata-postgres prepare Shop.schema.yml --url postgres://…` again and commit the file"
        #expect(errors.first == expected)
    }

    /// A `returns:` or `columns:` change changes the method: stale too.
    @Test func aChangedDeclarationIsStale() throws {
        let fixture = try Fixture()
        try fixture.writePrepared()
        let edited = Self.schema + "    columns: { average: double }\n"
        try edited.write(toFile: fixture.schemaPath, atomically: true, encoding: .utf8)
        #expect(fixture.errors().first?.hasPrefix("Shop.schema.yml:13:3: query 'average' changed since it was prepared") == true, "\(fixture.errors())")
    }

    @Test func changedMigrationsAreAnErrorAtEachQuery() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { $0.migrationsFingerprint = PreparedQueries.migrationsFingerprint([Migration(version: 1, name: "initial", sql: "CREATE TABLE item (id BIGINT)")]) }
        let errors = fixture.errors()
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.hasPrefix("Shop.schema.yml:10:3: the PostgreSQL migrations changed since query 'cheap' was prepared (") == true, "\(errors)")
        #expect(errors.first?.contains("| run `strata-postgres prepare ") == true, "\(errors)")
    }

    @Test func aMalformedFileOrAnotherFormatIsAnErrorAtTheFile() throws {
        let fixture = try Fixture()
        try "{ \"formatVersion\": 1, ".write(toFile: fixture.preparedPath, atomically: true, encoding: .utf8)
        let malformed = fixture.errors()
        #expect(malformed.count == 1, "\(malformed)")
        #expect(malformed.first?.hasPrefix("Shop.prepared.json:1:1: cannot read the prepared PostgreSQL queries: ") == true, "\(malformed)")
        #expect(malformed.first?.contains("| write it again with `strata-postgres prepare ") == true, "\(malformed)")

        try fixture.writePrepared { $0.formatVersion = 7 }
        #expect(fixture.errors() == [
            "Shop.prepared.json:1:1: the prepared PostgreSQL queries are in format 7, this Strata reads format 1 | write it again with `strata-postgres prepare Shop.schema.yml --url postgres://…` using this version of Strata"
        ])
    }

    /// PostgreSQL's AVG of an integer is numeric; SQLite's is a double: one row type, so the
    /// build fails with both types and the cast.
    @Test func numericWhereSQLiteHasADoubleIsAnErrorWithTheCast() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { file in
            file.queries[0].columns[0].type = "numeric"  // "average" sorts first
        }
        let errors = fixture.errors()
        #expect(errors == [
            "Shop.schema.yml:13:3: query 'average': column 1 (average) is double on SQLite but numeric on PostgreSQL (PostgreSQL's AVG, a SUM of reals and decimal literals are numeric, which is not a Double) | write the PostgreSQL statement apart, sql: { sqlite: \"…\", postgres: \"…\" }, with CAST(… AS double precision) AS average, so both give a double"
        ])
    }

    /// Nullability: never a NULL read as a value.
    @Test func aColumnNullableOnlyOnPostgreSQLIsAnError() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { file in file.queries[1].columns[0].nullable = true }
        #expect(fixture.errors() == [
            "Shop.schema.yml:10:3: query 'cheap': column 1 (name) is never NULL on SQLite but may be NULL on PostgreSQL | declare it optional, columns: { name: text? }, or give both a value with coalesce(…, default)"
        ])
        // Optional on SQLite, never NULL on PostgreSQL: read as optional, fine.
        try fixture.writePrepared { file in file.queries[1].columns[1].nullable = false }
        #expect(fixture.errors().isEmpty)
    }

    @Test func parametersMustFitTheSwiftTypes() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { file in file.queries[1].parameters[0].type = "numeric" }
        #expect(fixture.errors() == [
            "Shop.schema.yml:10:3: query 'cheap': parameter :max is double on SQLite but numeric on PostgreSQL | write the PostgreSQL statement apart, sql: { sqlite: \"…\", postgres: \"…\" }, with CAST(:max AS double precision) where it is used"
        ])
        // A float4 parameter would round the Double: refused too.
        try fixture.writePrepared { file in file.queries[1].parameters[0].type = "float4" }
        #expect(fixture.errors().first?.contains("parameter :max is double on SQLite but float4 on PostgreSQL") == true, "\(fixture.errors())")
        // An int4 one is bound narrowed (checked at run time): accepted.
        try fixture.writePrepared { file in file.queries[1].parameters[1].type = "_int4" }
        #expect(fixture.errors().isEmpty, "\(fixture.errors())")
        #expect(fixture.check().compiled?.postgresQueries.first?.parameterTypes == ["float8", "_int4"])
        try fixture.writePrepared { file in file.queries[1].parameters[1] = PreparedParameter(name: "ids", type: "int8") }
        #expect(fixture.errors().first?.contains("parameter :ids is a list on SQLite (IN (:ids)) but one value on PostgreSQL") == true, "\(fixture.errors())")
        try fixture.writePrepared { file in file.queries[1].parameters.removeLast() }
        #expect(fixture.errors().first?.contains("the PostgreSQL statement does not use parameter :ids") == true, "\(fixture.errors())")
    }

    @Test func columnsMustMatchInNumberAndName() throws {
        let fixture = try Fixture()
        try fixture.writePrepared { file in file.queries[1].columns.removeLast() }
        #expect(fixture.errors().first?.contains("query 'cheap': the SQLite statement returns 2 columns (name, price) but the PostgreSQL one 1 (name)") == true, "\(fixture.errors())")
        try fixture.writePrepared { file in file.queries[1].columns.swapAt(0, 1) }
        #expect(fixture.errors().first?.contains("query 'cheap': column 1 (name) is named price on PostgreSQL") == true, "\(fixture.errors())")
    }

    // MARK: - The real CLI on the Ledger fixture

    /// A copy of Fixtures/Generated/Ledger (schema, migrations, prepared.json) in a new directory.
    static func ledgerCopy() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        for name in ["Ledger.schema.yml", "Ledger.prepared.json", "Ledger.migrations"] {
            try FileManager.default.copyItem(
                at: GeneratedFixtures.directory.appendingPathComponent(name), to: directory.url.appendingPathComponent(name))
        }
        return directory
    }

    /// What the build plugin runs: `strata generate` fails on a query edited since the file
    /// was written, at the query's line, naming the command; with the file as written it succeeds.
    @Test func strataGenerateFailsOnAStaleFileNamingTheCommand() throws {
        let directory = try Self.ledgerCopy()
        let fresh = try StrataExecutable.run(["generate", "Ledger.schema.yml", "--output-file", "Ledger.swift"], in: directory.url)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let schema = directory.path("Ledger.schema.yml")
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "SELECT count(*) AS n FROM entries", with: "SELECT count(*) AS n FROM entries WHERE cents > 0")
        #expect(edited != text)
        try edited.write(toFile: schema, atomically: true, encoding: .utf8)
        let stale = try StrataExecutable.run(["generate", "Ledger.schema.yml", "--output-file", "Ledger.swift"], in: directory.url)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains(
            "Ledger.schema.yml:61:3: error: query 'entryCount' changed since it was prepared for PostgreSQL (Ledger.prepared.json is stale)"), "\(stale.stderr)")
        #expect(stale.stderr.contains("run `strata-postgres prepare Ledger.schema.yml --url postgres://…` again"), "\(stale.stderr)")
        #expect(try StrataExecutable.run(["check", "Ledger.schema.yml"], in: directory.url).status == 1, "check accepts what generate compiles")
    }

    /// A new migration makes the file stale, so `strata migration new` (which writes it) must
    /// not need the file: it runs with the file stale or missing, and the build then names
    /// `strata-postgres prepare`.
    @Test func migrationNewRunsWithoutThePreparedFile() throws {
        let directory = try Self.ledgerCopy()
        try FileManager.default.removeItem(atPath: directory.path("Ledger.prepared.json"))
        let schema = directory.path("Ledger.schema.yml")
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "      memo:      text?\n", with: "      memo:      text?\n      note:      text?\n")
            .write(toFile: schema, atomically: true, encoding: .utf8)
        let new = try StrataExecutable.run(["migration", "new", "Ledger.schema.yml", "--name", "add_note"], in: directory.url)
        #expect(new.status == 0, "\(new.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.path("Ledger.migrations/postgres/0002_add_note.sql")))
        let generate = try StrataExecutable.run(["generate", "Ledger.schema.yml", "--output-file", "Ledger.swift"], in: directory.url)
        #expect(generate.status == 1)
        #expect(generate.stderr.contains("error: query 'balances' has never been prepared for PostgreSQL: Ledger.prepared.json does not exist"), "\(generate.stderr)")
    }
}
