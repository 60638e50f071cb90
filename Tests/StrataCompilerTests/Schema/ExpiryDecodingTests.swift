import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `expires:` in a schema file: what it decodes to, the DDL and DAO SQL it renders, and errors
/// at the YAML line and column of what is wrong.
@Suite struct ExpiryDecodingTests {
    static let session = """
        tables:
          Session:
            table: sessions
            columns:
              token: { type: text, primaryKey: true }
              device: text?
            expires: true
            queries:
              forDevice: { where: "device = :device", orderBy: token, limit: ":limit" }
              limitedBy: { where: "length(token) < :limit", limit: ":limit" }
              total: { returns: count }
        """

    func errors(_ yaml: String) -> [String] {
        do {
            _ = try SchemaLoader.load(contents: yaml, path: "S.schema.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func addsTheColumnAsTheLastOneAndItsIndex() throws {
        let schema = try SchemaLoader.load(contents: Self.session, path: "S.schema.yml")
        let table = try #require(schema.table(named: "Session"))
        #expect(table.expires)
        #expect(table.columns.map(\.name) == ["token", "device", "expiresAt"])
        let column = try #require(table.expiresAtColumn)
        #expect(column.type == .date && column.isOptional && column.sqlName == "expiresAt")
        #expect(table.indexes.map(\.name) == ["sessions_expiresAt"])
        let ddl = SQLRenderer.ddl(for: schema)
        #expect(ddl.first?.contains("  \"device\" TEXT,\n  \"expiresAt\" TEXT\n) STRICT") == true, "\(ddl)")
        #expect(ddl.contains(#"CREATE INDEX "sessions_expiresAt" ON "sessions" ("expiresAt")"#))
    }

    @Test func theDAOsReadsCompareWithTheCurrentTime() throws {
        let schema = try SchemaLoader.load(contents: Self.session, path: "S.schema.yml")
        let table = try #require(schema.table(named: "Session"))
        let plan = DAOPlan(table: table, schema: schema)
        #expect(plan.findSQL.hasSuffix(#"WHERE "token" = ? AND ("expiresAt" IS NULL OR "expiresAt" > ?)"#))
        // The current time is numbered after the `where` parameters and before a `limit` one.
        let forDevice = try #require(table.queries.first { $0.name == "forDevice" })
        #expect(plan.queryNowIndex(forDevice) == 2)
        #expect(plan.querySQL(forDevice).hasSuffix(#"WHERE (device = :device) AND ("expiresAt" IS NULL OR "expiresAt" > ?2) ORDER BY token LIMIT :limit"#))
        let limitedBy = try #require(table.queries.first { $0.name == "limitedBy" })
        #expect(plan.queryNowIndex(limitedBy) == 2)
        let total = try #require(table.queries.first { $0.name == "total" })
        #expect(plan.querySQL(total) == #"SELECT count(*) FROM "sessions" WHERE ("expiresAt" IS NULL OR "expiresAt" > ?1)"#)
        #expect(plan.purgeExpiredSQL == #"DELETE FROM "sessions" WHERE "expiresAt" <= ?"#)
        // Writes by key see every row.
        #expect(!plan.updateSQL.contains("IS NULL") && !plan.deleteSQL.contains("IS NULL"))
        // SQLite numbers them as the generated code binds them.
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for sql in SQLRenderer.ddl(for: schema) { try conn.execute(sql: sql) }
            let statement = try conn.makeStatement(sql: plan.querySQL(forDevice))
            #expect(statement.parameterCount == 3)
            let limited = try conn.makeStatement(sql: plan.querySQL(limitedBy))
            #expect(limited.parameterCount == 2)
        }
    }

    @Test func aHostileTableNameIsQuotedEverywhere() throws {
        let schema = try SchemaLoader.load(contents: #"""
            tables:
              Token:
                table: 'weird "t"; --'
                columns:
                  id: { type: int, primaryKey: autoincrement }
                  owner: text
                expires: true
                queries:
                  byOwner: { where: "owner = :owner", limit: ":limit" }
            """#, path: "S.schema.yml")
        let table = try #require(schema.table(named: "Token"))
        #expect(table.indexes.map(\.name) == [#"weird "t"; --_expiresAt"#])
        let plan = DAOPlan(table: table, schema: schema)
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for sql in SQLRenderer.ddl(for: schema) { try conn.execute(sql: sql) }
            try conn.execute(sql: #"INSERT INTO "weird ""t""; --" (owner, expiresAt) VALUES ('ann', '2000-01-01 00:00:00.000'), ('ann', NULL)"#)
            let query = try conn.makeStatement(sql: plan.querySQL(try #require(table.queries.first)))
            try query.bind("ann", at: 1)
            try query.bind(Date(timeIntervalSince1970: 1_000_000_000), at: 2)
            try query.bind(10, at: 3)
            var found = 0
            while try query.step() { found += 1 }
            #expect(found == 1)
            try conn.execute(sql: plan.purgeExpiredSQL, arguments: [Date(timeIntervalSince1970: 1_000_000_000)])
            #expect(conn.changes == 1)
        }
    }

    @Test func aTableWithoutExpiresIsUnchanged() throws {
        let schema = try SchemaLoader.load(contents: Self.session.replacingOccurrences(of: "    expires: true\n", with: "    expires: false\n"), path: "S.schema.yml")
        let table = try #require(schema.table(named: "Session"))
        #expect(!table.expires && table.expiresAtColumn == nil)
        #expect(table.columns.map(\.name) == ["token", "device"])
        #expect(table.indexes.isEmpty)
        #expect(!DAOPlan(table: table, schema: schema).findSQL.contains("expiresAt"))
    }

    @Test func aDeclaredExpiresAtColumnIsAnErrorWhereItIsWritten() {
        let declared = errors("""
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                  expiresAt: date?
                expires: true
            """)
        #expect(declared.count == 1, "\(declared)")
        #expect(declared.first?.hasPrefix("S.schema.yml:5:7: error: column 'expiresAt' of table 'Session' clashes with the 'expiresAt' column that 'expires: true' adds") == true, "\(declared)")
        #expect(declared.first?.contains("since expires: true declares 'expiresAt: date?' itself") == true, "\(declared)")

        let sqlClash = errors("""
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                  until: { type: date, column: EXPIRESAT }
                expires: true
            """)
        #expect(sqlClash.first?.hasPrefix("S.schema.yml:5:7: error: column 'until' (SQL name 'EXPIRESAT') of table 'Session' clashes") == true, "\(sqlClash)")
    }

    @Test func expiresMustBeABool() {
        let found = errors("""
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                expires: 3600
            """)
        #expect(found.first?.hasPrefix("S.schema.yml:5:14: error: 'expires' must be true or false") == true, "\(found)")
        let misspelt = errors("""
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                expire: true
            """)
        #expect(misspelt.first?.contains("unknown key 'expire'") == true, "\(misspelt)")
    }

    @Test func aDeclaredIndexNamedLikeTheExpiryIndexIsReported() {
        let found = errors("""
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                  device: text
                indexes:
                  - { columns: [device], name: Session_expiresAt }
                expires: true
            """)
        #expect(found.contains { $0.contains("index name 'Session_expiresAt' is already used") }, "\(found)")
    }

    @Test func queriesMayUseTheColumn() throws {
        let schema = try SchemaLoader.load(contents: """
            tables:
              Session:
                columns:
                  token: { type: text, primaryKey: true }
                expires: true
                queries:
                  expiringBefore: { where: "expiresAt < :date" }
            """, path: "S.schema.yml")
        let query = try #require(schema.table(named: "Session")?.queries.first)
        #expect(query.parameters.map(\.type) == [.date])
    }
}
