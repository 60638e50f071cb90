import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// `strata-postgres prepare` through the real executable against a throwaway server: the
/// `<Name>.prepared.json` it writes (types, nullability, list parameters), its errors at the
/// YAML line and column, `--check`, and the scratch schema it leaves behind (none).
@Suite(.postgreSQLInstalled, .postgresServer)
struct PreparePostgresTests {
    static let schema = """
        database: Blog
        options:
          dialects: [sqlite, postgres]
        tables:
          Author:
            table: authors
            columns:
              id:   { type: int, primaryKey: autoincrement }
              name: text
              nickname: text?
          Post:
            table: posts
            columns:
              id:        { type: int, primaryKey: autoincrement }
              author_id: { type: int, references: Author.id }
              title:     text
              score:     double?
              likes:     { type: int, default: 0 }
        queries:
          postsWithAuthors:
            sql: |
              SELECT p.title, a.name, a.nickname
              FROM posts p JOIN authors a ON a.id = p.author_id
              WHERE p.score > :min_score AND a.name <> ':not_a_parameter' -- :nor_this
          authorsAndPosts:
            sql: "SELECT a.name, p.title, p.id AS post_id FROM authors a LEFT JOIN posts p ON p.author_id = a.id WHERE a.id = :author"
          stats:
            sql: SELECT count(*) AS posts, avg(p.likes) AS average FROM posts p WHERE p.author_id IN (:ids)
            params: { ids: "[int]" }
            returns: one
          rename:
            sql: "UPDATE authors SET name = :name WHERE id = :id"

        """

    /// A folder with `Blog.schema.yml` (`text`, default: ``schema``) and its migrations, made
    /// by the real `migration new`.
    func project(_ text: String = Self.schema) throws -> (folder: URL, schema: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prepare-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let schema = folder.appendingPathComponent("Blog.schema.yml").path
        try text.write(toFile: schema, atomically: true, encoding: .utf8)
        let made = try StrataCLI.run(["migration", "new", schema, "--name", "initial"])
        #expect(made.status == 0, "\(made.output)\n\(made.error)")
        return (folder, schema)
    }

    /// The 1-based line and column (in characters) where `text` first appears in `file`.
    static func position(of text: String, in file: String) throws -> (Int, Int) {
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains(text) })
        let range = try #require(lines[index].range(of: text))
        return (index + 1, lines[index].distance(from: lines[index].startIndex, to: range.lowerBound) + 1)
    }

    /// A new empty database on the suite's server and its URL.
    func emptyDatabaseURL() async throws -> String {
        let server = try PostgresTestServer.current()
        let name = "prep_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
        let admin = try await PostgresDatabase(url: server.url())
        do {
            try await admin.withConnection { conn in try await conn.execute(sql: "CREATE DATABASE \(name)") }
            try await admin.close()
        } catch {
            try? await admin.close()
            throw error
        }
        return server.url(database: String(name))
    }

    /// The schemas of the database at `url` whose name starts with `strata_prepare_`.
    func scratchSchemas(_ url: String) async throws -> [String] {
        let pg = try await PostgresDatabase(url: url)
        do {
            let names = try await pg.read { conn in
                try await conn.query(sql: "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'strata\\_prepare\\_%'").map { try $0.decode(String.self) }
            }
            try await pg.close()
            return names
        } catch {
            try? await pg.close()
            throw error
        }
    }

    @Test func writesTypesAndNullabilityTheServerReports() async throws {
        let url = try await emptyDatabaseURL()
        let (_, schema) = try project()
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let path = PreparedQueries.path(forSchemaPath: schema)
        #expect(run.output.contains("wrote \(path): 4 queries"), "\(run.output)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = try PreparedQueries.decode(text)
        #expect(file.queries.map(\.name) == ["authorsAndPosts", "postsWithAuthors", "rename", "stats"])

        // A join: NOT NULL columns are non-null, a nullable one nullable; the string and the
        // comment hold no parameters.
        let join = try #require(file.query(named: "postsWithAuthors"))
        #expect(join.parameters == [PreparedParameter(name: "min_score", type: "float8")])
        #expect(join.sql.contains("p.score > $1 AND a.name <> ':not_a_parameter' -- :nor_this"), "\(join.sql)")
        #expect(join.columns == [
            PreparedColumn(name: "title", type: "text", nullable: false),
            PreparedColumn(name: "name", type: "text", nullable: false),
            PreparedColumn(name: "nickname", type: "text", nullable: true),
        ])

        // A LEFT JOIN: the inner side's NOT NULL columns are nullable (the compiler's analysis).
        let left = try #require(file.query(named: "authorsAndPosts"))
        #expect(left.parameters == [PreparedParameter(name: "author", type: "int8")])
        #expect(left.columns == [
            PreparedColumn(name: "name", type: "text", nullable: false),
            PreparedColumn(name: "title", type: "text", nullable: true),
            PreparedColumn(name: "post_id", type: "int8", nullable: true),
        ])

        // Aggregates: count is int8 and never NULL, avg of int8 is numeric and may be NULL;
        // a list parameter is one array, `= ANY($1)`.
        let stats = try #require(file.query(named: "stats"))
        #expect(stats.sql == "SELECT count(*) AS posts, avg(p.likes) AS average FROM posts p WHERE p.author_id = ANY($1::BIGINT[])")
        #expect(stats.parameters == [PreparedParameter(name: "ids", type: "_int8", isList: true)])
        #expect(stats.columns == [
            PreparedColumn(name: "posts", type: "int8", nullable: false),
            PreparedColumn(name: "average", type: "numeric", nullable: true),
        ])

        // A write without RETURNING: parameters, no columns.
        let rename = try #require(file.query(named: "rename"))
        #expect(rename.sql == "UPDATE authors SET name = $1 WHERE id = $2")
        #expect(rename.parameters.map(\.type) == ["text", "int8"])
        #expect(rename.columns.isEmpty)

        // Stable: a second run computes the same bytes and leaves the file alone (the build
        // sees no new input); the scratch schema is gone.
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(50))
        let again = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(again.status == 0, "\(again.error)")
        #expect(again.output.contains("\(path) is unchanged: 4 queries"), "\(again.output)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written)
        try FileManager.default.removeItem(atPath: path)
        #expect(try StrataCLI.run(["prepare", schema, "--url", url]).status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try await scratchSchemas(url).isEmpty)
    }

    @Test func aRejectedStatementIsAnErrorAtItsLineAndColumn() async throws {
        let url = try await emptyDatabaseURL()
        // SQLite accepts both queries; only their `postgres:` variants are misspelled.
        // Block scalar (`|`):
        let block = Self.schema.replacingOccurrences(
            of: """
                    sql: |
                      SELECT p.title, a.name, a.nickname
                      FROM posts p JOIN authors a ON a.id = p.author_id
                """,
            with: """
                    sql:
                      sqlite: SELECT p.title, a.name, a.nickname FROM posts p JOIN authors a ON a.id = p.author_id WHERE p.score > :min_score
                      postgres: |
                        SELECT p.title,
                               a.nme, a.nickname
                        FROM posts p JOIN authors a ON a.id = p.author_id
                """
        ).replacingOccurrences(of: "      WHERE p.score > :min_score AND", with: "        WHERE p.score > :min_score AND")
        #expect(block.contains("a.nme") && block.contains("        WHERE p.score"))
        let (_, schema) = try project(Self.schema)
        try block.write(toFile: schema, atomically: true, encoding: .utf8)
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 1)
        let (line, column) = try Self.position(of: "a.nme", in: block)
        #expect(run.error.hasPrefix("\(schema):\(line):\(column): error: query 'postsWithAuthors': PostgreSQL rejects the statement: column a.nme does not exist"), "\(run.error)")
        #expect(run.error.contains("nothing was written"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: PreparedQueries.path(forSchemaPath: schema)))
        #expect(try await scratchSchemas(url).isEmpty)

        // Quoted scalar, after a rewritten parameter (`:author` → `$1` moves the offsets) and a
        // non-ASCII string (the server counts characters, the map bytes).
        let sqlite = "SELECT a.name, p.title, p.id AS post_id FROM authors a LEFT JOIN posts p ON p.author_id = a.id WHERE a.id = :author"
        let quoted = Self.schema.replacingOccurrences(
            of: "    sql: \"\(sqlite)\"",
            with: "    sql:\n      sqlite: \"\(sqlite)\"\n      postgres: \"\(sqlite) AND a.name <> 'café' AND p.titel = 'x'\"")
        #expect(quoted.contains("p.titel"))
        try quoted.write(toFile: schema, atomically: true, encoding: .utf8)
        let second = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(second.status == 1)
        let (quotedLine, quotedColumn) = try Self.position(of: "p.titel", in: quoted)
        #expect(second.error.hasPrefix("\(schema):\(quotedLine):\(quotedColumn): error: query 'authorsAndPosts': PostgreSQL rejects the statement: column p.titel does not exist"), "\(second.error)")
        #expect(try await scratchSchemas(url).isEmpty)
    }

    @Test func checkPassesWhenFreshAndFailsAfterAnEditOrANewMigration() async throws {
        let url = try await emptyDatabaseURL()
        let (_, schema) = try project()
        let path = PreparedQueries.path(forSchemaPath: schema)
        let missing = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("\(path) does not exist"), "\(missing.error)")
        #expect(missing.error.contains("strata-postgres prepare \(schema) --url"), "\(missing.error)")
        #expect(!FileManager.default.fileExists(atPath: path))

        let write = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(write.status == 0, "\(write.error)")
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let fresh = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(fresh.status == 0, "\(fresh.output)\n\(fresh.error)")
        #expect(fresh.output.contains("\(path) is up to date (4 queries)"), "\(fresh.output)")

        // The SQL of one query edited: stale, that query named, the file untouched.
        let edited = Self.schema.replacingOccurrences(of: "UPDATE authors SET name = :name", with: "UPDATE authors SET nickname = :name")
        try edited.write(toFile: schema, atomically: true, encoding: .utf8)
        let stale = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(stale.status == 1)
        #expect(stale.error.contains("error: \(path) is stale:"), "\(stale.error)")
        #expect(stale.error.contains("query 'rename' changed since it was written"), "\(stale.error)")
        #expect(!stale.error.contains("query 'stats'"), "\(stale.error)")
        #expect(stale.error.contains("strata-postgres prepare"), "\(stale.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)

        // Prepared again, then a new migration (a column added): stale through the migrations.
        #expect(try StrataCLI.run(["prepare", schema, "--url", url]).status == 0)
        #expect(try StrataCLI.run(["prepare", schema, "--url", url, "--check"]).status == 0)
        let grown = edited.replacingOccurrences(of: "      likes:     { type: int, default: 0 }\n", with: "      likes:     { type: int, default: 0 }\n      draft:     { type: bool, default: false }\n")
        try grown.write(toFile: schema, atomically: true, encoding: .utf8)
        let made = try StrataCLI.run(["migration", "new", schema, "--name", "drafts"])
        #expect(made.status == 0, "\(made.error)")
        let afterMigration = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(afterMigration.status == 1)
        #expect(afterMigration.error.contains("the PostgreSQL migrations changed since it was written"), "\(afterMigration.error)")
        #expect(try await scratchSchemas(url).isEmpty)
    }

    /// A migration the server refuses: the error names it, nothing is written, nothing is left.
    @Test func aFailingMigrationIsNamedAndLeavesNothing() async throws {
        let url = try await emptyDatabaseURL()
        let (folder, schema) = try project()
        let migration = folder.appendingPathComponent("Blog.migrations/postgres/0001_initial.sql")
        let sql = try String(contentsOf: migration, encoding: .utf8)
        try (sql + "\nSELECT 1 / 0;\n").write(to: migration, atomically: true, encoding: .utf8)
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 1)
        #expect(run.error.contains("0001_initial.sql fails on the server: division by zero"), "\(run.error)")
        #expect(!FileManager.default.fileExists(atPath: PreparedQueries.path(forSchemaPath: schema)))
        #expect(try await scratchSchemas(url).isEmpty)
    }

    /// A type declared in `params:` is the parameter's type on PostgreSQL too (a cast where it
    /// first appears: the server would otherwise take `SELECT $1` as `text`); an error without
    /// a position (a parameter whose type the server cannot infer) is at the query's key.
    @Test func declaredParameterTypesAndAnErrorWithoutAPosition() async throws {
        let url = try await emptyDatabaseURL()
        let echo = Self.schema + """
              echo:
                sql: "SELECT :value AS value, :value + 1 AS next"
                params: { value: int }

            """
        let (_, schema) = try project(echo)
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 0, "\(run.error)")
        let file = try PreparedQueries.decode(try String(contentsOfFile: PreparedQueries.path(forSchemaPath: schema), encoding: .utf8))
        let query = try #require(file.query(named: "echo"))
        #expect(query.sql == "SELECT $1::BIGINT AS value, $1 + 1 AS next")
        #expect(query.parameters == [PreparedParameter(name: "value", type: "int8")])
        #expect(query.columns == [PreparedColumn(name: "value", type: "int8", nullable: false), PreparedColumn(name: "next", type: "int8", nullable: false)])

        let undetermined = Self.schema + """
              isMissing:
                sql:
                  sqlite: "SELECT :value + 0 IS NULL AS missing"
                  postgres: "SELECT :value IS NULL AS missing"

            """
        try undetermined.write(toFile: schema, atomically: true, encoding: .utf8)
        let failed = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(failed.status == 1)
        let (line, column) = try Self.position(of: "isMissing:", in: undetermined)
        #expect(failed.error.hasPrefix("\(schema):\(line):\(column): error: query 'isMissing': PostgreSQL rejects the statement: could not determine data type of parameter $1"), "\(failed.error)")
    }

    /// A declared `int` that a function takes as `integer` (`substr`'s length): the cast text is
    /// refused (`substr(text, integer, bigint)` does not exist), so the parameter is sent uncast
    /// and keeps the server's `int4` (an `Int` bound narrowed, checked); a declared type the
    /// server's inference does not fit (`text` for an `int`) is still the cast's error.
    @Test func aDeclaredParameterTheCastBreaksIsSentUncast() async throws {
        let url = try await emptyDatabaseURL()
        let initials = Self.schema + """
              initials:
                sql: "SELECT substr(name, 1, :length) AS initials FROM authors WHERE id = :id"
                params: { length: int }

            """
        let (_, schema) = try project(initials)
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 0, "\(run.error)")
        let file = try PreparedQueries.decode(try String(contentsOfFile: PreparedQueries.path(forSchemaPath: schema), encoding: .utf8))
        let query = try #require(file.query(named: "initials"))
        #expect(query.sql == "SELECT substr(name, 1, $1) AS initials FROM authors WHERE id = $2")
        #expect(query.parameters == [PreparedParameter(name: "length", type: "int4"), PreparedParameter(name: "id", type: "int8")])
        // The build (`strata generate`, the plugin's command) takes the int4 parameter: its only
        // error is the schema's `stats`, whose avg is numeric on PostgreSQL.
        let generate = try StrataExecutable.run(["generate", schema, "--output-file", schema + ".swift"])
        #expect(generate.stderr.contains("query 'stats'"), "\(generate.stderr)")
        #expect(!generate.stderr.contains("query 'initials'"), "\(generate.stderr)")

        let mismatched = Self.schema + """
              named:
                sql: "SELECT id FROM authors WHERE name = :n"
                params: { n: int }

            """
        try mismatched.write(toFile: schema, atomically: true, encoding: .utf8)
        let failed = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(failed.status == 1)
        #expect(failed.error.contains("error: query 'named': PostgreSQL rejects the statement: operator does not exist: text = bigint"), "\(failed.error)")
        #expect(try await scratchSchemas(url).isEmpty)
    }

    @Test func aSchemaWithoutQueriesWritesNothing() async throws {
        let url = try await emptyDatabaseURL()
        let text = String(Self.schema[..<Self.schema.range(of: "queries:\n")!.lowerBound])
        let (_, schema) = try project(text)
        let run = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("declares no top-level queries: nothing to prepare, no file written"), "\(run.output)")
        #expect(!FileManager.default.fileExists(atPath: PreparedQueries.path(forSchemaPath: schema)))
    }

    /// The plain `strata` has no PostgreSQL client: it names the `strata-postgres` command.
    @Test func plainStrataNamesTheCommandThatHasIt() throws {
        let (_, schema) = try project()
        let plain = try StrataExecutable.run(["prepare", schema, "--url", "postgres://strata@127.0.0.1:1/none"])
        #expect(plain.status == 1)
        #expect(plain.stderr.hasSuffix("  swift run strata-postgres prepare \(schema) --url postgres://strata@127.0.0.1:1/none\n"), "\(plain.stderr)")
    }
}
