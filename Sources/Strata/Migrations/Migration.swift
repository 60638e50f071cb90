/// One versioned migration: the SQL of `<Name>.migrations/NNNN_name.sql`.
public struct Migration: Sendable, Hashable {
    /// The version this migration brings the database to (1, 2, …).
    public var version: Int
    /// The name part of the file name (`initial` for `0001_initial.sql`).
    public var name: String
    /// The SQL, run in one transaction.
    public var sql: String
    /// The SHA-256 of the SQL (line endings normalized): an applied migration whose checksum
    /// changed is refused.
    public var checksum: String

    /// Creates a migration; the checksum is computed from `sql` unless given.
    public init(version: Int, name: String, sql: String, checksum: String? = nil) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = checksum ?? Migration.checksum(of: sql)
    }

    /// The checksum Strata records for `sql`: SHA-256 of its UTF-8 with CRLF turned into LF,
    /// so a checkout with other line endings does not look like a change.
    public static func checksum(of sql: String) -> String {
        // (Foundation's replacement, slow on a large script, only when there is a CR at all.)
        let lines = sql.utf8.contains(UInt8(ascii: "\r")) ? sql.replacingOccurrences(of: "\r\n", with: "\n") : sql
        return SHA256.hex(of: Array(lines.utf8))
    }

    /// Why a migrator (of SQLite or PostgreSQL) refuses to migrate a database whose history is
    /// `applied` (version and checksum, by version) and whose version is `databaseVersion`, with
    /// `code` (sorted by version) as the code's migrations: gaps in either, a database newer
    /// than the code, a changed checksum. Empty when nothing is wrong.
    package static func historyProblems(
        code: [Migration], applied: [(version: Int, checksum: String)], databaseVersion: Int
    ) -> [String] {
        var problems: [String] = []
        for (offset, migration) in code.enumerated() where migration.version != offset + 1 {
            problems.append(
                "the migrations of the code have a gap: expected version \(offset + 1) but found \(migration.fileName); number the files from 0001 without gaps")
            break
        }
        for (offset, record) in applied.enumerated() where record.version != offset + 1 {
            problems.append(
                "the database's migration history has a gap: expected version \(offset + 1) but found \(record.version); restore the database from a backup")
            break
        }
        let latestVersion = code.last?.version ?? 0
        if databaseVersion > latestVersion {
            problems.append(
                "the database is at version \(databaseVersion), newer than this code's latest migration \(latestVersion); run a newer build of the app or restore an older database")
        }
        let byVersion = Dictionary(code.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        for record in applied {
            guard let migration = byVersion[record.version], migration.checksum != record.checksum else { continue }
            problems.append(
                "migration \(migration.fileName) was changed after it was applied (checksum \(record.checksum.prefix(12)) in the database, \(migration.checksum.prefix(12)) in the code); restore the file as it was and put the change in a new migration")
        }
        return problems
    }

    /// `0003_add_phone.sql`.
    public var fileName: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name + ".sql"
    }
}

import Foundation
