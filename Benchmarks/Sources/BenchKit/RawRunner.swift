import CSQLiteRaw
import Foundation
import Strata

/// The workloads written by hand over the SQLite C API: statements prepared once and kept,
/// binding and reading by index, the same record structs, dates and UUIDs in the same text
/// formats (through the same formatting functions). The baseline Strata should match.
/// Connections are opened with `SQLITE_OPEN_NOMUTEX` and the PRAGMAs Strata runs
/// (`journal_mode = WAL`, `foreign_keys = ON`, `synchronous` as ``benchSynchronous``); with
/// `rollbackJournal`, the writer uses the rollback journal (`journal_mode = DELETE`) instead.
final class RawRunner: Runner {
    let fixture: Fixture
    let reader: RawConnection
    let writer: RawConnection
    private var cursorReader: RawConnection?

    init(fixture: Fixture, rollbackJournal: Bool) throws {
        self.fixture = fixture
        reader = try RawConnection(path: fixture.readPath)
        writer = try RawConnection(
            path: try fixture.writePath(for: rollbackJournal ? .rawRollback : .raw), journalMode: rollbackJournal ? "delete" : "wal")
        try writer.checkPragmas(journalMode: rollbackJournal ? "delete" : "wal")
        // The 50-table database of openAndMigrate, created by its first "launch".
        try Self.openAndMigrate(fixture.migratePath(for: .raw))
    }

    func prepare(_ workload: Workload) throws {
        guard workload.writes else { return }
        try writer.execute("DELETE FROM items; DELETE FROM events")
        if workload.startsFilled {
            try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.insertEvent)
                for event in TestData.events { try insert(event, statement) }
            }
        }
        if writer.journalMode == "wal" { try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    func run(_ workload: Workload) throws -> Int {
        switch workload {
        case .fetchItems:
            return try reader.transaction("BEGIN") { try fetchItems().count }
        case .insertItems:
            return try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.insertItem)
                for item in TestData.insertedItems { try insert(item, statement) }
                return TestData.insertedItems.count
            }
        case .insertEvents:
            return try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.insertEvent)
                for event in TestData.events { try insert(event, statement) }
                return TestData.events.count
            }
        case .fetchEvents:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.selectEvents)
                defer { sqlite3_reset(statement) }
                var events: [Event] = []
                while try reader.step(statement) { events.append(try Self.event(statement)) }
                return events.count
            }
        case .lookup:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.findEvent)
                var sum = 0
                for key in TestData.lookupKeys {
                    sqlite3_bind_int64(statement, 1, Int64(key))
                    if try reader.step(statement) { sum &+= try Self.event(statement).id }
                    sqlite3_reset(statement)
                }
                return sum
            }
        case .namedQuery:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.eventsByName)
                var sum = 0
                for name in TestData.queryNames {
                    try bindText(statement, 1, name)
                    var events: [Event] = []
                    while try reader.step(statement) { events.append(try Self.event(statement)) }
                    sqlite3_reset(statement)
                    sum &+= events.count
                }
                return sum
            }
        case .fetchWhere:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.eventsWhere)
                var sum = 0
                for first in TestData.whereStarts {
                    sqlite3_bind_int64(statement, 1, Int64(first))
                    sqlite3_bind_int64(statement, 2, Int64(first + 2))
                    var events: [Event] = []
                    while try reader.step(statement) { events.append(try Self.event(statement)) }
                    sqlite3_reset(statement)
                    sum &+= events.count
                }
                return sum
            }
        case .cursorItems:
            let connection = try cursorConnection()
            return try connection.transaction("BEGIN") {
                let statement = try connection.statement(Self.selectItems)
                defer { sqlite3_reset(statement) }
                var sum = 0
                while try connection.step(statement) { sum &+= Self.item(statement).i9 }
                return sum
            }
        case .openAndMigrate:
            return try Self.openAndMigrate(fixture.migratePath(for: .raw))
        case .typedLookup:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.eventSummary)
                var sum = 0
                for key in TestData.lookupKeys {
                    sqlite3_bind_int64(statement, 1, Int64(key))
                    if try reader.step(statement) {
                        let row = Summary(id: Int(sqlite3_column_int64(statement, 0)), name: Self.text(statement, 1), score: sqlite3_column_double(statement, 2))
                        sum &+= row.id
                    }
                    sqlite3_reset(statement)
                }
                return sum
            }
        case .countWhere:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.countWhere)
                var sum = 0
                for first in TestData.whereStarts {
                    sqlite3_bind_int64(statement, 1, Int64(first))
                    sqlite3_bind_int64(statement, 2, Int64(first + 2))
                    if try reader.step(statement) { sum &+= Int(sqlite3_column_int64(statement, 0)) }
                    sqlite3_reset(statement)
                }
                return sum
            }
        case .existsWhere:
            return try reader.transaction("BEGIN") {
                let statement = try reader.statement(Self.existsWhere)
                var sum = 0
                for key in TestData.whereStarts {
                    sqlite3_bind_int64(statement, 1, Int64(key))
                    if try reader.step(statement) { sum &+= 1 }
                    sqlite3_reset(statement)
                }
                return sum
            }
        case .upsertEvents:
            return try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.upsertEvent)
                for event in TestData.changedEvents { try insert(event, statement) }
                return TestData.changedEvents.count
            }
        case .updateEvents:
            return try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.updateEvent)
                var sum = 0
                for event in TestData.changedEvents {
                    try bindColumns(of: event, statement, from: 1)
                    sqlite3_bind_int64(statement, 8, Int64(event.id))
                    try writer.done(statement)
                    if sqlite3_changes(writer.handle) > 0 { sum &+= 1 }
                }
                return sum
            }
        case .deleteEvents:
            return try writer.transaction("BEGIN IMMEDIATE") {
                let statement = try writer.statement(Self.deleteEvent)
                var sum = 0
                for event in TestData.events {
                    sqlite3_bind_int64(statement, 1, Int64(event.id))
                    try writer.done(statement)
                    if sqlite3_changes(writer.handle) > 0 { sum &+= 1 }
                }
                return sum
            }
        }
    }

    /// The row of `eventSummary`, as a hand-written struct.
    struct Summary {
        var id: Int
        var name: String
        var score: Double
    }

    private func cursorConnection() throws -> RawConnection {
        if let cursorReader { return cursorReader }
        let connection = try RawConnection(path: fixture.cursorPath)
        cursorReader = connection
        return connection
    }

    /// The migrations an app on the C API compiles in: version and checksum (computed once, as
    /// Strata's generated constant holds it).
    static let migrations: [(version: Int, checksum: String)] = [(1, Migration.checksum(of: TestData.migratedSchemaSQL))]

    /// What an app on the C API does at launch when it keeps a migration history as Strata's
    /// migrator does: open, set the PRAGMAs, and in one read transaction read `user_version`
    /// and the history table (version, checksum), comparing each applied migration's checksum
    /// with the compiled-in one; create the schema and record it when nothing is applied.
    /// Returns the migrations applied by this call.
    @discardableResult
    static func openAndMigrate(_ path: String) throws -> Int {
        let connection = try RawConnection(path: path, create: true)
        let (userVersion, applied) = try connection.transaction("BEGIN") { () throws -> (Int, [(Int, String)]) in
            let version = try connection.statement("PRAGMA user_version")
            defer { sqlite3_reset(version) }
            guard try connection.step(version) else { throw BenchError("no user_version") }
            let userVersion = Int(sqlite3_column_int64(version, 0))
            guard userVersion > 0 else { return (0, []) }
            let history = try connection.statement("SELECT version, checksum FROM app_migrations ORDER BY version")
            defer { sqlite3_reset(history) }
            var applied: [(Int, String)] = []
            while try connection.step(history) { applied.append((Int(sqlite3_column_int64(history, 0)), Self.text(history, 1))) }
            return (userVersion, applied)
        }
        for (index, row) in applied.enumerated() {
            guard index < migrations.count, migrations[index].version == row.0, migrations[index].checksum == row.1 else {
                throw BenchError("migration \(row.0) was changed after it was applied")
            }
        }
        guard applied.count < migrations.count || userVersion < migrations.count else { return 0 }
        try connection.transaction("BEGIN IMMEDIATE") {
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS app_migrations (version INTEGER PRIMARY KEY NOT NULL, checksum TEXT NOT NULL)")
            try connection.execute(TestData.migratedSchemaSQL)
            try connection.execute("INSERT INTO app_migrations (version, checksum) VALUES (1, '\(migrations[0].checksum)')")
            try connection.execute("PRAGMA user_version = 1")
        }
        return 1
    }

    static let selectItems = "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM items"
    static let insertItem = "INSERT INTO items (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectEvents = "SELECT id, name, note, score, active, createdAt, token, kind FROM events"
    static let findEvent = selectEvents + " WHERE id = ?"
    static let eventsByName = selectEvents + " WHERE name = ?"
    static let eventsWhere = selectEvents + " WHERE id BETWEEN ? AND ?"
    static let insertEvent = "INSERT INTO events (id, name, note, score, active, createdAt, token, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let upsertEvent = insertEvent + " ON CONFLICT (id) DO UPDATE SET name = excluded.name, note = excluded.note, score = excluded.score, "
        + "active = excluded.active, createdAt = excluded.createdAt, token = excluded.token, kind = excluded.kind"
    static let updateEvent = "UPDATE events SET name = ?, note = ?, score = ?, active = ?, createdAt = ?, token = ?, kind = ? WHERE id = ?"
    static let deleteEvent = "DELETE FROM events WHERE id = ?"
    static let eventSummary = "SELECT id, name, score FROM events WHERE id = ?"
    static let countWhere = "SELECT count(*) FROM events WHERE id BETWEEN ? AND ?"
    static let existsWhere = "SELECT 1 FROM events WHERE id = ? LIMIT 1"

    func fetchItems() throws -> [Item] {
        let statement = try reader.statement(Self.selectItems)
        defer { sqlite3_reset(statement) }
        var items: [Item] = []
        while try reader.step(statement) { items.append(Self.item(statement)) }
        return items
    }

    @inline(__always)
    static func item(_ statement: OpaquePointer) -> Item {
        Item(
            i0: Int(sqlite3_column_int64(statement, 0)), i1: Int(sqlite3_column_int64(statement, 1)),
            i2: Int(sqlite3_column_int64(statement, 2)), i3: Int(sqlite3_column_int64(statement, 3)),
            i4: Int(sqlite3_column_int64(statement, 4)), i5: Int(sqlite3_column_int64(statement, 5)),
            i6: Int(sqlite3_column_int64(statement, 6)), i7: Int(sqlite3_column_int64(statement, 7)),
            i8: Int(sqlite3_column_int64(statement, 8)), i9: Int(sqlite3_column_int64(statement, 9)))
    }

    func insert(_ item: Item, _ statement: OpaquePointer) throws {
        sqlite3_bind_int64(statement, 1, Int64(item.i0))
        sqlite3_bind_int64(statement, 2, Int64(item.i1))
        sqlite3_bind_int64(statement, 3, Int64(item.i2))
        sqlite3_bind_int64(statement, 4, Int64(item.i3))
        sqlite3_bind_int64(statement, 5, Int64(item.i4))
        sqlite3_bind_int64(statement, 6, Int64(item.i5))
        sqlite3_bind_int64(statement, 7, Int64(item.i6))
        sqlite3_bind_int64(statement, 8, Int64(item.i7))
        sqlite3_bind_int64(statement, 9, Int64(item.i8))
        sqlite3_bind_int64(statement, 10, Int64(item.i9))
        try writer.done(statement)
    }

    func insert(_ event: Event, _ statement: OpaquePointer) throws {
        sqlite3_bind_int64(statement, 1, Int64(event.id))
        try bindColumns(of: event, statement, from: 2)
        try writer.done(statement)
    }

    /// Binds `event`'s columns after the key (name … kind) to parameters `first`, `first + 1` ….
    @inline(__always)
    func bindColumns(of event: Event, _ statement: OpaquePointer, from first: Int32) throws {
        try bindText(statement, first, event.name)
        if let note = event.note { try bindText(statement, first + 1, note) } else { sqlite3_bind_null(statement, first + 1) }
        sqlite3_bind_double(statement, first + 2, event.score)
        sqlite3_bind_int64(statement, first + 3, event.active ? 1 : 0)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            let base = buffer.baseAddress!
            let count = DateFormat.write(event.createdAt, into: base)
            base.withMemoryRebound(to: CChar.self, capacity: count) { _ = raw_bind_text(statement, first + 4, $0, Int32(count)) }
            UUIDFormat.write(event.token, into: base)
            base.withMemoryRebound(to: CChar.self, capacity: 36) { _ = raw_bind_text(statement, first + 5, $0, 36) }
        }
        try bindText(statement, first + 6, event.kind.rawValue)
    }

    func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) throws {
        var text = text
        let code = text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return raw_bind_text(statement, index, "", 0) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { raw_bind_text(statement, index, $0, Int32(bytes.count)) }
        }
        guard code == SQLITE_OK else { throw BenchError("bind failed: \(code)") }
    }

    @inline(__always)
    static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    static func event(_ statement: OpaquePointer) throws -> Event {
        guard let dateBytes = sqlite3_column_text(statement, 5),
            let createdAt = DateFormat.date(fromUTF8: UnsafeBufferPointer(start: dateBytes, count: Int(sqlite3_column_bytes(statement, 5)))),
            let uuidBytes = sqlite3_column_text(statement, 6),
            let token = UUIDFormat.uuid(fromUTF8: UnsafeBufferPointer(start: uuidBytes, count: Int(sqlite3_column_bytes(statement, 6)))),
            let kind = Event.Kind(rawValue: text(statement, 7))
        else { throw BenchError("bad event row") }
        return Event(
            id: Int(sqlite3_column_int64(statement, 0)),
            name: text(statement, 1),
            note: sqlite3_column_type(statement, 2) == SQLITE_NULL ? nil : text(statement, 2),
            score: sqlite3_column_double(statement, 3),
            active: sqlite3_column_int64(statement, 4) != 0,
            createdAt: createdAt,
            token: token,
            kind: kind)
    }
}

/// A bare connection: opened without SQLite's mutex (one thread uses it), statements prepared
/// once per SQL text.
final class RawConnection {
    let handle: OpaquePointer
    let journalMode: String
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, journalMode: String = "wal", create: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            throw BenchError("cannot open \(path)")
        }
        self.handle = handle
        self.journalMode = journalMode
        try execute("PRAGMA journal_mode = \(journalMode); PRAGMA foreign_keys = ON; PRAGMA synchronous = \(benchSynchronous)")
    }

    /// Throws unless the connection runs with `journalMode` and ``benchSynchronous``.
    func checkPragmas(journalMode: String) throws {
        let mode = try statement("PRAGMA journal_mode")
        defer { sqlite3_reset(mode) }
        let sync = try statement("PRAGMA synchronous")
        defer { sqlite3_reset(sync) }
        guard try step(mode), try step(sync), Self.text(mode, 0) == journalMode,
            sqlite3_column_int64(sync, 0) == Int64(benchSynchronous)
        else { throw BenchError("raw C: not journal_mode \(journalMode), synchronous \(benchSynchronous)") }
    }

    static func text(_ statement: OpaquePointer, _ index: Int32) -> String {
        sqlite3_column_text(statement, index).map { String(cString: $0) } ?? ""
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError(String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// The prepared statement for `sql`; prepared on first use, then kept.
    func statement(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError(String(cString: sqlite3_errmsg(handle)))
        }
        statements[sql] = statement
        return statement
    }

    @inline(__always)
    func step(_ statement: OpaquePointer) throws -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw BenchError(String(cString: sqlite3_errmsg(handle)))
    }

    @inline(__always)
    func done(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(handle))) }
    }

    func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
