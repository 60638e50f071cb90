import Foundation
import Strata
@testable import StrataCompiler
import StrataTestSupport
import Testing

/// Values and names that try SQL injection are data, never SQL: stored and read back verbatim
/// through raw arguments and generated DAOs, and never changing the schema or other rows.
@Suite struct InjectionTests {
    /// Hostile text values.
    static let values: [String] = [
        "'; DROP TABLE t; --", "Robert'); DROP TABLE students;--", "\"", "'", "''", "\\", "\\'", "`",
        "1 OR 1=1", "1' OR '1'='1", "x\" OR \"\"=\"", "; DELETE FROM t", "--", "/*", "*/", "/* x */ SELECT 1",
        "?", "?1", ":name", "@name", "$name", "?999999", "NULL", "null", "", " ", "\0", "a\0b", "\0; DROP TABLE t; --",
        "ATTACH DATABASE '/tmp/evil.sqlite' AS evil; --", "PRAGMA writable_schema = 1;", "SELECT load_extension('x')",
        "é", "名前", "🙂\u{200D}🙃", "\u{FEFF}", "\u{202E}gnp.exe", "\r\n", "\n; DROP TABLE t;\n",
        String(repeating: "'; DROP TABLE t; --", count: 5_000),
    ]

    static func schemaSnapshot(_ conn: Connection) throws -> [Row] {
        try conn.fetch(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    }

    @Test func rawArgumentsAreStoredVerbatim() throws {
        let db = try Database.inMemory()
        try db.write { conn throws in
            try conn.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT, b BLOB); CREATE TABLE students (id INTEGER PRIMARY KEY)")
            try conn.execute(sql: "INSERT INTO students (id) VALUES (1)")
        }
        let schemaBefore = try db.read { try Self.schemaSnapshot($0) }
        try db.write { conn throws in
            for value in Self.values {
                try conn.execute(sql: "INSERT INTO t (v, b) VALUES (?, ?)", arguments: [value, Data(value.utf8)])
                try conn.execute(sql: "INSERT INTO t (v, b) VALUES (:v, :b)", arguments: ["v": value, "b": Data(value.utf8)])
            }
        }
        try db.read { conn throws in
            #expect(try Self.schemaSnapshot(conn) == schemaBefore)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM students") == 1)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 2 * Self.values.count)
            let rows = try conn.fetch(sql: "SELECT v, b FROM t ORDER BY id")
            for (index, value) in Self.values.enumerated() {
                for row in [rows[2 * index], rows[2 * index + 1]] {
                    #expect(try row.get(0, as: String.self) == value, "value \(index)")
                    #expect(try row.get(1, as: Data.self) == Data(value.utf8), "value \(index)")
                }
                // A lookup by the value finds exactly its two rows (the value is compared, not run).
                #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t WHERE v = ?", arguments: [value]) == 2, "value \(index)")
                #expect(try conn.fetchValue(Int.self, sql: "SELECT length(CAST(b AS BLOB)) FROM t WHERE v = ? LIMIT 1", arguments: [value]) == value.utf8.count)
            }
        }
    }

    @Test func generatedDAOsStoreHostileValuesVerbatim() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("vault.sqlite"))
        try Vault.migrate(db)
        let schemaBefore = try db.read { try Self.schemaSnapshot($0) }
        #expect(schemaBefore.contains { (try? $0.get(1, as: String.self)) == #"secret"; DROP TABLE secret; --"# })
        let kinds = Secret.Kind.allCases
        var stored: [Secret] = []
        try db.write { conn throws in
            for (index, value) in Self.values.enumerated() {
                let secret = try SecretDAO(conn).insert(
                    Secret(label: value, body: String(value.reversed()), note: index % 2 == 0 ? value : nil,
                           kind: kinds[index % kinds.count], payload: Data(value.utf8)))
                stored.append(secret)
                _ = try KeeperDAO(conn).insert(Keeper(secretId: secret.id))
            }
        }
        try db.read { conn throws in
            #expect(try Self.schemaSnapshot(conn) == schemaBefore)
            #expect(try SecretDAO(conn).count() == Self.values.count)
            for secret in stored {
                #expect(try SecretDAO(conn).find(id: secret.id) == secret)
                #expect(try SecretDAO(conn).byLabel(label: secret.label).contains(secret))
                #expect(try SecretDAO(conn).countBody(body: secret.body) >= 1)
            }
            let mottos = try KeeperDAO(conn).fetchAll().map(\.motto)
            #expect(mottos.count == Self.values.count)
            #expect(Set(mottos) == [#"it's; DROP TABLE "keeper; --"; --"#])
        }
        // Update and delete through the DAO touch only their row.
        try db.write { conn throws in
            var first = stored[0]
            first.label = "'; UPDATE \"secret\"\"; DROP TABLE secret; --\" SET label = 'pwned'; --"
            try SecretDAO(conn).update(first)
            try SecretDAO(conn).delete(stored[1])
        }
        try db.read { conn throws in
            #expect(try SecretDAO(conn).count() == Self.values.count - 1)
            #expect(try KeeperDAO(conn).count() == Self.values.count - 1, "the cascade removed the keeper of the deleted row only")
            #expect(try conn.fetchValue(Int.self, sql: #"SELECT count(*) FROM "secret""; DROP TABLE secret; --" WHERE "label'); DELETE FROM sqlite_master; --" = 'pwned'"#) == 0)
            #expect(try Self.schemaSnapshot(conn) == schemaBefore)
        }
    }

    /// A table whose only column is its autoincrement key (its insert is `DEFAULT VALUES`).
    @Test func aKeyOnlyTableInsertsThroughItsDAO() throws {
        let db = try Database.inMemory()
        try Vault.migrate(db)
        let tickets = try db.write { conn in try TicketDAO(conn).insert([Ticket(), Ticket(), Ticket(id: 10), Ticket()]) }
        #expect(tickets.map(\.id) == [1, 2, 10, 11])
        #expect(try db.read { conn in try TicketDAO(conn).count() } == 4)
    }

    /// Random table and column names built from SQL metacharacters and keywords: the rendered DDL
    /// runs, and SQLite holds exactly those names.
    @Test func hostileNamesGiveQuotedDDL() throws {
        let pieces = ["\"", "'", ";", "--", "/*", "*/", " ", ")", "(", ",", "`", "[", "]", "\\", "?", ":x", "$", "@",
                      "DROP TABLE t", "SELECT", "FROM", "WHERE", "OR 1=1", "table", "sqlite_master", "é", "名", "\t", "\n"]
        var random = SeededGenerator(state: 0x1A1E_C7ED)
        let count = Reliability.size("STRATA_NAME_TRIALS", fast: 300, long: 3_000)
        var created = 0
        func hostileName(_ prefix: String) -> String {
            prefix + (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
        }
        for trial in 0..<count {
            let tableName = hostileName("t\(trial)")
            let columnNames = (0..<3).map { hostileName("c\($0)_") }
            let table = Table(
                recordName: "T", sqlName: tableName,
                columns: [Column(name: "id", sqlName: columnNames[0], type: .int, primaryKey: .autoincrement)]
                    + columnNames.dropFirst().enumerated().map { Column(name: "v\($0.offset)", sqlName: $0.element, type: .text, isOptional: true) },
                primaryKey: ["id"])
            let schema = Schema(name: "Hostile", sourcePath: "Hostile.schema.yml", tables: [table])
            let db = try Database.inMemory()
            let ddl = SQLRenderer.ddl(for: schema)
            try db.writeWithoutTransaction { conn throws in
                for sql in ddl { try conn.execute(sql: sql) }
            }
            try db.read { conn throws in
                let tables = try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                    .map { try $0.get(0, as: String.self) }
                #expect(tables == [tableName], "\(ddl)")
                let columns = try conn.fetch(sql: "SELECT name FROM pragma_table_info(?)", arguments: [tableName]).map { try $0.get(0, as: String.self) }
                #expect(columns == columnNames, "\(ddl)")
            }
            created += 1
        }
        Reliability.figure("injection: \(Self.values.count) hostile values × (raw positional, raw named, generated DAO) stored verbatim; \(created) tables with random hostile names created exactly; sqlite_master unchanged by any value")
    }

    /// A line break in a name must not end the `--` header comment of a migration file and let
    /// the rest of the name run as SQL.
    @Test func namesCannotEscapeTheMigrationHeaderComment() throws {
        let before = try SchemaLoader.load(
            contents: "database: M\ntables:\n  Victim:\n    table: victim\n    columns:\n      id: { type: int, primaryKey: true }\n",
            path: "M.schema.yml")
        let after = try SchemaLoader.load(
            contents: """
                database: M
                tables:
                  Victim:
                    table: victim
                    columns:
                      id: { type: int, primaryKey: true }
                  Evil:
                    table: "evil\\nDROP TABLE victim; --"
                    columns:
                      id: { type: int, primaryKey: true }
                      x:  { type: text, column: "x\\r\\nDELETE FROM victim; --", default: "" }
                """,
            path: "M.schema.yml")
        let first = Migration(version: 1, name: "initial", sql: MigrationRenderer.render(
            try MigrationPlanner.plan(schema: before, migrations: []), version: 1, name: "initial", schemaFile: "M.schema.yml"))
        let secondSQL = MigrationRenderer.render(
            try MigrationPlanner.plan(schema: after, migrations: [first]), version: 2, name: "evil\nDROP TABLE victim", schemaFile: "M.schema.yml")
        let second = Migration(version: 2, name: "evil", sql: secondSQL)
        // Every header line is a comment.
        let header = secondSQL.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
        #expect(header.allSatisfy { $0.hasPrefix("--") }, "\(secondSQL)")
        let db = try Database.inMemory()
        try Migrator(migrations: [first]).migrate(db)
        try db.write { try $0.execute(sql: "INSERT INTO victim (id) VALUES (1), (2)") }
        try Migrator(migrations: [first, second]).migrate(db)
        #expect(try db.value(Int.self, "SELECT count(*) FROM victim") == 2)
        #expect(try db.value(Int.self, "SELECT count(*) FROM sqlite_master WHERE name = 'evil\nDROP TABLE victim; --'") == 1)
    }
}
