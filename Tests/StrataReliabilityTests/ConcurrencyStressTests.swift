import Foundation
import Strata
import StrataTestSupport
import Testing

/// Writers (threads on two `Database` values of one file, plus a second process) and readers
/// (async tasks) hammer one database for a bounded time. Every write transaction inserts
/// exactly 10 events and moves money between two accounts, so a reader that ever saw a count
/// that is not a multiple of 10, or a total balance other than the initial one, saw a state
/// nobody committed.
@Suite(.serialized) struct ConcurrencyStressTests {
    static let accounts = 10
    static let total = 10_000

    struct Tally: Sendable {
        var batches = 0
        var reads = 0
        var violations: [String] = []
        var errors: [String] = []
    }

    static func writerLoop(_ db: Database, writer: Int, until deadline: Date, seed: UInt64, tally: Locked<Tally>) {
        var random = SeededGenerator(state: seed)
        var batches = 0
        while Date() < deadline {
            let from = Int.random(in: 1...accounts, using: &random)
            let to = Int.random(in: 1...accounts, using: &random)
            let amount = Int.random(in: 1...50, using: &random)
            do {
                try db.write { conn throws in
                    for i in 0..<10 {
                        try conn.execute(sql: "INSERT INTO event (writer, batch, i) VALUES (?, ?, ?)", arguments: [writer, batches, i])
                    }
                    try conn.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = ?", arguments: [amount, from])
                    try conn.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = ?", arguments: [amount, to])
                }
                batches += 1
            } catch {
                tally.withLock { $0.errors.append("writer \(writer): \(error)") }
            }
        }
        tally.withLock { $0.batches += batches }
    }

    /// One read: the event count, the total balance, and whether every batch is whole.
    static func observe(_ conn: Connection) throws -> (count: Int, balance: Int, whole: Bool) {
        let count = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM event") ?? -1
        let balance = try conn.fetchValue(Int.self, sql: "SELECT sum(balance) FROM account") ?? -1
        // Every writer's events come in whole batches too.
        let torn = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM (SELECT writer, batch FROM event GROUP BY writer, batch HAVING count(*) <> 10)") ?? -1
        return (count, balance, torn == 0)
    }

    struct ReaderState {
        var last = 0
        var reads = 0
        mutating func record(_ seen: (count: Int, balance: Int, whole: Bool), reader: Int, tally: Locked<Tally>) {
            reads += 1
            if seen.count % 10 != 0 || seen.balance != total || !seen.whole || seen.count < last {
                tally.withLock { $0.violations.append("reader \(reader): count \(seen.count) (previous \(last)), balance \(seen.balance), whole batches \(seen.whole)") }
            }
            last = seen.count
        }
    }

    /// A reader on a thread of its own, with the synchronous API.
    static func readerLoop(_ db: Database, reader: Int, until deadline: Date, tally: Locked<Tally>) {
        var state = ReaderState()
        while Date() < deadline {
            do {
                state.record(try db.read { try observe($0) }, reader: reader, tally: tally)
            } catch {
                tally.withLock { $0.errors.append("reader \(reader): \(error)") }
            }
        }
        tally.withLock { $0.reads += state.reads }
    }

    /// A reader task, with the async API.
    static func asyncReaderLoop(_ db: Database, reader: Int, until deadline: Date, tally: Locked<Tally>) async {
        var state = ReaderState()
        while Date() < deadline {
            do {
                state.record(try await db.read { try observe($0) }, reader: reader, tally: tally)
            } catch {
                tally.withLock { $0.errors.append("reader \(reader): \(error)") }
            }
        }
        tally.withLock { $0.reads += state.reads }
    }

    /// Runs `body` on a new thread, inside `group`.
    static func thread(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.start()
    }

    /// A second process: the `sqlite3` shell writing `batches` transactions of the same shape,
    /// waiting for locks up to 10 s (`.timeout`), stopping at the first error (`-bail`).
    static func otherProcessScript(batches: Int, writer: Int, seed: UInt64) -> String {
        var random = SeededGenerator(state: seed)
        var script = ".timeout 10000\n"
        for batch in 0..<batches {
            let from = Int.random(in: 1...accounts, using: &random)
            let to = Int.random(in: 1...accounts, using: &random)
            script += "BEGIN IMMEDIATE;\n"
            script += "INSERT INTO event (writer, batch, i) VALUES " + (0..<10).map { "(\(writer), \(batch), \($0))" }.joined(separator: ", ") + ";\n"
            script += "UPDATE account SET balance = balance - 7 WHERE id = \(from);\nUPDATE account SET balance = balance + 7 WHERE id = \(to);\nCOMMIT;\n"
        }
        return script
    }

    @Test(.timeLimit(.minutes(10))) func writersAndReadersNeverSeeATornState() async throws {
        let seconds = Double(Reliability.size("STRATA_STRESS_SECONDS", fast: 2, long: 30))
        let readerCount = 6
        let threadReaders = 4
        let dir = try TemporaryDirectory()
        let path = dir.path("stress.sqlite")
        let first = try Database(path: path)
        try await first.write { conn throws in
            try conn.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)")
            try conn.execute(sql: "CREATE TABLE event (id INTEGER PRIMARY KEY, writer INTEGER NOT NULL, batch INTEGER NOT NULL, i INTEGER NOT NULL)")
            for id in 1...Self.accounts {
                try conn.execute(sql: "INSERT INTO account (id, balance) VALUES (?, ?)", arguments: [id, Self.total / Self.accounts])
            }
        }
        // A second Database on the same file: its own writer connection and reader pool, as
        // another process would have.
        let second = try Database(path: path)
        let tally = Locked(Tally())

        // The other process, when the sqlite3 shell is installed.
        let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let processBatches = Int(seconds) * 150
        var shell: Process?
        if let sqlite3 {
            let script = dir.url.appendingPathComponent("writer.sql")
            try Data(Self.otherProcessScript(batches: processBatches, writer: 99, seed: 99).utf8).write(to: script)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: sqlite3)
            process.arguments = ["-bail", path]
            process.standardInput = try FileHandle(forReadingFrom: script)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            shell = process
        }

        let deadline = Date().addingTimeInterval(seconds)
        // Writers and readers get threads of their own: on Linux the global dispatch queues
        // have as many threads as cores, and the test runner's task pool is busy with other tests.
        let threads = DispatchGroup()
        let writerCount = 3
        for writer in 0..<writerCount {
            let db = writer % 2 == 0 ? first : second
            Self.thread(threads) {
                Self.writerLoop(db, writer: writer, until: deadline, seed: UInt64(writer + 1), tally: tally)
            }
        }
        for reader in 0..<threadReaders {
            let db = reader % 3 == 2 ? second : first
            Self.thread(threads) {
                Self.readerLoop(db, reader: reader, until: deadline, tally: tally)
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for reader in threadReaders..<readerCount {
                let db = reader % 2 == 0 ? second : first
                group.addTask { await Self.asyncReaderLoop(db, reader: reader, until: deadline, tally: tally) }
            }
        }
        threads.wait()
        var processCommitted = 0
        if let shell {
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0, "the sqlite3 process failed")
            processCommitted = shell.terminationStatus == 0 ? processBatches : 0
        }

        let result = tally.withLock { $0 }
        #expect(result.errors.isEmpty, "\(result.errors.prefix(5))")
        #expect(result.violations.isEmpty, "\(result.violations.prefix(5))")
        #expect(result.batches > 0 && result.reads > readerCount)
        let (events, balance, integrity, processEvents) = try await first.read { conn throws in
            (
                try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM event") ?? -1,
                try conn.fetchValue(Int.self, sql: "SELECT sum(balance) FROM account") ?? -1,
                try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") ?? "",
                try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM event WHERE writer = 99") ?? -1
            )
        }
        #expect(events == 10 * (result.batches + processCommitted), "rows lost or added")
        #expect(processEvents == 10 * processCommitted)
        #expect(balance == Self.total)
        #expect(integrity == "ok")
        Reliability.figure(
            "concurrency: \(Int(seconds)) s, \(writerCount) writer threads on 2 Database values + \(sqlite3 == nil ? "no" : "1") sqlite3 process, \(readerCount) readers (\(threadReaders) threads, \(readerCount - threadReaders) async tasks); \(result.batches + processCommitted) write transactions (\(processCommitted) from the other process), \(events) rows, \(result.reads) reads; BUSY/LOCKED or other errors \(result.errors.count); torn reads \(result.violations.count); rows lost \(10 * (result.batches + processCommitted) - events)")
    }
}
