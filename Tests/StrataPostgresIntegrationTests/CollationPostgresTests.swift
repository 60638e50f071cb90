import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// `collate:` with `dialects: [sqlite, postgres]` on a real server: `nocase` is the
/// nondeterministic ICU collation the DDL creates (case-insensitive equality and uniqueness, as
/// on SQLite), `binary` is `"C"`, and an index key's `COLLATE NOCASE` uses the same collation;
/// a later migration that changes a column's collation alters it in place.
@Suite(.postgreSQLInstalled, .postgresServer)
struct CollationPostgresTests {
    static let yaml = """
        database: Decks
        options: { dialects: [sqlite, postgres] }
        tables:
          Deck:
            table: decks
            columns:
              id: { type: int, primaryKey: true }
              name: { type: text, collate: nocase }
              code: { type: text, collate: binary }
              title: text
            indexes:
              - { name: decks_name, columns: [name], unique: true }
              - { name: decks_title, columns: ["title COLLATE NOCASE", "id DESC"] }
              - { name: decks_lower_code, expression: "lower(code)" }
        """

    @Test func nocaseIsCaseInsensitiveOnPostgreSQLToo() async throws {
        let schema = try SchemaLoader.load(contents: Self.yaml, path: "Decks.schema.yml")
        let pg = try await PostgresTestServer.current().makeDatabase()
        do {
            try await pg.write { conn in
                for statement in PostgresRenderer.ddl(for: schema) { try await conn.execute(sql: statement) }
                // Creating it again (a second schema, a later migration) is a no-op.
                try await conn.execute(sql: PostgresRenderer.nocaseCollationSQL)
                try await conn.execute(sql: "INSERT INTO decks (id, name, code, title) VALUES (1, 'Spanish', 'Ab', 'One'), (2, 'French', 'ab', 'two')")
            }
            await #expect(throws: StrataError.self) {
                try await pg.write { conn in try await conn.execute(sql: "INSERT INTO decks (id, name, code, title) VALUES (3, 'SPANISH', 'x', 'x')") }
            }
            try await pg.read { conn in
                let found = try await conn.query(sql: "SELECT id FROM decks WHERE name = 'spanish'")
                #expect(try found.map { try $0.decode(Int.self) } == [1])
                let codes = try await conn.query(sql: "SELECT id FROM decks WHERE code = 'ab'")
                #expect(try codes.map { try $0.decode(Int.self) } == [2], "binary is case-sensitive")
                let indexes = try await conn.query(sql: "SELECT indexdef FROM pg_indexes WHERE tablename = 'decks' ORDER BY indexname")
                let definitions = try indexes.map { try $0.decode(String.self) }
                #expect(definitions.contains { $0.contains("decks_title") && $0.contains("COLLATE strata_nocase") && $0.contains("id DESC") }, "\(definitions)")
                #expect(definitions.contains { $0.contains("decks_lower_code") && $0.contains("lower(code)") }, "\(definitions)")
                let collation = try await conn.query(sql: """
                    SELECT c.collname FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
                    WHERE a.attrelid = 'decks'::regclass AND a.attname IN ('name', 'code') ORDER BY a.attname
                    """)
                #expect(try collation.map { try $0.decode(String.self) } == ["C", "strata_nocase"])
            }
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }
}
