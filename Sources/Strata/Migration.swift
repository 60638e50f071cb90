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
        SHA256.hex(of: Array(sql.replacingOccurrences(of: "\r\n", with: "\n").utf8))
    }

    /// `0003_add_phone.sql`.
    public var fileName: String {
        let number = String(version)
        return String(repeating: "0", count: max(0, 4 - number.count)) + number + "_" + name + ".sql"
    }
}

import Foundation
