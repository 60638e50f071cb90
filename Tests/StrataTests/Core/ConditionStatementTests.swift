import Foundation
import Testing

@testable import Strata

/// `RecordDAO`'s conditional methods find their prepared statement by comparing the parts of
/// the call (DAO type, method, condition, order, limit, offset), not by building and hashing
/// SQL text: these tests check that every part tells statements apart, that a repeated call
/// prepares nothing new, and that the list stays bounded.
@Suite struct ConditionStatementTests {
    struct Pair { var id: Int; var value: String }

    struct PairDAO: RecordDAO {
        let conn: Connection
        static let tableSQLName = "pairs"
        static let selectSQL = "SELECT id, value FROM pairs"
        static func decode(_ statement: Statement) throws -> Pair {
            Pair(id: statement.int(at: 0), value: statement.string(at: 1))
        }
    }

    /// The same columns in another table: only the DAO type tells its statements apart.
    struct OtherDAO: RecordDAO {
        let conn: Connection
        static let tableSQLName = "others"
        static let selectSQL = "SELECT id, value FROM others"
        static func decode(_ statement: Statement) throws -> Pair {
            Pair(id: statement.int(at: 0), value: statement.string(at: 1))
        }
    }

    func database() throws -> Database {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE pairs (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
            try conn.execute(sql: "CREATE TABLE others (id INTEGER PRIMARY KEY, value TEXT NOT NULL)")
            for id in 1...10 { try conn.execute(sql: "INSERT INTO pairs VALUES (?, ?)", arguments: [id, "p\(id)"]) }
            for id in 1...3 { try conn.execute(sql: "INSERT INTO others VALUES (?, ?)", arguments: [id, "o\(id)"]) }
        }
        return db
    }

    @Test func everyPartOfACallTellsStatementsApart() throws {
        let db = try database()
        try db.read { (conn: Connection) throws -> Void in
            let pairs = PairDAO(conn: conn), others = OtherDAO(conn: conn)
            let condition = "id <= ?"
            #expect(try pairs.fetchAll(where: condition, [5]).map(\.id) == [1, 2, 3, 4, 5])
            #expect(try others.fetchAll(where: condition, [5]).map(\.value) == ["o1", "o2", "o3"])
            #expect(try pairs.fetchAll(where: condition, [5], orderBy: "id DESC").map(\.id) == [5, 4, 3, 2, 1])
            #expect(try pairs.fetchAll(where: condition, [5], orderBy: "id DESC", limit: 2).map(\.id) == [5, 4])
            #expect(try pairs.fetchAll(where: condition, [5], orderBy: "id DESC", limit: 2, offset: 1).map(\.id) == [4, 3])
            #expect(try pairs.fetchAll(where: condition, [5], orderBy: "id DESC", limit: 3, offset: 1).map(\.id) == [4, 3, 2])
            #expect(try pairs.fetchAll(where: condition, [5], orderBy: "id DESC", offset: 3).map(\.id) == [2, 1])
            #expect(try pairs.fetchOne(where: condition, [5], orderBy: "id DESC")?.id == 5)
            #expect(try pairs.fetchOne(where: condition, [5])?.id == 1)
            #expect(try pairs.count(where: condition, [5]) == 5)
            #expect(try others.count(where: condition, [5]) == 3)
            #expect(try pairs.exists(where: condition, [0]) == false)
            #expect(try pairs.exists(where: condition, [1]))
            #expect(try pairs.fetchAll().count == 10)
            #expect(try others.fetchAll().count == 3)
            #expect(try pairs.count() == 10)
            // A condition built at run time, equal to a literal but stored elsewhere, finds the
            // same statement; a different one does not.
            let built = ["id", "<=", "?"].joined(separator: " ")
            let before = conn.conditionStatements.count
            #expect(try pairs.fetchAll(where: built, [2]).map(\.id) == [1, 2])
            #expect(conn.conditionStatements.count == before)
            #expect(try pairs.fetchAll(where: "id >= ?", [9]).map(\.id) == [9, 10])
            #expect(conn.conditionStatements.count == before + 1)
        }
    }

    @Test func aRepeatedCallPreparesNothingNew() throws {
        let db = try database()
        try db.read { (conn: Connection) throws -> Void in
            let pairs = PairDAO(conn: conn)
            _ = try pairs.fetchAll(where: "id = ?", [1])
            let prepared = conn.conditionStatements.count
            var total = 0
            for id in 1...1_000 { total += try pairs.fetchAll(where: "id = ?", [id % 10 + 1]).count }
            #expect(total == 1_000)
            #expect(conn.conditionStatements.count == prepared)
        }
    }

    /// Lookups compare the strings' bits first: long conditions built at run time (heap
    /// strings, each freed after its call, so a later one may get the same address) must still
    /// find only their own statement.
    @Test func longConditionsBuiltAtRunTimeFindTheirOwnStatement() throws {
        let db = try database()
        try db.read { (conn: Connection) throws -> Void in
            let pairs = PairDAO(conn: conn)
            for id in 1...(Connection.conditionStatementLimit + 20) {
                let condition = "id <= \(id) AND value IS NOT NULL AND length(value) > 0"
                #expect(try pairs.count(where: condition) == min(id, 10), "id \(id)")
                let again = "id <= \(id) AND value IS NOT NULL AND length(value) > 0"
                #expect(try pairs.fetchAll(where: again).count == min(id, 10), "id \(id)")
                #expect(try pairs.count(where: again) == min(id, 10), "id \(id)")
            }
        }
    }

    @Test func conditionsBuiltAtRunTimeStayBoundedAndCorrect() throws {
        let db = try database()
        try db.read { (conn: Connection) throws -> Void in
            let pairs = PairDAO(conn: conn)
            for round in 0..<3 {
                for id in 1...(Connection.conditionStatementLimit + 20) {
                    let expected = min(id, 10)
                    #expect(try pairs.count(where: "id <= \(id)") == expected, "round \(round), id \(id)")
                    #expect(conn.conditionStatements.count <= Connection.conditionStatementLimit)
                }
            }
        }
    }
}
