import Foundation
import Synchronization
import Testing

@testable import Strata

/// `RecordDAO`'s reads on a DAO with `expiresAtSQLName` (what `expires: true` generates),
/// written by hand so the runtime is tested on its own: the `:strata_now` parameter is bound
/// from the configuration's clock on every call, around the caller's positional or named
/// arguments, and writes see every row.
@Suite struct ExpiringRecordDAOTests {
    struct Token { var id: Int; var owner: String }

    struct TokenDAO: RecordDAO {
        let conn: Connection
        static let tableSQLName = "tokens"
        static let selectSQL = "SELECT id, owner FROM tokens"
        static let expiresAtSQLName: String? = "\"expiresAt\""
        static func decode(_ statement: Statement) throws -> Token {
            Token(id: statement.int(at: 0), owner: statement.string(at: 1))
        }
    }

    /// Seconds past the start, set by the test.
    final class Clock: Sendable {
        let elapsed = Mutex<TimeInterval>(0)
        func set(_ seconds: TimeInterval) { elapsed.withLock { $0 = seconds } }
    }

    /// Tokens 1…6: odd ones expire at 10 s past the start, 2 and 4 at 20 s, 6 never.
    static func database(_ clock: Clock) throws -> Database {
        let start = Date(timeIntervalSince1970: 1_000_000)
        var configuration = Database.Configuration()
        configuration.now = { start.addingTimeInterval(clock.elapsed.withLock { $0 }) }
        let db = try Database.inMemory(configuration: configuration)
        try db.write { conn throws in
            try conn.execute(sql: "CREATE TABLE tokens (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, expiresAt TEXT) STRICT")
            for id in 1...6 {
                let expiresAt: Date? = id == 6 ? nil : start.addingTimeInterval(id % 2 == 1 ? 10 : 20)
                try conn.execute(sql: "INSERT INTO tokens VALUES (?, ?, ?)", arguments: [id, id <= 3 ? "ann" : "bob", expiresAt])
            }
        }
        return db
    }

    @Test func readsBindTheClockAroundTheCallersArguments() throws {
        let clock = Clock()
        let db = try Self.database(clock)
        func ids(_ tokens: [Token]) -> [Int] { tokens.map(\.id) }
        try db.read { conn throws in
            #expect(ids(try TokenDAO(conn: conn).fetchAll(orderBy: "id")) == [1, 2, 3, 4, 5, 6])
        }
        clock.set(10)
        try db.read { conn throws in
            let dao = TokenDAO(conn: conn)
            #expect(ids(try dao.fetchAll(orderBy: "id")) == [2, 4, 6])
            #expect(ids(try dao.fetchAll(where: "owner = ? AND id > ?", ["bob", 3], orderBy: "id DESC", limit: 2, offset: 1)) == [4])
            #expect(ids(try dao.fetchAll(where: "owner = :owner -- a comment", ["owner": "ann"])) == [2])
            #expect(try dao.fetchOne(where: "id = ?", [1]) == nil)
            #expect(try dao.count() == 3)
            #expect(try dao.count(where: "owner = :owner", [":owner": "bob"]) == 2)
            #expect(try dao.exists(where: "id = ?", [3]) == false)
            let cursor = try dao.cursor(where: "owner = ?", ["bob"], orderBy: "id")
            var seen: [Int] = []
            while let token = try cursor.next() { seen.append(token.id) }
            #expect(seen == [4, 6])
        }
        clock.set(20)
        #expect(try db.read { conn in try TokenDAO(conn: conn).count() } == 1)
        // Writes see expired rows.
        try db.write { conn throws in
            #expect(try TokenDAO(conn: conn).updateAll(set: "expiresAt = NULL", where: "id IN (?, ?)", [1, 2]) == 2)
            #expect(ids(try TokenDAO(conn: conn).fetchAll(orderBy: "id")) == [1, 2, 6])
            #expect(try TokenDAO(conn: conn).deleteAll(where: "expiresAt IS NOT NULL") == 3)
        }
    }

    @Test func argumentMistakesCountTheCallersParametersOnly() throws {
        let db = try Self.database(Clock())
        try db.read { conn throws in
            let dao = TokenDAO(conn: conn)
            let missing = #expect(throws: StrataError.self) { try dao.fetchAll(where: "id = ? OR id = ?", [1]) }
            #expect(missing?.message.contains("the statement has 2 parameters but 1 argument was given") == true, "\(String(describing: missing))")
            let unknown = #expect(throws: StrataError.self) { try dao.count(where: "id = :id", ["id": 1, "other": 2]) }
            #expect(unknown?.message.contains("the named argument :other matches no parameter (the statement has 1 parameter") == true,
                    "\(String(describing: unknown))")
            let unbound = #expect(throws: StrataError.self) { try dao.exists(where: "id = :id", ["other": 2]) }
            #expect(unbound?.message.contains("the parameter :id has no argument (the statement has 1 parameter") == true,
                    "\(String(describing: unbound))")
        }
    }
}
