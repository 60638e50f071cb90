import CFaultVFS
import Foundation
import Strata
import StrataTestSupport
import Testing

/// I/O faults at every point: a VFS wrapping SQLite's default one (Tests/CFaultVFS) fails the
/// Nth write, sync or truncate — of the database file, the WAL or a journal — for every N from
/// the first to the last I/O of (a) a migration that rebuilds a table with child rows and
/// (b) a write transaction through generated DAOs, closing the database included. Each fault
/// must give a typed error (or, when it hits after the commit, where SQLite ignores it, no
/// error and the whole change), and the file, reopened with the normal VFS, must pass
/// `integrity_check` and `foreign_key_check` and hold all or none of the change.
@Suite(.serialized) struct IOFaultTests {
    static let vfsName = "strata-fault-injection"
    static let registered: Bool = {
        strata_fault_vfs_skip_sync(1)
        return strata_fault_vfs_register(vfsName) == 0
    }()

    /// How a fault behaves: its result code (0: the `SQLITE_IOERR_*` code of the operation) and
    /// whether every later operation fails too (a device that went away).
    struct Variant: CustomStringConvertible {
        var code: Int32
        var persistent: Bool
        var description: String { (code == 0 ? "SQLITE_IOERR" : "SQLITE_FULL") + (persistent ? " from then on" : " once") }
    }

    /// `SQLITE_IOERR` and `SQLITE_FULL` once at every point; the long run adds an I/O error
    /// that persists.
    static let variants =
        [Variant(code: 0, persistent: false), Variant(code: 13 /* SQLITE_FULL */, persistent: false)]
        + (Reliability.isLong ? [Variant(code: 0, persistent: true)] : [])

    /// What the trials of one scenario found.
    struct Tally {
        var points = 0
        var trials = 0
        var errors = 0
        var ignoredAfterCommit = 0
        var endedBefore = 0
        var endedAfter = 0
        var errorsWithTheChangeSaved = 0
        var codes: [Int32: Int] = [:]
        var kinds: [String: Int] = [:]
        var damaged = 0
    }

    /// Copies `pristine` to `path`, opens it through the fault VFS, fails the `failAt`-th I/O
    /// (0: none) while `operation` runs and the database closes, and returns the error and the
    /// number of I/O operations counted.
    static func trial(
        pristine: Data, path: String, failAt: Int, variant: Variant, operation: (Database) throws -> Void
    ) throws -> (error: (any Error)?, operations: Int, failures: Int, kind: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try pristine.write(to: URL(fileURLWithPath: path))
        var configuration = Database.Configuration()
        configuration.vfs = vfsName
        var error: (any Error)?
        do {
            let db = try Database(path: path, configuration: configuration)
            strata_fault_vfs_arm(Int32(failAt), variant.code, variant.persistent ? 1 : 0)
            do { try operation(db) } catch let thrown { error = thrown }
        }  // the database closes here, still armed: its checkpoint is part of the trial
        let counted = Int(strata_fault_vfs_count())
        let failures = Int(strata_fault_vfs_failures())
        let kind = ["w": "write", "s": "sync", "t": "truncate"][String(UnicodeScalar(UInt8(truncatingIfNeeded: strata_fault_vfs_failed_kind())))] ?? "none"
        strata_fault_vfs_disarm()
        return (error, counted, failures, kind)
    }

    /// Runs every fault point of `operation` in every variant. `state` reads what the test
    /// compares (through the normal VFS); `before` and `after` are its values without the
    /// change and with it; `check` inspects a thrown error.
    static func everyFault(
        name: String, pristine: Data, dir: TemporaryDirectory, operation: (Database) throws -> Void,
        state: (Connection) throws -> [[DatabaseValue]], check: (any Error) -> Void,
        afterwards: ((String) throws -> Void)? = nil
    ) throws -> Tally {
        try #require(registered, "the fault VFS did not register")
        let path = dir.path("\(name).sqlite")
        var damaged = 0
        func read() throws -> [[DatabaseValue]] {
            let db = try Database(path: path)
            return try db.read { conn in
                let integrity = try conn.fetchValue(String.self, sql: "PRAGMA integrity_check")
                let violations = try conn.fetch(sql: "PRAGMA foreign_key_check").count
                #expect(integrity == "ok" && violations == 0, "integrity_check: \(integrity ?? "nil"), foreign key violations: \(violations)")
                if integrity != "ok" || violations != 0 { damaged += 1 }
                return try state(conn)
            }
        }
        // The states without and with the change, and the number of I/O operations it takes.
        _ = try trial(pristine: pristine, path: path, failAt: 0, variant: variants[0]) { _ in }
        let before = try read()
        let clean = try trial(pristine: pristine, path: path, failAt: 0, variant: variants[0], operation: operation)
        #expect(clean.error == nil, "\(String(describing: clean.error))")
        let after = try read()
        #expect(before != after)
        #expect(clean.operations > 10, "the operation should do some I/O")

        var tally = Tally(points: clean.operations)
        for variant in variants {
            for failAt in 1...clean.operations {
                let result = try trial(pristine: pristine, path: path, failAt: failAt, variant: variant, operation: operation)
                tally.trials += 1
                tally.kinds[result.kind, default: 0] += 1
                #expect(result.failures > 0, "\(name): fault \(failAt) of \(clean.operations) (\(variant)) was never reached")
                let now = try read()
                let isBefore = now == before
                let isAfter = now == after
                #expect(isBefore || isAfter, "\(name): fault \(failAt) (\(variant)) left a state that is neither before nor after")
                if isBefore { tally.endedBefore += 1 }
                if isAfter { tally.endedAfter += 1 }
                if let error = result.error {
                    tally.errors += 1
                    check(error)
                    if let error = error as? StrataError { tally.codes[error.resultCode, default: 0] += 1 }
                    if isAfter { tally.errorsWithTheChangeSaved += 1 }
                } else {
                    // No error reached the caller: the fault hit after the commit (the
                    // checkpoint, or closing), which SQLite does not report; the change is whole.
                    tally.ignoredAfterCommit += 1
                    #expect(isAfter, "\(name): fault \(failAt) (\(variant)) gave no error but lost the change")
                }
                try afterwards?(path)
            }
        }
        tally.damaged = damaged
        return tally
    }

    static func describe(_ tally: Tally) -> String {
        let codes = tally.codes.keys.sorted().map { "\($0)×\(tally.codes[$0] ?? 0)" }.joined(separator: ", ")
        let kinds = tally.kinds.keys.sorted().map { "\($0) \(tally.kinds[$0] ?? 0)" }.joined(separator: ", ")
        return "\(tally.points) I/O points × \(variants.count) variants = \(tally.trials) faults (at a \(kinds)); typed errors \(tally.errors) (result codes \(codes)), no error (fault after the commit) \(tally.ignoredAfterCommit); ended with none of the change \(tally.endedBefore), all of it \(tally.endedAfter) (of which after an error \(tally.errorsWithTheChangeSaved)); integrity or foreign-key failures \(tally.damaged)"
    }

    // MARK: - (a) A migration that rebuilds a table with child rows

    @Test(.timeLimit(.minutes(10))) func aFaultAtAnyPointOfAMigrationLeavesOneVersionOrTheOther() throws {
        let dir = try TemporaryDirectory()
        let rows = Reliability.size("STRATA_FAULT_ROWS", fast: 60, long: 600)
        let path = dir.path("seed.sqlite")
        do {
            let db = try Database(path: path)
            try Migrator(migrations: [DiskFullTests.initial]).migrate(db)
            try db.write { conn throws in
                for i in 1...rows {
                    try conn.execute(
                        sql: "INSERT INTO doc (body, n) VALUES (?, ?); INSERT INTO part (docId) VALUES (last_insert_rowid())",
                        arguments: [String(repeating: "body \(i) ", count: 20), i % 7 == 0 ? nil : i])
                }
            }
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let pristine = try Data(contentsOf: URL(fileURLWithPath: path))
        let migrator = Migrator(migrations: [DiskFullTests.initial, DiskFullTests.rebuild])
        let tally = try Self.everyFault(
            name: "migration", pristine: pristine, dir: dir,
            operation: { db in try migrator.migrate(db) },
            state: { conn in
                let version = try conn.fetchValue(Int.self, sql: "PRAGMA user_version") ?? -1
                let history = try conn.fetchValue(Int.self, sql: "SELECT max(version) FROM strata_migrations") ?? -1
                #expect(version == history, "user_version and the history disagree")
                let shape = try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'doc'") ?? ""
                let leftovers = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'new_doc'") ?? -1
                #expect(leftovers == 0)
                return [[.integer(Int64(version)), .text(shape)]]
                    + (try conn.fetch(sql: "SELECT id, body, coalesce(n, 0) FROM doc ORDER BY id").map(\.values))
                    + (try conn.fetch(sql: "SELECT id, docId FROM part ORDER BY id").map(\.values))
            },
            check: { error in
                guard let error = error as? StrataError else {
                    Issue.record("not a StrataError: \(error)")
                    return
                }
                #expect(error.kind == .migrationFailed, "\(error)")
                #expect([10, 13].contains(error.resultCode), "\(error)")
                #expect(error.message.contains("0002_rebuild.sql"), "\(error)")
            },
            afterwards: { path in
                // Whatever the fault left, migrating again through the normal VFS completes.
                let db = try Database(path: path)
                try migrator.migrate(db)
                #expect(try db.value(Int.self, "PRAGMA user_version") == 2)
                #expect(try db.value(Int.self, "SELECT count(*) FROM part") == rows)
            })
        #expect(tally.errors > 0 && tally.endedBefore > 0)
        Reliability.figure("I/O faults, migration (rebuild of \(rows) rows with \(rows) child rows, closing included): \(Self.describe(tally)); every database migrated to version 2 afterwards")
    }

    // MARK: - (b) A write transaction through generated DAOs

    @Test(.timeLimit(.minutes(10))) func aFaultAtAnyPointOfADAOTransactionKeepsAllOrNothing() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("seed.sqlite")
        let seeded = Reliability.size("STRATA_FAULT_ROWS", fast: 60, long: 600) / 2
        let inserts = max(40, seeded)
        do {
            let db = try Database(path: path)
            try Vault.migrate(db)
            try db.write { conn throws in
                for i in 0..<seeded {
                    let secret = try SecretDAO(conn).insert(Secret(label: "seed \(i)", body: String(repeating: "s", count: 300), note: nil, kind: .plain, payload: nil))
                    _ = try KeeperDAO(conn).insert(Keeper(secretId: secret.id))
                }
            }
            try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
        let pristine = try Data(contentsOf: URL(fileURLWithPath: path))
        let tally = try Self.everyFault(
            name: "dao", pristine: pristine, dir: dir,
            operation: { db in
                try db.write { conn in
                    let secrets = SecretDAO(conn)
                    for i in 0..<inserts {
                        let secret = try secrets.insert(
                            Secret(label: "new \(i)", body: String(repeating: "b", count: 400), note: "n", kind: .plain, payload: Data(count: 200)))
                        _ = try KeeperDAO(conn).insert(Keeper(secretId: secret.id))
                    }
                    for var secret in try secrets.fetchAll().prefix(10) {
                        secret.note = "updated"
                        try secrets.update(secret)
                    }
                    for secret in try secrets.fetchAll().suffix(5) { try secrets.delete(secret) }
                }
            },
            state: { conn in
                try conn.fetch(sql: #"SELECT * FROM "secret""; DROP TABLE secret; --" ORDER BY id"#).map(\.values)
                    + (try conn.fetch(sql: #"SELECT * FROM "keeper; --" ORDER BY id"#).map(\.values))
            },
            check: { error in
                guard let error = error as? StrataError else {
                    Issue.record("not a StrataError: \(error)")
                    return
                }
                #expect(error.kind == .sqlite && [10, 13].contains(error.resultCode), "\(error)")
            })
        #expect(tally.errors > 0 && tally.endedBefore > 0)
        Reliability.figure("I/O faults, DAO write transaction (\(inserts) inserts with child rows on \(seeded) rows, 10 updates, 5 deletes with cascade, closing included): \(Self.describe(tally))")
    }
}
