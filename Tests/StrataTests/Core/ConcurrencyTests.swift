import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// A reader inside its transaction keeps seeing the snapshot it started with while a writer
    /// commits (WAL), and a new read sees the commit.
    @Test func readersSeeAConsistentSnapshotWhileAWriterCommits() throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("wal.sqlite"))
        try db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (1)") }
        let (before, after) = try db.read { conn -> (Int, Int) in
            let before = try conn.fetchValue(Int.self, sql: "SELECT sum(v) FROM t") ?? -1
            // A write commits while this read transaction is open (another thread would do the same).
            try db.write { try $0.execute(sql: "INSERT INTO t VALUES (10)") }
            let after = try conn.fetchValue(Int.self, sql: "SELECT sum(v) FROM t") ?? -1
            return (before, after)
        }
        #expect(before == 1)
        #expect(after == 1, "the open read transaction must not see the commit")
        #expect(try db.read { try $0.fetchValue(Int.self, sql: "SELECT sum(v) FROM t") } == 11)
    }

    /// Two threads (and two Database values on one file, like two processes) writing at once
    /// all succeed: no SQLITE_BUSY reaches the caller.
    @Test func concurrentWritersAllSucceed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("writers.sqlite")
        let first = try Database(path: path)
        try first.write { try $0.execute(sql: "CREATE TABLE t(thread INTEGER, i INTEGER)") }
        let second = try Database(path: path)
        let failures = Failures()
        let perThread = 200
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let db = thread % 2 == 0 ? first : second
            for i in 0..<perThread {
                do {
                    try db.write { conn in
                        // Writes are serialized: no other writer's row can appear between the
                        // count before and the count after this transaction's own insert.
                        let before = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t") ?? -1
                        try conn.execute(sql: "INSERT INTO t VALUES (?, ?)", arguments: [thread, i])
                        let after = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t") ?? -1
                        #expect(after == before + 1)
                        #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM t WHERE thread = ? AND i = ?", arguments: [thread, i]) == 1)
                    }
                } catch {
                    failures.record(error)
                }
            }
        }
        #expect(failures.errors.isEmpty, "\(failures.errors.prefix(3))")
        #expect(try first.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") } == 4 * perThread)
    }

    @Test func readersRunWhileAWriteIsInProgress() async throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("overlap.sqlite"))
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (1)") }
        let writerStarted = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let writer = Task.detached {
            try db.write { conn in
                try conn.execute(sql: "INSERT INTO t VALUES (2)")
                writerStarted.signal()
                // Hold the write transaction until the reader has finished.
                _ = readerDone.wait(timeout: .now() + 10)
            }
        }
        writerStarted.wait()
        let seen = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        readerDone.signal()
        try await writer.value
        #expect(seen == 1, "the read ran during the write and saw the last committed state")
        let final = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        #expect(final == 2)
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [any Error] = []
    func record(_ error: any Error) { lock.lock(); stored.append(error); lock.unlock() }
    var errors: [any Error] { lock.lock(); defer { lock.unlock() }; return stored }
}

@Suite struct AsyncStarvationTests {
    /// Many async writers waiting for the writer lock must not starve async readers: writes
    /// queue for the database's writer thread, reads run on its reader threads.
    @Test func manyWaitingAsyncWritersDoNotStarveReaders() async throws {
        let dir = try TemporaryDirectory()
        let db = try Database(path: dir.path("async.sqlite"))
        try await db.write { try $0.execute(sql: "CREATE TABLE t(v INTEGER)") }
        let gate = DispatchSemaphore(value: 0)
        let holding = DispatchSemaphore(value: 0)
        // One write holds the writer; sixteen more queue up behind it.
        let holder = Task { try await db.write { conn in
            try conn.execute(sql: "INSERT INTO t VALUES (0)")
            holding.signal()
            _ = gate.wait(timeout: .now() + 10)
        } }
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "wait").async { holding.wait(); continuation.resume() }
        }
        let waiting = (1...16).map { i in Task { try await db.write { try $0.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i]) } } }
        try await Task.sleep(nanoseconds: 100_000_000)
        // A read still runs while all of them wait.
        let seen = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        gate.signal()
        try await holder.value
        for task in waiting { try await task.value }
        #expect(seen == 0)
        let final = try await db.read { try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM t") }
        #expect(final == 17)
    }
}
