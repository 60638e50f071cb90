import Foundation
import Strata
import Testing

@Suite struct ConnectionTests {
    @Test func executeRunsEveryStatementAndBindsArguments() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(
                sql: """
                    CREATE TABLE a(id INTEGER PRIMARY KEY, name TEXT);
                    -- a comment between statements
                    INSERT INTO a(name) VALUES (?);
                    INSERT INTO a(name) VALUES (?);
                    """,
                arguments: ["one", "two"])
            #expect(conn.lastInsertedRowID == 2)
            try conn.execute(sql: "UPDATE a SET name = :name WHERE id >= :id", arguments: ["name": "x", "id": 1])
            #expect(conn.changes == 2)
        }
        let names = try db.read { conn in try conn.fetch(sql: "SELECT name FROM a").map { try $0.get(0, as: String.self) } }
        #expect(names == ["x", "x"])
    }

    @Test func argumentsAreNeverSplicedIntoSQL() throws {
        let db = try Database.inMemory()
        let hostile = "x'); DROP TABLE a; --"
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE a(name TEXT)")
            try conn.execute(sql: "INSERT INTO a(name) VALUES (?)", arguments: [hostile])
        }
        #expect(try db.read { try $0.fetchValue(String.self, sql: "SELECT name FROM a") } == hostile)
    }

    @Test func wrongArgumentCountsAreMisuse() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE a(x, y)")
            let tooFew = #expect(throws: StrataError.self) { try conn.execute(sql: "INSERT INTO a VALUES (?, ?)", arguments: [1]) }
            #expect(tooFew?.kind == .misuse)
            #expect(throws: StrataError.self) { try conn.execute(sql: "INSERT INTO a VALUES (?, ?)", arguments: [1, 2, 3]) }
            #expect(throws: StrataError.self) { try conn.fetch(sql: "SELECT * FROM a WHERE x = :x", arguments: ["y": 1]) }
        }
    }

    @Test func constraintErrorsSayWhichConstraint() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: """
                CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE, n INTEGER NOT NULL CHECK (n > 0));
                CREATE TABLE c(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES p(id));
                CREATE TABLE k(a TEXT PRIMARY KEY) STRICT;
                INSERT INTO p VALUES (1, 'a', 1);
                INSERT INTO k VALUES ('x');
                """)
        }
        func failure(_ sql: String) -> StrataError? {
            #expect(throws: StrataError.self) { try db.write { try $0.execute(sql: sql) } }
        }
        let unique = failure("INSERT INTO p VALUES (2, 'a', 1)")
        #expect(unique?.constraint == .unique)
        #expect(unique?.resultCode == 19)
        #expect(unique?.extendedResultCode == 2067)
        #expect(unique?.sql == "INSERT INTO p VALUES (2, 'a', 1)")
        #expect(unique?.message.contains("UNIQUE") == true)
        #expect(failure("INSERT INTO p VALUES (1, 'b', 1)")?.constraint == .primaryKey)
        #expect(failure("INSERT INTO k VALUES ('x')")?.constraint == .primaryKey)
        #expect(failure("INSERT INTO p VALUES (3, 'c', 0)")?.constraint == .check)
        #expect(failure("INSERT INTO p VALUES (3, 'c', NULL)")?.constraint == .notNull)
        #expect(failure("INSERT INTO c VALUES (1, 99)")?.constraint == .foreignKey)
        #expect(failure("SELEC 1")?.constraint == nil)
    }

    @Test func statementCacheReusesPreparedStatements() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            let first = try conn.cachedStatement(sql: "SELECT 1")
            let second = try conn.cachedStatement(sql: "SELECT 1")
            #expect(first === second)
            #expect(try first.step())
            #expect(first.int(at: 0) == 1)
        }
    }

    /// `withCachedStatement` lends the slot's statement without retaining it, reset; clearing the
    /// cache inside the body (a hook could) must not free it while the body runs.
    @Test func withCachedStatementLendsTheSlotStatementAndSurvivesClearingTheCache() throws {
        let insertSQL: CachedSQL = "INSERT INTO n VALUES (?)"
        let selectSQL: CachedSQL = "SELECT v FROM n ORDER BY v"
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE n(v INTEGER)")
            let kept = try conn.cachedStatement(insertSQL)
            try conn.withCachedStatement(insertSQL) { statement in
                #expect(statement === kept)
                try statement.bind(1, at: 1)
                try statement.run()
            }
            try conn.execute(sql: "INSERT INTO n VALUES (2)")
            // A read left on its first row is reset before it is lent again.
            let select = try conn.cachedStatement(selectSQL)
            #expect(try select.step())
            let first = try conn.withCachedStatement(selectSQL) { statement in
                try statement.step() ? statement.int(at: 0) : nil
            }
            #expect(first == 1)
            try conn.withCachedStatement(insertSQL) { statement in
                conn.clearStatementCache()
                try statement.bind(3, at: 1)
                try statement.run()
            }
            try conn.withCachedStatement(insertSQL) { statement in
                #expect(statement !== kept, "the cleared slot is prepared again")
                try statement.bind(4, at: 1)
                try statement.run()
            }
        }
        #expect(try db.read { conn in try conn.fetch(sql: "SELECT v FROM n ORDER BY v").map { try $0.get(0) as Int } } == [1, 2, 3, 4])
    }

    @Test func cursorIteratesWithoutLoadingEverything() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE n(v INTEGER)")
            let insert = try conn.cachedStatement(sql: "INSERT INTO n VALUES (?)")
            for i in 0..<1000 {
                insert.reset()
                try insert.bind(i, at: 1)
                try insert.run()
            }
        }
        let sum = try db.read { conn in
            let cursor = Cursor(statement: try conn.makeStatement(sql: "SELECT v FROM n")) { $0.int(at: 0) }
            var sum = 0
            try cursor.forEach { sum += $0 }
            #expect(try cursor.next() == nil)
            return sum
        }
        #expect(sum == 499_500)
    }
}
