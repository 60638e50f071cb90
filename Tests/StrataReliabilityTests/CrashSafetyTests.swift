import Foundation
import Strata
import Testing

/// `strata migrate` (the real binary) killed with SIGKILL at random moments of a migration that
/// rebuilds a large table: after every kill the database opens, is intact, is at the old version
/// or the new one (never between), and holds every row.
@Suite(.serialized) struct CrashSafetyTests {
    static let v1 = """
        database: Crash
        options:
          strict: true
        tables:
          Item:
            table: item
            columns:
              id:   { type: int, primaryKey: autoincrement }
              name: text
              note: text?
              qty:  { type: int, default: 0 }
            indexes:
              - columns: [name]
          Tag:
            table: tag
            columns:
              id:     { type: int, primaryKey: autoincrement }
              itemId: { type: int, references: Item.id, onDelete: cascade }
              label:  text
        """

    /// v2: `note` becomes NOT NULL (its default fills the NULLs) and `qty` gains a CHECK: both
    /// need the 12-step rebuild of `item`, whose children (`tag`, ON DELETE CASCADE) must survive.
    static let v2 = v1
        .replacingOccurrences(of: "note: text?", with: "note: { type: text, default: \"\" }")
        .replacingOccurrences(of: "qty:  { type: int, default: 0 }", with: "qty:  { type: int, default: 0, check: \"qty >= 0\" }")

    static let itemSums = ["sum(id)", "total(length(name))", "total(length(note))", "sum(qty)"]
    static let tagSums = ["sum(id)", "sum(itemId)", "total(length(label))"]

    struct Contents: Hashable {
        var items: Fingerprint
        var tags: Fingerprint
    }

    enum Outcome: Hashable { case old, new }

    /// Where a database stands after a kill; records every violation of the guarantees.
    static func inspect(_ path: String, expected: Contents, label: String) throws -> Outcome {
        let db = try Database(path: path)
        return try db.read { conn throws in
            #expect(try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok", "\(label)")
            #expect(try conn.fetch(sql: "PRAGMA foreign_key_check").isEmpty, "\(label)")
            let userVersion = try conn.fetchValue(Int.self, sql: "PRAGMA user_version") ?? -1
            let versions = try conn.fetch(sql: "SELECT version FROM strata_migrations ORDER BY version").map { try $0.get(0, as: Int.self) }
            #expect(versions == Array(1...max(1, userVersion)), "\(label): history \(versions), user_version \(userVersion)")
            let tables = try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0.get(0, as: String.self) }
            #expect(!tables.contains("new_item"), "\(label): the rebuild's temporary table is left over")
            let itemSQL = try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'item'") ?? ""
            let contents = Contents(
                items: try Fingerprint(conn, table: "item", expressions: itemSums),
                tags: try Fingerprint(conn, table: "tag", expressions: tagSums))
            #expect(contents == expected, "\(label): rows changed")
            #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'item_name'") == 1, "\(label)")
            if userVersion == 2 {
                #expect(itemSQL.contains("CHECK"), "\(label): at version 2 without the new table")
                #expect(try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM item WHERE note IS NULL") == 0, "\(label)")
                return .new
            }
            #expect(userVersion == 1, "\(label): user_version \(userVersion)")
            #expect(!itemSQL.contains("CHECK"), "\(label): at version 1 with the new table")
            return .old
        }
    }

    /// Makes the workspace: both migrations written by `strata migration new`, a database at
    /// version 1 holding `rows` items (a third with a NULL note) and `rows / 4` tags.
    static func prepare(rows: Int, in dir: TemporaryDirectory) throws -> Contents {
        try Data(v1.utf8).write(to: dir.url.appendingPathComponent("Crash.schema.yml"))
        var result = try Reliability.strata("migration", "new", "Crash.schema.yml", "--name", "initial", in: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        result = try Reliability.strata("migrate", "Crash.schema.yml", "--database", "base.sqlite", in: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        try Data(v2.utf8).write(to: dir.url.appendingPathComponent("Crash.schema.yml"))
        result = try Reliability.strata("migration", "new", "Crash.schema.yml", "--name", "tighten", in: dir.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("rebuild table item"), "\(result.stdout)")

        let db = try Database(path: dir.path("base.sqlite"))
        let contents = try db.write { conn throws in
            let item = try conn.makeStatement(sql: "INSERT INTO item (name, note, qty) VALUES (?, ?, ?)")
            for i in 1...rows {
                item.reset()
                try item.bind([
                    "item \(i) " + String(repeating: "x", count: i % 37), i % 3 == 0 ? nil : "note \(i % 101)", i % 1000,
                ])
                try item.run()
            }
            let tag = try conn.makeStatement(sql: "INSERT INTO tag (itemId, label) VALUES (?, ?)")
            for i in 1...max(1, rows / 4) {
                tag.reset()
                try tag.bind([(i * 7) % rows + 1, "tag \(i % 13)"])
                try tag.run()
            }
            return Contents(
                items: try Fingerprint(conn, table: "item", expressions: itemSums),
                tags: try Fingerprint(conn, table: "tag", expressions: tagSums))
        }
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        return contents
    }

    /// Copies the (checkpointed, closed) base database to `trial.sqlite`.
    static func freshCopy(in dir: TemporaryDirectory) throws -> String {
        let path = dir.path("trial.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: dir.path("base.sqlite"), toPath: path)
        return path
    }

    /// Starts `strata migrate` on `trial.sqlite`.
    static func startMigrate(in dir: TemporaryDirectory) throws -> Process {
        let process = Process()
        process.executableURL = try #require(Reliability.executable as URL?, "the strata executable was not found")
        process.arguments = ["migrate", "Crash.schema.yml", "--database", "trial.sqlite"]
        process.currentDirectoryURL = dir.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test(.timeLimit(.minutes(30))) func killedMigrationsLeaveTheOldOrTheNewVersion() throws {
        let rows = Reliability.size("STRATA_KILL_ROWS", fast: 20_000, long: 200_000)
        let trials = Reliability.size("STRATA_KILL_TRIALS", fast: 5, long: 50)
        let dir = try TemporaryDirectory()
        let expected = try Self.prepare(rows: rows, in: dir)
        #expect(expected.items.rows == rows)

        // Calibrate: one uninterrupted run, timed from process start to exit.
        let clock = ContinuousClock()
        var path = try Self.freshCopy(in: dir)
        let start = clock.now
        let calibration = try Self.startMigrate(in: dir)
        calibration.waitUntilExit()
        let fullRun = clock.now - start
        #expect(calibration.terminationStatus == 0)
        #expect(try Self.inspect(path, expected: expected, label: "uninterrupted") == .new)

        // Kill at moments drawn uniformly from [0, 1.2 × the full run].
        var random = SeededGenerator(state: 0xC0FF_EE00 &+ UInt64(rows))
        let window = Int(fullRun.components.seconds) * 1_000_000 + Int(fullRun.components.attoseconds / 1_000_000_000_000)
        var outcomes: [Outcome: Int] = [:]
        var finishedBeforeKill = 0
        var delays: [Int] = []
        for trial in 0..<trials {
            path = try Self.freshCopy(in: dir)
            let delay = Int.random(in: 0...(window * 6 / 5), using: &random)
            delays.append(delay)
            let process = try Self.startMigrate(in: dir)
            usleep(UInt32(delay))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            if process.terminationReason == Process.TerminationReason.exit { finishedBeforeKill += 1 }
            let outcome = try Self.inspect(path, expected: expected, label: "trial \(trial) (killed after \(delay) µs)")
            outcomes[outcome, default: 0] += 1
            // The killed migration can be run again to the end.
            let resumed = try Self.startMigrate(in: dir)
            resumed.waitUntilExit()
            #expect(resumed.terminationStatus == 0, "trial \(trial): migrating again failed")
            #expect(try Self.inspect(path, expected: expected, label: "trial \(trial) resumed") == .new)
        }
        let old = outcomes[.old, default: 0]
        let new = outcomes[.new, default: 0]
        #expect(old + new == trials)
        Reliability.figure(
            "crash: \(trials) SIGKILL trials of `strata migrate` rebuilding \(rows) items + \(rows / 4) tags; full run \(window / 1000) ms; kill delays 0–\(window * 6 / 5 / 1000) ms (seed 0xC0FFEE00+rows); old version \(old), new version \(new) (\(finishedBeforeKill) finished before the kill); integrity failures 0 expected; rows lost 0 expected; every trial resumed to version 2")
    }
}
