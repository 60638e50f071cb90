import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// Everything a table can declare (SCHEMA.md), with `dialects: [sqlite, postgres]`, on a real
/// server: the first PostgreSQL migration of a schema that uses every key is applied, and every
/// statement the generated `<Record>PostgresDAO`s run (writes, finds, reads of expiring rows,
/// named queries, navigation, search, purge) is prepared there, so that none is SQL the server
/// refuses. (What PostgreSQL cannot express is an error at its line: `PostgresDialectTests`.)
@Suite(.postgreSQLInstalled, .postgresServer)
struct SchemaSurfacePostgresTests {
    static let yaml = """
        database: Surface
        options: { dialects: [sqlite, postgres], strict: false }
        tables:
          Owner:
            table: owners
            doc: Every column key.
            renamedFrom: people
            columns:
              id: { type: int, primaryKey: autoincrement }
              name: { type: text, column: full_name, renamedFrom: name, collate: nocase, doc: The name. }
              code: { type: text, unique: true, collate: binary }
              score: { type: double, default: 1.5, check: "score >= 0" }
              active: { type: bool, default: true }
              photo: blob?
              since: { type: date, default: now }
              seen: { type: date, dateFormat: unixSeconds, default: "2024-01-02 03:04:05.000" }
              ref: { type: uuid, optional: true }
              kind: { type: enum, values: [a, b], default: a }
              meta: { type: json, swiftType: "[String: Int]", default: { x: 1 } }
              slug: { type: text, default: { sql: "lower('X')" } }
              legacy: { type: int, sqlType: NUMERIC, default: 0 }
            checks: ["length(full_name) > 0"]
            indexes:
              - columns: [score]
              - { name: owners_active_since, columns: [active, "since DESC"], where: "active = TRUE" }
              - { columns: ["code COLLATE NOCASE"], unique: true }
              - { name: owners_lower_slug, expression: "lower(slug)" }
            queries:
              named: { where: "full_name = :name", returns: one }
              top: { where: "score > :min", orderBy: "score DESC", limit: ":limit" }
              countActive: { where: "active = :active", returns: count }
              anySince: { where: "since >= :when", returns: exists, params: { when: date } }
          Pet:
            table: pets
            withoutRowid: true
            strict: true
            primaryKey: [ownerId, name]
            unique: [[ownerId, nick]]
            columns:
              ownerId: { type: int, references: Owner.id, onDelete: cascade, onUpdate: restrict }
              name: text
              nick: text?
              vetId: { type: int?, references: Owner.id, onDelete: setNull }
              sitterId: { type: int, default: 0, references: Owner.id, onDelete: setDefault, onUpdate: noAction }
            queries:
              forOwner: { where: "ownerId = :ownerId", orderBy: name }
          Note:
            table: notes
            columns:
              id: { type: int, primaryKey: autoincrement }
              ownerId: { type: int, references: Owner.id, onDelete: cascade }
              title: text
              body: text?
            search: { columns: [title, body], tokenizer: "porter unicode61 remove_diacritics 2" }
            expires: true
            queries:
              recent: { where: "ownerId = :ownerId", orderBy: "id DESC", limit: ":limit" }
              forOwner: { where: "ownerId = :ownerId", returns: count }
        views:
          active_owners: "SELECT id, full_name FROM owners WHERE active = TRUE"
        """

    @Test func everyTableDeclarationIsCreatedAndEveryDAOStatementPrepares() async throws {
        let schema = try SchemaLoader.load(contents: Self.yaml, path: "Surface.schema.yml")
        let (plan, manual) = try PostgresMigrations.plan(schema: schema, sqliteMigrations: [])
        #expect(manual.isEmpty)
        let pg = try await PostgresTestServer.current().makeDatabase()
        do {
            try await pg.write { conn in
                for statement in plan.statements { try await conn.execute(sql: statement) }
            }
            var statements: [String] = []
            for table in schema.tables {
                let dao = DAOPlan(table: table, schema: schema, dialect: PostgresDialect())
                statements += dao.statements + [dao.fetchAllSQL] + table.queries.map(dao.querySQL) + dao.navigations.map(\.sql)
                if table.expires { statements.append(dao.purgeExpiredSQL) }
                if table.search != nil {
                    statements += [PostgresSearch.searchSQL(table, snippet: false), PostgresSearch.searchSQL(table, snippet: true)]
                }
            }
            #expect(statements.count > 40)
            try await pg.write { conn in
                for (number, sql) in statements.enumerated() {
                    try await conn.execute(sql: "PREPARE strata_surface_\(number) AS \(sql)")
                }
            }
            // The observation triggers, the search vector and the defaults work on a row.
            let triggers = try await pg.read { conn in
                try await conn.query(sql: "SELECT count(*)::bigint FROM pg_trigger WHERE tgname = 'strata_notify'")[0].decode(Int.self)
            }
            #expect(triggers == 3)
            try await pg.write { conn in
                try await conn.execute(sql: """
                    INSERT INTO owners (full_name, code) VALUES ('Ann', 'a1');
                    INSERT INTO notes ("ownerId", title, body) VALUES (1, 'Running', 'dogs were running fast')
                    """)
            }
            let found = try await pg.read { conn in
                try await conn.query(sql: "SELECT title FROM notes WHERE strata_search @@ plainto_tsquery('english', 'run')").map { try $0.decode(String.self) }
            }
            #expect(found == ["Running"])
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }
}
