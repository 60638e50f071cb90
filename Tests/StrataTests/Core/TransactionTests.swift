import Foundation
import Strata
import StrataTestSupport
import Testing

struct Boom: Error {}

@Suite struct TransactionTests {
    @Test func throwingWriteLeavesNoTrace() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("tx.sqlite"))
        try db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (1)") }
        #expect(throws: Boom.self) {
            try db.write { conn in
                try conn.execute(sql: "INSERT INTO t VALUES (2)")
                try conn.execute(sql: "CREATE TABLE other(x)")
                throw Boom()
            }
        }
        try db.read { conn throws in
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t") == 1)
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'other'") == 0)
        }
        // The writer is usable afterwards.
        try db.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 2)
    }

    @Test func savepointsRollBackAlone() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE t(v INTEGER)")
            try conn.execute(sql: "INSERT INTO t VALUES (1)")
            do {
                try conn.savepoint {
                    try conn.execute(sql: "INSERT INTO t VALUES (2)")
                    throw Boom()
                }
                Issue.record("the savepoint should have thrown")
            } catch is Boom {}
            try conn.savepoint {
                try conn.execute(sql: "INSERT INTO t VALUES (3)")
                do {
                    try conn.savepoint {
                        try conn.execute(sql: "INSERT INTO t VALUES (4)")
                        throw Boom()
                    }
                    Issue.record("the inner savepoint should have thrown")
                } catch is Boom {}
            }
        }
        let values = try db.read { conn in try conn.fetch(sql: "SELECT v FROM t ORDER BY v").map { try $0.get(0, as: Int.self) } }
        #expect(values == [1, 3])
    }

    @Test func nestedWriteIsAClearErrorNotADeadlock() throws {
        let db = try Database.inMemory()
        let error = #expect(throws: StrataError.self) {
            try db.write { _ in try db.write { _ in } }
        }
        #expect(error?.kind == .misuse)
    }

    @Test func readOnlyDatabaseRefusesWrites() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ro.sqlite")
        do {
            let db = try Database(path: path)
            try db.write { try $0.execute(sql: "CREATE TABLE t(v); INSERT INTO t VALUES (7)") }
        }
        let readOnly = try Database(path: path, configuration: .readOnly)
        #expect(try readOnly.read { try $0.fetchValue(Int.self, sql: "SELECT v FROM t") } == 7)
        #expect(throws: StrataError.self) { try readOnly.write { _ in } }
        #expect(throws: StrataError.self) { try readOnly.read { try $0.execute(sql: "INSERT INTO t VALUES (8)") } }
        #expect(throws: StrataError.self) { try Database(path: dir.path("missing.sqlite"), configuration: .readOnly) }
    }

    @Test func foreignKeysAreOn() throws {
        let db = try Database.inMemory()
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1)
        let dir = try TemporaryDirectory()
        let file = try Database(path: dir.path("fk.sqlite"))
        #expect(try file.read { try $0.fetchValue(Int.self, sql: "PRAGMA foreign_keys") } == 1)
        #expect(try file.read { try $0.fetchValue(String.self, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func asyncReadAndWrite() async throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("async.sqlite"))
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<20 {
                group.addTask { try await db.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) } }
            }
            try await group.waitForAll()
        }
        let count = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") ?? -1 }
        #expect(count == 20)
    }
}
