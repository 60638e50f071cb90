import Foundation
import Strata
import StrataTestSupport
import Testing

/// A hand-written DAO over `person(id, name)`, as generated code would write it.
private struct PersonDAO: RecordDAO {
    struct Person: Equatable { var id: Int; var name: String }
    let conn: Connection
    init(_ conn: Connection) { self.conn = conn }
    static let tableSQLName = "person"
    static let selectSQL = "SELECT id, name FROM person"
    static func decode(_ statement: Statement) throws -> Person {
        Person(id: statement.int(at: 0), name: statement.string(at: 1))
    }
}

private func people() throws -> Database {
    let db = try Database.inMemory()
    try db.write { conn throws in
        try conn.execute(sql: "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        try conn.execute(sql: "INSERT INTO person(name) VALUES ('Ann'), ('Bob'), ('Cid')")
    }
    return db
}

private func expectMisuse(_ mentioning: [String], _ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        try body()
        Issue.record("expected a misuse error", sourceLocation: sourceLocation)
    } catch let error as StrataError {
        #expect(error.kind == .misuse, "\(error)", sourceLocation: sourceLocation)
        for text in mentioning {
            #expect(error.description.contains(text), "\(error) should mention \(text)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
}

/// Issue 14: paths that used to return a wrong answer without an error.
@Suite struct BindingTests {
    @Test func aReusedDAOStatementNeverKeepsTheLastArguments() throws {
        let db = try people()
        try db.read { conn throws in
            let dao = PersonDAO(conn)
            #expect(try dao.fetchAll(where: "name = ?", ["Bob"]).map(\.name) == ["Bob"])
            expectMisuse(["name = ?", "1 parameter", "0 arguments"]) { _ = try dao.fetchAll(where: "name = ?") }
            expectMisuse(["name = ?"]) { _ = try dao.fetchOne(where: "name = ?") }
            expectMisuse(["name = ?"]) { _ = try dao.count(where: "name = ?") }
            expectMisuse(["name = ?"]) { _ = try dao.exists(where: "name = ?") }
            expectMisuse(["name = ?"]) { _ = try dao.cursor(where: "name = ?") }
            #expect(try dao.count(where: "name = ?", ["Bob"]) == 1)
            #expect(try dao.exists(where: "name = ?", ["Bob"]))
        }
    }

    @Test func extraAndUnboundArgumentsAreErrors() throws {
        let db = try people()
        try db.write { conn throws in
            let dao = PersonDAO(conn)
            expectMisuse(["0 parameters", "1 argument"]) { _ = try dao.fetchAll(where: "id > 0", [1]) }
            expectMisuse(["2 parameters", "1 argument"]) { _ = try dao.count(where: "id > ? AND id < ?", [1]) }
            expectMisuse([":missing"]) { _ = try dao.fetchAll(where: "name = :name OR name = :missing", ["name": "Ann"]) }
            expectMisuse([":extra", "SELECT 1 WHERE 1 = :one"]) { _ = try conn.fetch(sql: "SELECT 1 WHERE 1 = :one", arguments: ["one": 1, "extra": 2]) }
            expectMisuse([":extra"]) { _ = try dao.fetchAll(where: "id > 0", ["extra": 1]) }
            expectMisuse([":extra"]) { try conn.execute(sql: "UPDATE person SET name = :name WHERE id = 1", arguments: ["name": "x", "extra": 2]) }
            expectMisuse(["1 parameter", "0 arguments"]) { try dao.updateAll(set: "name = ?", where: "id = 1") }
            expectMisuse(["1 parameter"]) { try dao.deleteAll(where: "id = ?") }
            expectMisuse(["1 parameter", "0 arguments"]) { _ = try conn.fetchOne(sql: "SELECT ?") }
        }
        #expect(try db.read { conn in try PersonDAO(conn).fetchAll(orderBy: "id").map(\.name) } == ["Ann", "Bob", "Cid"])
    }

    @Test func aCachedStatementIsClearedOnReuse() throws {
        let db = try people()
        try db.read { conn throws in
            let first = try conn.cachedStatement(sql: "SELECT ?")
            try first.bind("stale", at: 1)
            #expect(try first.step())
            let again = try conn.cachedStatement(sql: "SELECT ?")
            #expect(try again.step())
            #expect(again.isNull(at: 0), "a parameter not bound again reads NULL, never the previous value")
        }
    }
}

@Suite struct TrailingSQLTests {
    @Test func fetchRefusesTrailingStatementsBeforeRunningAnything() throws {
        let db = try people()
        try db.write { conn throws in
            expectMisuse(["DROP TABLE person"]) { _ = try conn.fetch(sql: "SELECT 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try conn.fetchOne(sql: "SELECT 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try conn.fetchValue(Int.self, sql: "SELECT 1;DROP TABLE person") }
            expectMisuse(["DELETE"]) { _ = try conn.makeStatement(sql: "SELECT 1; DELETE FROM person") }
            expectMisuse(["garbage"]) { _ = try conn.fetch(sql: "SELECT 1; garbage") }
            // Comments, whitespace and semicolons after the one statement are fine.
            #expect(try conn.fetchValue(Int.self, sql: "SELECT 1; -- the end\n  /* really */ ;\n") == 1)
            #expect(try conn.fetch(sql: "SELECT 2;").count == 1)
        }
        #expect(try db.read { conn in try PersonDAO(conn).count() } == 3)
    }

    @Test func daoConditionsAreOneStatement() throws {
        let db = try people()
        try db.write { conn throws in
            let dao = PersonDAO(conn)
            expectMisuse(["DROP TABLE person"]) { _ = try dao.fetchAll(where: "id = 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try dao.fetchOne(where: "id = 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try dao.count(where: "id = 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try dao.exists(where: "id = 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { _ = try dao.cursor(where: "id = 1; DROP TABLE person") }
            expectMisuse(["DROP TABLE person"]) { try dao.deleteAll(where: "id = -1; DROP TABLE person") }
            expectMisuse(["DELETE FROM person"]) { try dao.updateAll(set: "name = 'x'", where: "id = 1; DELETE FROM person") }
            expectMisuse(["DELETE FROM person"]) { try dao.updateAll(set: "name = 'x'; DELETE FROM person") }
            // A comment in a condition ends at the condition: ORDER BY and LIMIT still apply.
            #expect(try dao.fetchAll(where: "id > 1 -- not the first", orderBy: "id DESC", limit: 1).map(\.name) == ["Cid"])
            #expect(try dao.fetchAll(orderBy: "id DESC -- newest first", limit: 1).map(\.name) == ["Cid"])
        }
        try db.read { conn throws in
            #expect(try PersonDAO(conn).fetchAll(orderBy: "id").map(\.name) == ["Ann", "Bob", "Cid"])
        }
    }

    @Test func executeStillRunsSeveralStatements() throws {
        let db = try people()
        try db.write { conn throws in
            try conn.execute(sql: "UPDATE person SET name = 'A' WHERE id = 1; UPDATE person SET name = ? WHERE id = 2;", arguments: ["B"])
        }
        #expect(try db.read { conn in try PersonDAO(conn).fetchAll(orderBy: "id").map(\.name) } == ["A", "B", "Cid"])
    }
}

@Suite struct DoubleQuotedStringTests {
    @Test func anUnknownQuotedIdentifierIsAnErrorNotAString() throws {
        let db = try people()
        try db.read { conn throws in
            do {
                _ = try PersonDAO(conn).fetchAll(where: #""nmae" = 'Ann'"#)
                Issue.record("a misspelled quoted column compared as a string constant")
            } catch let error as StrataError {
                #expect(error.message.contains("nmae"), "\(error)")
            }
            #expect(throws: StrataError.self) { try conn.fetch(sql: #"SELECT "nothing""#) }
            #expect(try conn.fetchValue(String.self, sql: #"SELECT "name" FROM person WHERE id = 1"#) == "Ann")
        }
        #expect(throws: StrataError.self) {
            try db.write { conn in try conn.execute(sql: #"CREATE TABLE t(a TEXT CHECK (a <> "nothing"))"#) }
        }
        #expect(throws: StrataError.self) {
            try db.write { conn in try conn.execute(sql: #"CREATE INDEX i ON person(name) WHERE "nmae" IS NOT NULL"#) }
        }
    }

    @Test func fileDatabasesAndReadersToo() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("dqs.sqlite")
        let db = try Database(path: path)
        try db.write { conn in try conn.execute(sql: "CREATE TABLE t(a TEXT)") }
        #expect(throws: StrataError.self) { try db.read { conn in try conn.fetch(sql: #"SELECT * FROM t WHERE "b" = 1"#) } }
        #expect(throws: StrataError.self) { try db.write { conn in try conn.fetch(sql: #"SELECT * FROM t WHERE "b" = 1"#) } }
        let readOnly = try Database(path: path, configuration: .readOnly)
        #expect(throws: StrataError.self) { try readOnly.read { conn in try conn.fetch(sql: #"SELECT * FROM t WHERE "b" = 1"#) } }
    }
}

/// Waits for a semaphore off the cooperative pool.
private func waitFor(_ semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { semaphore.wait(); continuation.resume() }
    }
}


/// A query that runs for many seconds (minutes on a slow machine) unless interrupted.
private let slowQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c"

@Suite(.serialized, .timeLimit(.minutes(10))) struct CancellationTests {
    @Test func cancellingAnAsyncReadInterruptsItsStatement() async throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("cancel.sqlite"))
        let started = DispatchSemaphore(value: 0)
        let task = Task { try await db.read { conn -> Int? in
            started.signal()
            return try conn.fetchValue(Int.self, sql: slowQuery)
        } }
        await waitFor(started)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        // Every connection is usable afterwards, again and again.
        for _ in 0..<8 {
            #expect(try await db.read { try $0.fetchValue(Int.self, sql: "SELECT 1") } == 1)
        }
        let two = try await db.read { conn throws in try conn.fetchValue(Int.self, sql: "SELECT 2") }
        #expect(two == 2)
    }

    @Test func cancellingAnAsyncWriteInterruptsAndRollsBack() async throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("cancel.sqlite"))
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        let started = DispatchSemaphore(value: 0)
        let task = Task { try await db.write { conn throws in
            try conn.execute(sql: "INSERT INTO t VALUES (1)")
            started.signal()
            try conn.execute(sql: "INSERT INTO t " + slowQuery)
        } }
        await waitFor(started)
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
        try await db.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        let sum = try await db.read { conn throws in try conn.fetchValue(Int.self, sql: "SELECT sum(v) FROM t") }
        #expect(sum == 2)
    }

    @Test func aWriteCancelledBetweenStatementsDoesNotCommit() async throws {
        let db = try Database.inMemory()
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let task = Task { try await db.write { conn throws in
            try conn.execute(sql: "INSERT INTO t VALUES (1)")
            started.signal()
            _ = gate.wait(timeout: .now() + 30)
        } }
        await waitFor(started)
        task.cancel()
        gate.signal()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 0)
    }

    @Test func aCancellationBetweenStatementsStopsTheNextLongOne() async throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("cancel.sqlite"))
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let task = Task { try await db.read { conn -> Int? in
            started.signal()
            _ = gate.wait(timeout: .now() + 30)
            // The cancellation came while no statement ran: this one must not run to its end.
            return try conn.fetchValue(Int.self, sql: slowQuery)
        } }
        await waitFor(started)
        task.cancel()
        gate.signal()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try await db.read { try $0.fetchValue(Int.self, sql: "SELECT 1") } == 1)
    }

    @Test func aQueuedCallCancelledReturnsWithoutWaitingItsTurn() async throws {
        let db = try Database.inMemory()
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let released = Locked(false)
        let ran = Locked(false)
        let holder = Task { try await db.write { _ in
            started.signal()
            _ = gate.wait(timeout: .now() + 20)
        } }
        await waitFor(started)
        let queued = Task { try await db.write { _ in ran.withLock { $0 = true } } }
        try await Task.sleep(nanoseconds: 20_000_000)
        queued.cancel()
        let result = await queued.result
        #expect(released.withLock { $0 } == false, "the cancelled call returned while the writer was still busy")
        #expect(throws: CancellationError.self) { try result.get() }
        released.withLock { $0 = true }
        gate.signal()
        try await holder.value
        #expect(ran.withLock { $0 } == false)
    }

    /// Cancellations landing at every moment (queued, starting, mid-statement, committing):
    /// every call ends, nothing half-written stays, every connection stays usable.
    @Test func cancellationsAtRandomMomentsLeaveEverythingUsable() async throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("cancel.sqlite"))
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        var committed = 0
        for round in 0..<60 {
            let write = Task { try await db.write { conn in
                try conn.execute(sql: "INSERT INTO t VALUES (1)")
                if round % 2 == 0 { try conn.execute(sql: "INSERT INTO t " + slowQuery) }
            } }
            let read = Task { try await db.read { conn in try conn.fetchValue(Int.self, sql: slowQuery) } }
            try await Task.sleep(nanoseconds: UInt64(round % 5) * 500_000)
            write.cancel()
            read.cancel()
            switch await write.result {
            case .success: committed += 1
            case .failure(let error): #expect(error is CancellationError, "\(error)")
            }
            let readResult = await read.result
            #expect(throws: CancellationError.self) { try readResult.get() }
            let rows = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
            #expect(rows == committed, "round \(round): a cancelled write left rows behind")
        }
    }

    @Test func aCallCancelledBeforeItStartsDoesNotRun() async throws {
        let db = try Database.inMemory()
        let ran = Locked(false)
        let task = Task {
            try? await Task.sleep(nanoseconds: 50_000_000)
            return try await db.write { _ in ran.withLock { $0 = true } }
        }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ran.withLock { $0 } == false)
    }
}

@Suite(.serialized) struct AsyncThreadTests {
    static func threadCount() -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    }

    /// 1,000 concurrent async calls run on at most `maximumReaderCount + 1` threads.
    @Test func asyncCallsRunOnABoundedSetOfThreads() async throws {
        let directory = try TemporaryDirectory()
        var configuration = Database.Configuration()
        configuration.maximumReaderCount = 4
        let db = try Database(path: directory.path("threads.sqlite"), configuration: configuration)
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        let baseline = Self.threadCount()
        let seen = Locked(Set<String>())
        let peak = Locked(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                group.addTask {
                    let record: @Sendable () -> Void = {
                        let count = Self.threadCount() ?? 0
                        peak.withLock { $0 = max($0, count) }
                        seen.withLock { _ = $0.insert("\(pthread_self())") }
                        usleep(1_000)
                    }
                    if index % 10 == 0 {
                        try await db.write { conn in record(); try conn.execute(sql: "INSERT INTO t VALUES (?)", arguments: [index]) }
                    } else {
                        _ = try await db.read { conn in record(); return try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
                    }
                }
            }
            try await group.waitForAll()
        }
        let threads = seen.withLock { $0.count }
        print("FIGURE async threads: 1,000 concurrent calls ran on \(threads) threads; process threads \(baseline ?? -1) before, \(peak.withLock { $0 }) at peak")
        #expect(threads <= configuration.maximumReaderCount + 1, "async calls ran on \(threads) threads")
        // The process's own thread count is printed, not asserted: other suites run in this
        // process at the same time and start threads of their own (observation, stress tests).
        #expect(try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 100)
    }
}
