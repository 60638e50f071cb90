import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `expires:` through migrations on a table with rows: adding it adds the `expiresAt` column
/// and its index, removing it takes both away; every row stays, with its values.
@Suite struct ExpiryMigrationTests {
    static let plain = """
        tables:
          User:
            columns:
              id: { type: int, primaryKey: autoincrement }
              name: text
          Session:
            columns:
              token: { type: text, primaryKey: true }
              userId: { type: int, references: User.id, onDelete: cascade }
              device: text?
        """
    static let expiring = plain + "\n    expires: true\n"

    func rows(_ db: Database) throws -> [String] {
        try db.read { conn in
            try conn.fetch(sql: "SELECT token, userId, coalesce(device, '-') FROM Session ORDER BY token").map { row in
                let token: String = try row.get(0)
                let user: Int = try row.get(1)
                let device: String = try row.get(2)
                return "\(token) \(user) \(device)"
            }
        }
    }

    func columns(_ db: Database) throws -> [String] {
        try db.read { conn in try conn.fetch(sql: "SELECT name FROM pragma_table_info('Session')").map { try $0.get(0) } }
    }

    func indexes(_ db: Database) throws -> [String] {
        try db.read { conn in
            try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Session' AND sql IS NOT NULL").map { try $0.get(0) }
        }
    }

    @Test func addingAndRemovingExpiresKeepsEveryRow() throws {
        let workspace = try MigrationWorkspace()
        try workspace.evolve(to: Self.plain, name: "initial")
        let db = try workspace.open()
        try workspace.migrate(db)
        try db.write { conn in
            try conn.execute(sql: "INSERT INTO User (name) VALUES ('Ann'), ('Bob')")
            try conn.execute(sql: "INSERT INTO Session (token, userId, device) VALUES ('a', 1, 'phone'), ('b', 1, NULL), ('c', 2, 'laptop')")
        }
        let before = try rows(db)
        #expect(before == ["a 1 phone", "b 1 -", "c 2 laptop"])

        // Adding `expires: true`: an ADD COLUMN (no rebuild) and the index.
        let added = try #require(try workspace.evolve(to: Self.expiring, name: "expires"))
        #expect(added.contains(#"ALTER TABLE "Session" ADD COLUMN "expiresAt" TEXT;"#), "\(added)")
        #expect(added.contains(#"CREATE INDEX "Session_expiresAt" ON "Session" ("expiresAt");"#), "\(added)")
        #expect(!added.contains("new_Session"), "\(added)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try columns(db) == ["token", "userId", "device", "expiresAt"])
        #expect(try indexes(db) == ["Session_expiresAt"])
        #expect(try rows(db) == before)
        let expiresAt = try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM Session WHERE expiresAt IS NULL") }
        #expect(expiresAt == 3)  // existing rows never expire
        #expect(try workspace.evolve(to: Self.expiring, name: "again") == nil)

        // Rows with an expiry time, then removing `expires:`: the column and the index go, the
        // rows (expired or not) stay, and so do the rows that refer to them.
        try db.write { conn in
            try conn.execute(sql: "INSERT INTO Session (token, userId, device, expiresAt) VALUES ('d', 2, 'tv', '2000-01-01 00:00:00.000')")
            try conn.execute(sql: "UPDATE Session SET expiresAt = '2999-01-01 00:00:00.000' WHERE token = 'a'")
        }
        let withExpiry = try rows(db)
        let removed = try #require(try workspace.evolve(to: Self.plain, name: "noexpires", allowDestructive: true))
        #expect(removed.contains("expiresAt"), "\(removed)")
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try columns(db) == ["token", "userId", "device"])
        #expect(try indexes(db).isEmpty)
        #expect(try rows(db) == withExpiry)
        #expect(withExpiry.count == 4)
        let users = try db.read { conn in try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM User") }
        #expect(users == 2)
        let foreignKeyProblems = try db.read { conn in try conn.fetch(sql: "PRAGMA foreign_key_check").count }
        #expect(foreignKeyProblems == 0)
        #expect(try workspace.evolve(to: Self.plain, name: "again") == nil)
    }

    @Test func expiresOnANewTable() throws {
        let workspace = try MigrationWorkspace()
        let text = try #require(try workspace.evolve(to: Self.expiring, name: "initial"))
        #expect(text.contains(#""expiresAt" TEXT"#))
        #expect(text.contains(#"CREATE INDEX "Session_expiresAt""#))
        let db = try workspace.open()
        try workspace.migrate(db)
        try workspace.expectClean(db)
        #expect(try columns(db).last == "expiresAt")
    }
}
