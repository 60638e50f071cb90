// SQLCipher builds leave out SQLite's session extension, so changesets exist only where the
// system SQLite is linked (docs/Encryption.md; plugin-driven builds enable both traits).
#if SystemSQLite || !SQLCipher
import CSQLite
import Foundation

/// The writes of one transaction, recorded by SQLite's session extension: which rows were
/// inserted, updated and deleted, with their old and new values, and the schema version of the
/// database that recorded them.
///
/// Record one with ``Database/recordChanges(_:)`` and apply it to another database with the same
/// schema with ``Database/apply(_:onConflict:)``. A changeset is plain bytes: send ``data`` to
/// another process or device and rebuild it there with ``init(data:)``. ``data`` is a 12-byte
/// header (a zero byte, `SC`, the format number 1, and the recording database's
/// `PRAGMA user_version` as a big-endian 64-bit integer) followed by SQLite's changeset format
/// (<https://www.sqlite.org/sessionintro.html>); ``init(data:)`` also reads a bare SQLite
/// changeset, which carries no schema version.
///
/// ```swift
/// let changeset = try phone.recordChanges { conn in
///     try conn.execute(sql: "UPDATE book SET title = ? WHERE id = ?", arguments: ["Ancillary Sword", 2])
/// }
/// let bytes = changeset.data                       // store or send these
/// try laptop.apply(try Changeset(data: bytes), onConflict: .replace)
/// ```
///
/// Only tables with a declared `PRIMARY KEY` are recorded (SQLite's rule: rows are matched by
/// primary key); changes to other tables are not in the changeset. Tables that the database
/// derives or keeps for itself are never recorded: the shadow tables of full-text indexes
/// (`Article_fts_data`, `Article_fts_idx` …; each side's triggers keep its own index), and
/// `strata_migrations`.
public struct Changeset: Sendable, Hashable {
    /// The changeset in SQLite's binary changeset format, without Strata's header.
    public let sqliteChangeset: Data

    /// The `PRAGMA user_version` of the database that recorded the changeset (the version of
    /// its last applied migration); nil for a changeset read from bare SQLite changeset bytes.
    /// ``Database/apply(_:onConflict:)`` refuses a changeset whose version is not the target's.
    public let schemaVersion: Int?

    /// The bytes to store or send: Strata's header, then ``sqliteChangeset`` (or the bare
    /// SQLite changeset when ``schemaVersion`` is nil).
    public var data: Data {
        guard let schemaVersion else { return sqliteChangeset }
        var bytes = Data(Self.magic)
        var version = UInt64(bitPattern: Int64(schemaVersion)).bigEndian
        withUnsafeBytes(of: &version) { bytes.append(contentsOf: $0) }
        bytes.append(sqliteChangeset)
        return bytes
    }

    /// The first bytes of ``data`` when it has Strata's header: a zero byte (SQLite's changesets
    /// start with `T`, its patchsets with `P`), `SC`, and the format number.
    static let magic: [UInt8] = [0x00, 0x53, 0x43, 0x01]
    /// The length of Strata's header: the magic bytes and the 64-bit schema version.
    static let headerLength = 12

    /// What a recorded change did to its row.
    public enum Operation: String, Sendable, Hashable {
        /// A row was inserted.
        case insert
        /// A row was updated.
        case update
        /// A row was deleted.
        case delete
    }

    /// One row change of a changeset.
    public struct Change: Sendable, Hashable {
        /// The table of the changed row.
        public let table: String
        /// What was done to the row.
        public let operation: Operation
    }

    /// How ``Database/apply(_:onConflict:)`` resolves a change that does not fit the target
    /// database (<https://www.sqlite.org/session/sqlite3changeset_apply.html>).
    ///
    /// A conflict is an update or delete whose row's current values differ from the values
    /// the changeset recorded as old (`SQLITE_CHANGESET_DATA`), an update or delete of a row
    /// that is not there (`SQLITE_CHANGESET_NOTFOUND`), an insert of a primary key that exists
    /// (`SQLITE_CHANGESET_CONFLICT`), or a change that violates a constraint
    /// (`SQLITE_CHANGESET_CONSTRAINT`). Whatever the policy, a change that would leave a
    /// foreign key violated aborts the whole apply.
    public enum ConflictResolution: String, Sendable, Hashable {
        /// The changeset wins: the row takes the changeset's new values (an insert replaces the
        /// existing row, an update or delete applies although the row changed). A change whose
        /// row is gone, or that violates a constraint, is skipped.
        case replace
        /// The target wins: a conflicting change is skipped, the rest are applied.
        case ignore
        /// The first conflict aborts: ``Database/apply(_:onConflict:)`` throws a
        /// ``StrataError`` (`SQLITE_ABORT`) and nothing of the changeset is applied.
        case abort
    }

    /// A changeset from bytes: the ``data`` of another changeset, or bare bytes in SQLite's
    /// changeset format (then ``schemaVersion`` is nil).
    ///
    /// Throws a ``StrataError`` (`SQLITE_CORRUPT`) when `data` is not a well-formed changeset.
    public init(data: Data) throws {
        var payload = data
        var version: Int?
        if data.first == 0 {
            let header = [UInt8](data.prefix(Self.headerLength))
            guard header.count == Self.headerLength, Array(header[0..<4]) == Self.magic else {
                throw StrataError(
                    kind: .sqlite, resultCode: SQLITE_CORRUPT,
                    message: "the data is not a valid changeset (its header is not Strata's changeset header, format 1)")
            }
            let raw = header[4...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let value = Int64(bitPattern: raw)
            guard value >= Int64(Int32.min), value <= Int64(Int32.max) else {
                throw StrataError(
                    kind: .sqlite, resultCode: SQLITE_CORRUPT,
                    message: "the data is not a valid changeset (schema version \(value) is not a user_version)")
            }
            version = Int(value)
            payload = Data(data.dropFirst(Self.headerLength))
        }
        guard Changeset.isWellFramed(payload) else {
            throw StrataError(
                kind: .sqlite, resultCode: SQLITE_CORRUPT, message: "the data is not a valid changeset")
        }
        self.sqliteChangeset = payload
        self.schemaVersion = version
        _ = try Changeset.iterate(payload) { _ in }
    }

    init(validData data: Data, schemaVersion: Int?) {
        self.sqliteChangeset = data
        self.schemaVersion = schemaVersion
    }

    /// True when the changeset holds no change.
    public var isEmpty: Bool { sqliteChangeset.isEmpty }

    /// The changes, in the order they are applied: grouped by table, one entry per row.
    public var changes: [Change] {
        // The data was validated when the changeset was made.
        (try? Changeset.iterate(sqliteChangeset) { $0 }) ?? []
    }

    /// The names of the tables the changeset changes, in the order they are applied.
    public var tables: [String] {
        var seen: [String] = []
        for change in changes where !seen.contains(change.table) {
            seen.append(change.table)
        }
        return seen
    }

    /// The changeset that undoes this one: inserts become deletes, deletes inserts, and updates
    /// swap their old and new values. It has the same ``schemaVersion``.
    public func inverted() throws -> Changeset {
        guard !sqliteChangeset.isEmpty else { return self }
        var count: Int32 = 0
        var output: UnsafeMutableRawPointer?
        let code = sqliteChangeset.withUnsafeBytes { bytes in
            sqlite3changeset_invert(Int32(bytes.count), bytes.baseAddress, &count, &output)
        }
        defer { sqlite3_free(output) }
        guard code == SQLITE_OK else { throw StrataError(sqliteCode: code, db: nil) }
        guard let output, count > 0 else { return Changeset(validData: Data(), schemaVersion: schemaVersion) }
        return Changeset(validData: Data(bytes: output, count: Int(count)), schemaVersion: schemaVersion)
    }

    /// Walks the changes of `data`, throwing when it is malformed.
    static func iterate<T>(_ data: Data, _ each: (Change) -> T) throws -> [T] {
        var results: [T] = []
        try walk(data) { row in results.append(each(Change(table: row.table, operation: row.operation))) }
        return results
    }

    /// One row change during ``walk(_:_:)``: its table and operation, and its values, read from
    /// SQLite's iterator (valid only during the call).
    struct Row {
        /// The changeset iterator, positioned on this change.
        let iterator: OpaquePointer
        /// The table of the changed row.
        let table: String
        /// What was done to the row.
        let operation: Operation
        /// The number of columns of the table as recorded.
        let columnCount: Int32

        /// The indexes of the table's primary key columns, as the changeset recorded them.
        func primaryKeyColumns() throws -> [Int32] {
            var flags: UnsafeMutablePointer<UInt8>?
            var count: Int32 = 0
            let code = sqlite3changeset_pk(iterator, &flags, &count)
            guard code == SQLITE_OK, let flags else { throw StrataError(sqliteCode: code, db: nil) }
            return (0..<count).filter { flags[Int($0)] != 0 }
        }

        /// The values of `columns` that identify the row: the new ones of an insert, the old
        /// ones of an update or delete (a key column an update leaves alone is in its old values).
        func keyValues(_ columns: [Int32]) -> [DatabaseValue] {
            columns.filter { $0 < columnCount }.map { column in
                var value: OpaquePointer?
                let read = operation == .insert ? sqlite3changeset_new(iterator, column, &value) : sqlite3changeset_old(iterator, column, &value)
                return read == SQLITE_OK ? DatabaseValue(sqliteValue: value) : .null
            }
        }
    }

    /// Walks the row changes of `data` in order, throwing when it is malformed: the one loop
    /// over SQLite's changeset iterator (the public ``changes``, the index upkeep of
    /// ``Database/apply(_:onConflict:)`` and the change events of a recorded transaction).
    static func walk(_ data: Data, _ each: (Row) throws -> Void) throws {
        guard !data.isEmpty else { return }
        guard data.count <= Int(Int32.max) else {
            throw StrataError(kind: .sqlite, resultCode: SQLITE_TOOBIG, message: "the changeset is larger than 2 GB")
        }
        var copy = data
        try copy.withUnsafeMutableBytes { bytes in
            var iterator: OpaquePointer?
            var code = sqlite3changeset_start(&iterator, Int32(bytes.count), bytes.baseAddress)
            guard code == SQLITE_OK, let iterator else {
                throw StrataError(sqliteCode: code, db: nil)
            }
            var thrown: (any Error)?
            while true {
                code = sqlite3changeset_next(iterator)
                guard code == SQLITE_ROW else { break }
                var table: UnsafePointer<CChar>?
                var columnCount: Int32 = 0
                var op: Int32 = 0
                var indirect: Int32 = 0
                code = sqlite3changeset_op(iterator, &table, &columnCount, &op, &indirect)
                guard code == SQLITE_OK else { break }
                let operation: Operation
                switch op {
                case SQLITE_INSERT: operation = .insert
                case SQLITE_DELETE: operation = .delete
                default: operation = .update
                }
                do {
                    try each(Row(iterator: iterator, table: table.map { String(cString: $0) } ?? "", operation: operation, columnCount: columnCount))
                } catch {
                    thrown = error
                    break
                }
            }
            let finalize = sqlite3changeset_finalize(iterator)
            if let thrown { throw thrown }
            if code != SQLITE_DONE && code != SQLITE_OK {
                throw StrataError(
                    kind: .sqlite, resultCode: code & 0xFF, extendedResultCode: code,
                    message: "the data is not a valid changeset (\(String(cString: sqlite3_errstr(code))))")
            }
            if finalize != SQLITE_OK {
                throw StrataError(
                    kind: .sqlite, resultCode: finalize & 0xFF, extendedResultCode: finalize,
                    message: "the data is not a valid changeset (\(String(cString: sqlite3_errstr(finalize))))")
            }
        }
    }
}

extension Changeset: CustomStringConvertible {
    /// A summary: the number of changes per table.
    public var description: String {
        let all = changes
        let parts = tables.map { table in "\(table): \(all.filter { $0.table == table }.count)" }
        return "Changeset(\(all.count) changes\(parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")))"
    }
}

extension Changeset {
    /// True when `data` is framed as a changeset: every table header's name is terminated and
    /// every change's values fit in the data. SQLite's reader does not return on some malformed
    /// bytes (a table name without its terminator, SQLite 3.40), so this runs first.
    static func isWellFramed(_ data: Data) -> Bool {
        tableSections(data) != nil
    }

    /// The table sections of `data` (a table header and its changes), in order, with the
    /// table's name and the section's byte range; nil when `data` is not framed as a changeset.
    static func tableSections(_ data: Data) -> [(table: String, range: Range<Int>)]? {
        let bytes = [UInt8](data)
        var position = 0
        func varint() -> Int? {
            var value = 0
            for index in 0..<9 {
                guard position < bytes.count else { return nil }
                let byte = bytes[position]
                position += 1
                if index == 8 { return value << 8 | Int(byte) }
                value = value << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { return value }
                if value > Int(Int32.max) { return nil }
            }
            return nil
        }
        func record(_ columns: Int) -> Bool {
            for _ in 0..<columns {
                guard position < bytes.count else { return false }
                let type = bytes[position]
                position += 1
                switch type {
                case 0, 5: continue
                case 1, 2: position += 8
                case 3, 4:
                    guard let length = varint(), length >= 0, length <= bytes.count else { return false }
                    position += length
                default: return false
                }
                guard position <= bytes.count else { return false }
            }
            return true
        }
        var sections: [(table: String, range: Range<Int>)] = []
        var columns = -1
        while position < bytes.count {
            let start = position
            let marker = bytes[position]
            position += 1
            switch marker {
            case 0x54:  // a table header (`T`; patchsets, `P`, are not made by Strata)
                guard let count = varint(), count > 0, count <= 32767, position + count <= bytes.count else { return nil }
                position += count
                guard let end = bytes[position...].firstIndex(of: 0) else { return nil }
                let name = String(decoding: bytes[position..<end], as: UTF8.self)
                position = end + 1
                columns = count
                if let last = sections.last {
                    sections[sections.count - 1].range = last.range.lowerBound..<start
                }
                sections.append((name, start..<bytes.count))
            case 18, 9, 23:  // SQLITE_INSERT, SQLITE_DELETE, SQLITE_UPDATE
                guard columns > 0, position < bytes.count else { return nil }
                position += 1  // the indirect flag
                let records = marker == 23 ? 2 : 1
                for _ in 0..<records where !record(columns) { return nil }
            default:
                return nil
            }
        }
        return sections
    }

    /// `data` (a well-framed SQLite changeset) without the sections of the tables `leaveOut`
    /// names (compared as SQLite compares names, ASCII letters folded).
    static func removingTables(_ leaveOut: Set<String>, from data: Data) -> Data {
        guard !leaveOut.isEmpty, let sections = tableSections(data),
            sections.contains(where: { leaveOut.contains(SQLNames.fold($0.table)) })
        else { return data }
        var kept = Data()
        let base = data.startIndex
        for section in sections where !leaveOut.contains(SQLNames.fold(section.table)) {
            kept.append(data[(base + section.range.lowerBound)..<(base + section.range.upperBound)])
        }
        return kept
    }
}

/// SQLite's comparison of identifiers: ASCII letters compare without case.
enum SQLNames {
    /// `name` with its ASCII upper-case letters lowered.
    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
#endif
