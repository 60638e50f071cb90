import Foundation
import Strata
import StrataTestSupport
import Testing

/// Two real `strata migrate` processes on one file. Before the fix both printed
/// `applying 0002_tighten … done` and the loser then said the database was at the old version,
/// with exit code 0. Now the migrator holds the write lock while it checks and applies, so one
/// process applies each migration and the other waits and says another process applied it;
/// nobody prints "done" for work it did not do.
@Suite(.serialized) struct ConcurrentMigrateTests {
    /// A started `strata` process whose output is collected as it comes.
    final class Running: @unchecked Sendable {
        let process = Process()
        private let output = Locked(Data())
        private let errors = Locked(Data())
        private let finished = DispatchGroup()

        init(_ arguments: [String], in directory: URL) throws {
            guard let executable = Reliability.executable else {
                throw StrataError.misuse("the strata executable was not found beside the test bundle")
            }
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            for (pipe, buffer) in [(out, output), (err, errors)] {
                finished.enter()
                Thread {
                    while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                        buffer.withLock { $0.append(chunk) }
                    }
                    self.finished.leave()
                }.start()
            }
        }

        var stdout: String { output.withLock { String(decoding: $0, as: UTF8.self) } }
        var stderr: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }

        /// Waits until standard output contains `text` or the process ends; true when it does.
        func waitFor(_ text: String) -> Bool {
            while !stdout.contains(text) {
                if !process.isRunning { return stdout.contains(text) }
                usleep(2_000)
            }
            return true
        }

        func wait() -> Int32 {
            process.waitUntilExit()
            finished.wait()
            return process.terminationStatus
        }
    }

    /// A directory with the crash test's schema at v1 migrated and filled with `rows` items, and
    /// v2's migration (a rebuild of `item`) written but not applied.
    static func prepared(rows: Int) throws -> (TemporaryDirectory, Data) {
        let dir = try TemporaryDirectory()
        let schema = dir.url.appendingPathComponent("Crash.schema.yml")
        try Data(CrashSafetyTests.v1.utf8).write(to: schema)
        #expect(try Reliability.strata("migration", "new", "Crash.schema.yml", "--name", "initial", in: dir.url).status == 0)
        #expect(try Reliability.strata("migrate", "Crash.schema.yml", "--database", "crash.sqlite", in: dir.url).status == 0)
        do {
            let db = try Database(path: dir.path("crash.sqlite"))
            try db.write { conn in
                try conn.execute(
                    sql: """
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                        INSERT INTO item (name, note, qty) SELECT 'item ' || i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'note' END, i % 50 FROM n
                        """,
                    arguments: [rows])
                try conn.execute(sql: "INSERT INTO tag (itemId, label) SELECT id, 'tag' FROM item WHERE id % 4 = 0")
            }
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        try Data(CrashSafetyTests.v2.utf8).write(to: schema)
        #expect(try Reliability.strata("migration", "new", "Crash.schema.yml", "--name", "tighten", in: dir.url).status == 0)
        let pristine = try Data(contentsOf: URL(fileURLWithPath: dir.path("crash.sqlite")))
        return (dir, pristine)
    }

    static func reset(_ dir: TemporaryDirectory, to pristine: Data) throws {
        let path = dir.path("crash.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try pristine.write(to: URL(fileURLWithPath: path))
    }

    static func count(_ text: String, in outputs: [String]) -> Int {
        outputs.map { $0.components(separatedBy: text).count - 1 }.reduce(0, +)
    }

    /// The second process starts while the first holds the write lock (its progress line is
    /// out): it waits, then says the migration was applied by another process.
    @Test(.timeLimit(.minutes(5))) func theSecondProcessWaitsAndSaysAnotherOneApplied() throws {
        let rows = Reliability.size("STRATA_MIGRATE_RACE_ROWS", fast: 200_000, long: 400_000)
        let (dir, pristine) = try Self.prepared(rows: rows)
        var waited = 0
        let trials = Reliability.isLong ? 10 : 2
        for _ in 0..<trials {
            try Self.reset(dir, to: pristine)
            let first = try Running(["migrate", "Crash.schema.yml", "--database", "crash.sqlite"], in: dir.url)
            #expect(first.waitFor("applying 0002_tighten … "))
            let second = try Running(["migrate", "Crash.schema.yml", "--database", "crash.sqlite"], in: dir.url)
            #expect(first.wait() == 0, "\(first.stderr)")
            #expect(second.wait() == 0, "\(second.stderr)")
            #expect(first.stdout.contains("applying 0002_tighten … done ("), "\(first.stdout)")
            #expect(first.stdout.contains("crash.sqlite is at version 2"), "\(first.stdout)")
            #expect(!second.stdout.contains("applying") && !second.stdout.contains("done"), "\(second.stdout)")
            #expect(second.stdout.hasSuffix("crash.sqlite is at version 2\n") || second.stdout.hasSuffix("crash.sqlite is up to date at version 2\n"), "\(second.stdout)")
            if second.stdout.contains("another process applied 0002_tighten while this one waited; this one applied nothing") { waited += 1 }
            let db = try Database(path: dir.path("crash.sqlite"))
            #expect(try db.value(Int.self, "SELECT count(*) FROM strata_migrations") == 2)
            #expect(try db.value(Int.self, "SELECT count(*) FROM item") == rows)
            #expect(try db.value(Int.self, "SELECT count(*) FROM tag") == rows / 4)
        }
        // The second process read the status while the first was applying in all but the
        // rarest schedules; it must then have waited.
        #expect(waited > 0, "the second process never saw the migration pending")
        Reliability.figure("concurrent strata migrate: \(trials) trials (rebuild of \(rows) rows); the second process started during the first one's migration, waited and reported the other's work in \(waited); 'done' printed once per trial")
    }

    /// Both processes start at the same moment, on a fresh file (both may create it) and on a
    /// file at v1: exactly one "done" per migration, both exit 0, the history is whole.
    @Test(.timeLimit(.minutes(5))) func twoProcessesStartedTogetherApplyEachMigrationOnce() throws {
        let (dir, pristine) = try Self.prepared(rows: 2_000)
        let trials = Reliability.isLong ? 20 : 4
        for trial in 0..<trials {
            let fresh = trial % 2 == 0
            if fresh {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: dir.path("crash.sqlite") + suffix) }
            } else {
                try Self.reset(dir, to: pristine)
            }
            let runs = try (0..<2).map { _ in try Running(["migrate", "Crash.schema.yml", "--database", "crash.sqlite"], in: dir.url) }
            let statuses = runs.map { $0.wait() }
            let outputs = runs.map(\.stdout)
            #expect(statuses == [0, 0], "\(runs.map(\.stderr))")
            if fresh { #expect(Self.count("applying 0001_initial … done", in: outputs) == 1, "\(outputs)") }
            #expect(Self.count("applying 0002_tighten … done", in: outputs) == 1, "\(outputs)")
            #expect(Self.count("applying", in: outputs) == (fresh ? 2 : 1), "\(outputs)")
            #expect(outputs.allSatisfy { $0.hasSuffix("is at version 2\n") || $0.hasSuffix("is up to date at version 2\n") }, "\(outputs)")
            let db = try Database(path: dir.path("crash.sqlite"))
            #expect(try db.value(Int.self, "SELECT count(*) FROM strata_migrations") == 2)
            #expect(try db.value(Int.self, "PRAGMA user_version") == 2)
            #expect(try db.value(String.self, "PRAGMA integrity_check") == "ok")
        }
    }

    /// A lock held longer than `--busy-timeout`: the command gives up, says who holds the file
    /// and that nothing was applied, exits 1, and prints no progress.
    @Test func aLockHeldTooLongIsReportedPlainly() throws {
        let (dir, _) = try Self.prepared(rows: 100)
        let db = try Database(path: dir.path("crash.sqlite"))
        let result = try db.write { conn in
            try conn.execute(sql: "INSERT INTO item (name, qty) VALUES ('held', 1)")
            return try Reliability.strata(
                "migrate", "Crash.schema.yml", "--database", "crash.sqlite", "--busy-timeout", "0.3", in: dir.url)
        }
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(
            result.stderr
                == "error: crash.sqlite is locked by another process (another 'strata migrate', or the app) and stayed locked for 0.3 s; nothing was applied; try again when it is done, or wait longer with --busy-timeout\n",
            "\(result.stderr)")
        #expect(try db.value(Int.self, "PRAGMA user_version") == 1)
        #expect(try Reliability.strata("migrate", "Crash.schema.yml", "--database", "crash.sqlite", in: dir.url).status == 0)
        #expect(try db.value(Int.self, "PRAGMA user_version") == 2)
    }
}
