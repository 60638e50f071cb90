import Foundation
import Strata
import StrataTestSupport
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

    /// What a database holds after a kill.
    struct Report {
        var outcome: Outcome?
        var integrityOK = false
        var foreignKeysOK = false
        var historyAgrees = false
        var leftovers = false
        var rowsLost = 0
        var contentsEqual = false

        var isSound: Bool { outcome != nil && integrityOK && foreignKeysOK && historyAgrees && !leftovers && rowsLost == 0 && contentsEqual }
    }

    /// Where a database stands after a kill, and whether it kept every guarantee.
    static func inspect(_ path: String, expected: Contents) throws -> Report {
        let db = try Database(path: path)
        return try db.read { conn throws in
            var report = Report()
            report.integrityOK = try conn.fetchValue(String.self, sql: "PRAGMA integrity_check") == "ok"
            report.foreignKeysOK = try conn.fetch(sql: "PRAGMA foreign_key_check").isEmpty
            let userVersion = try conn.fetchValue(Int.self, sql: "PRAGMA user_version") ?? -1
            let versions = try conn.fetch(sql: "SELECT version FROM strata_migrations ORDER BY version").map { try $0.get(0, as: Int.self) }
            report.historyAgrees = versions == Array(1...max(1, userVersion))
            let tables = try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { try $0.get(0, as: String.self) }
            let indexes = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'item_name'")
            report.leftovers = tables.contains("new_item") || indexes != 1
            let itemSQL = try conn.fetchValue(String.self, sql: "SELECT sql FROM sqlite_master WHERE name = 'item'") ?? ""
            let contents = Contents(
                items: try Fingerprint(conn, table: "item", expressions: itemSums),
                tags: try Fingerprint(conn, table: "tag", expressions: tagSums))
            report.rowsLost = max(0, expected.items.rows - contents.items.rows) + max(0, expected.tags.rows - contents.tags.rows)
            report.contentsEqual = contents == expected
            let nullNotes = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM item WHERE note IS NULL") ?? -1
            if userVersion == 2, itemSQL.contains("CHECK"), nullNotes == 0 {
                report.outcome = .new
            } else if userVersion == 1, !itemSQL.contains("CHECK") {
                report.outcome = .old
            }
            return report
        }
    }

    static func expectSound(_ report: Report, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.isSound, "\(label): \(report)", sourceLocation: sourceLocation)
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
    static func startMigrate(in dir: TemporaryDirectory, output: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try #require(Reliability.executable as URL?, "the strata executable was not found")
        process.arguments = ["migrate", "Crash.schema.yml", "--database", "trial.sqlite"]
        process.currentDirectoryURL = dir.url
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
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
        let uninterrupted = try Self.inspect(path, expected: expected)
        Self.expectSound(uninterrupted, "uninterrupted")
        #expect(uninterrupted.outcome == .new)

        // Kill at moments drawn uniformly from [0, 1.2 × the full run].
        var random = SeededGenerator(state: 0xC0FF_EE00 &+ UInt64(rows))
        let window = Int(fullRun.components.seconds) * 1_000_000 + Int(fullRun.components.attoseconds / 1_000_000_000_000)
        var outcomes: [Outcome: Int] = [:]
        var phases: [String: Int] = [:]
        var unsound = 0
        var rowsLost = 0
        for trial in 0..<trials {
            path = try Self.freshCopy(in: dir)
            let delay = Int.random(in: 0...(window * 6 / 5), using: &random)
            let output = dir.url.appendingPathComponent("trial.out")
            let process = try Self.startMigrate(in: dir, output: output)
            usleep(UInt32(delay))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            // Where the kill landed, from the progress line `applying 0002_tighten … done (…)`.
            let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            let phase = process.terminationReason == Process.TerminationReason.exit
                ? "after the process finished" : printed.contains("applying 0002") ? (printed.contains("done") ? "after the commit" : "while applying 0002") : "before 0002 began"
            phases[phase, default: 0] += 1
            let report = try Self.inspect(path, expected: expected)
            Self.expectSound(report, "trial \(trial) (killed after \(delay) µs, \(phase))")
            if !report.isSound { unsound += 1 }
            rowsLost += report.rowsLost
            if let outcome = report.outcome { outcomes[outcome, default: 0] += 1 }
            // The killed migration can be run again to the end.
            let resumed = try Self.startMigrate(in: dir, output: output)
            resumed.waitUntilExit()
            #expect(resumed.terminationStatus == 0, "trial \(trial): migrating again failed")
            let after = try Self.inspect(path, expected: expected)
            Self.expectSound(after, "trial \(trial) resumed")
            #expect(after.outcome == .new)
        }
        let old = outcomes[.old, default: 0]
        let new = outcomes[.new, default: 0]
        #expect(old + new == trials)
        let phaseText = phases.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        Reliability.figure(
            "crash: \(trials) SIGKILL trials of `strata migrate` rebuilding \(rows) items + \(rows / 4) tags; full run \(window / 1000) ms; kill delays 0–\(window * 6 / 5 / 1000) ms (seed 0xC0FFEE00+rows); kills landed: \(phaseText); ended at the old version \(old), at the new version \(new), between or unreadable \(trials - old - new); trials failing a check (integrity, foreign keys, history, leftovers, contents) \(unsound); rows lost \(rowsLost); every trial migrated to version 2 when run again")
    }
}
