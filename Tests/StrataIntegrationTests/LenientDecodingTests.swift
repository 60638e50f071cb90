import Foundation
import Strata
import Testing

/// Issue 14: a table that is not STRICT can hold values of any type in any column; reading
/// one that is not what the column declares is a decoding error naming the table, the column
/// and the value, never a silent 0 or a truncated number.
@Suite struct LenientDecodingTests {
    static func withEdge(_ body: (Database) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("strata-lenient-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try Database(path: dir.appendingPathComponent("edge.sqlite").path)
        try Edge.migrate(db)
        try body(db)
    }

    static func expectDecodingError(_ mentioning: [String], _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected a decoding error mentioning \(mentioning)", sourceLocation: sourceLocation)
        } catch let error as StrataError {
            #expect(error.kind == .decoding, "\(error)", sourceLocation: sourceLocation)
            for text in mentioning {
                #expect(error.description.contains(text), "\(error) should mention \(text)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func valuesOfTheWrongTypeThrow() throws {
        try Self.withEdge { db in
            try db.write { conn throws in
                let node = try NodeDAO(conn).insert(Node(default: "n"))
                for (stored, shown) in [("'abc'", "'abc'"), ("'12abc'", "'12abc'"), ("3.9", "3.9"), ("x'01'", "blob")] {
                    try conn.execute(sql: "UPDATE \"node table\" SET \"order\" = \(stored) WHERE id = ?", arguments: [node.id])
                    Self.expectDecodingError(["node table", "order", shown]) { _ = try NodeDAO(conn).find(id: node.id) }
                    Self.expectDecodingError(["node table", "order"]) { _ = try NodeDAO(conn).fetchAll() }
                }
                // SQLite's own lossless conversions stay.
                try conn.execute(sql: "UPDATE \"node table\" SET \"order\" = '42' WHERE id = ?", arguments: [node.id])
                #expect(try NodeDAO(conn).find(id: node.id)?.order == 42)
                try conn.execute(sql: "UPDATE \"node table\" SET \"order\" = 3.0 WHERE id = ?", arguments: [node.id])
                #expect(try NodeDAO(conn).find(id: node.id)?.order == 3)

                try conn.execute(sql: "UPDATE \"node table\" SET \"order\" = 1, \"protocol\" = x'00ff' WHERE id = ?", arguments: [node.id])
                Self.expectDecodingError(["node table", "protocol", "blob"]) { _ = try NodeDAO(conn).find(id: node.id) }
                try conn.execute(sql: "UPDATE \"node table\" SET \"protocol\" = NULL, \"default value\" = x'00ff' WHERE id = ?", arguments: [node.id])
                Self.expectDecodingError(["node table", "default value", "blob"]) { _ = try NodeDAO(conn).find(id: node.id) }
                try conn.execute(sql: "UPDATE \"node table\" SET \"default value\" = 'n' WHERE id = ?", arguments: [node.id])
            }
            // An optional integer column holding text (foreign keys off to let it in).
            try db.writeWithoutTransaction { conn throws in
                try conn.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? conn.execute(sql: "PRAGMA foreign_keys = ON") }
                try conn.execute(sql: "UPDATE \"node table\" SET \"parentId\" = 'abc'")
            }
            try db.read { conn throws in
                Self.expectDecodingError(["node table", "parentId", "'abc'"]) { _ = try NodeDAO(conn).fetchAll() }
            }
        }
    }

    @Test func aNullWhereTheRecordDeclaresNoneThrows() throws {
        try Self.withEdge { db in
            try db.write { conn throws in
                // A column that lost its NOT NULL by hand: SQLite no longer enforces it.
                try conn.execute(sql: """
                    CREATE TABLE loose (key TEXT, value TEXT, flag INTEGER);
                    INSERT INTO loose VALUES ('k', NULL, 0), ('j', 'v', 'yes');
                    """)
                let rows = try conn.makeStatement(sql: "SELECT key, value, flag FROM loose ORDER BY key DESC")
                #expect(try rows.step())
                Self.expectDecodingError(["loose", "value", "NULL"]) { _ = try rows.convertedString(at: 1, table: "loose", column: "value") }
                #expect(try rows.step())
                Self.expectDecodingError(["loose", "flag", "'yes'"]) { _ = try rows.convertedBool(at: 2, table: "loose", column: "flag") }
                #expect(try rows.convertedString(at: 1, table: "loose", column: "value") == "v")
            }
        }
    }
}
