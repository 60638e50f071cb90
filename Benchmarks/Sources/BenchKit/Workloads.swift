import Foundation
import Strata

/// The measured workloads; each is implemented by the ``Implementation``s that
/// ``Implementation/implements(_:)`` lists.
public enum Workload: String, CaseIterable, Sendable {
    /// Fetch 200,000 rows of 10 integer columns (GRDB's performance-suite workload).
    case fetchItems
    /// Insert 50,000 rows of 10 integers in one transaction (GRDB's workload).
    case insertItems
    /// Insert 50,000 realistic records in one transaction.
    case insertEvents
    /// Fetch the 50,000 realistic records back.
    case fetchEvents
    /// 100,000 point lookups by primary key, in one read transaction.
    case lookup
    /// 10,000 calls of a named query with a parameter, on an index, in one read transaction.
    case namedQuery
    /// 10,000 small `fetchAll(where:)` calls (a condition with two parameters, 3 rows each), in
    /// one read transaction.
    case fetchWhere
    /// Iterate 2,000,000 rows of 10 integers with a cursor, one row in memory at a time.
    case cursorItems
    /// Open a 50-table database and run the migrator when nothing is pending: what every app
    /// launch pays. The raw C contender does the same work: it reads the history table and
    /// compares each applied migration's checksum with the one compiled in.
    case openAndMigrate
    /// 100,000 point lookups by primary key through a typed query (`queries:` in the schema,
    /// a three-column projection), in one read transaction: many small queries, where the
    /// generated layer's cost per call matters most.
    case typedLookup
    /// 10,000 `count(where:)` calls (a condition with two parameters), in one read transaction.
    case countWhere
    /// 10,000 `exists(where:)` calls (a condition with one parameter), in one read transaction.
    case existsWhere
    /// 50,000 upserts of existing rows (`ON CONFLICT DO UPDATE`) in one transaction.
    case upsertEvents
    /// 50,000 updates by primary key in one transaction.
    case updateEvents
    /// 50,000 deletes by primary key in one transaction.
    case deleteEvents

    /// Rows (or calls) per run, for per-row figures.
    public var rows: Int {
        switch self {
        case .fetchItems: Sizes.items
        case .insertItems: Sizes.insertedItems
        case .insertEvents, .fetchEvents: Sizes.events
        case .lookup: Sizes.lookups
        case .namedQuery: Sizes.namedQueries
        case .fetchWhere: Sizes.whereCalls
        case .cursorItems: Sizes.cursorRows
        case .openAndMigrate: 1
        case .typedLookup: Sizes.lookups
        case .countWhere, .existsWhere: Sizes.whereCalls
        case .upsertEvents, .updateEvents, .deleteEvents: Sizes.events
        }
    }

    /// True when each run writes: it starts from an empty `items` and `events`, or, when
    /// ``startsFilled``, from `events` holding ``TestData/events``.
    public var writes: Bool { self == .insertItems || self == .insertEvents || startsFilled }

    /// True when each run starts from `events` holding ``TestData/events`` (filled by the
    /// runner's ``Runner/prepare(_:)``, outside the measurement).
    public var startsFilled: Bool { self == .upsertEvents || self == .updateEvents || self == .deleteEvents }

    /// True for the workloads that read the read database's `events`.
    var readsEvents: Bool {
        [.fetchEvents, .lookup, .namedQuery, .fetchWhere, .typedLookup, .countWhere, .existsWhere].contains(self)
    }
}

/// The ways each workload is implemented.
public enum Implementation: String, CaseIterable, Sendable {
    /// Hand-written Swift over the SQLite C API, with prepared statements kept across calls.
    case raw
    /// The same raw C code on a database in the rollback journal (`journal_mode = DELETE`)
    /// instead of WAL: write workloads only.
    case rawRollback
    /// Strata's generated DAOs, compiled by the StrataPlugin.
    case strata
    /// GRDB's best hand-written code: one reused statement with `setUncheckedArguments`,
    /// `init(row:)` reading by index (GRDB's own performance suite).
    case grdbBest
    /// GRDB with `Codable` records and the query interface, as most apps write it.
    case grdbCodable

    /// False for the pairs that are not measured: the rollback journal only matters to writes,
    /// and GRDB's migrator is the same whatever the records look like.
    public func implements(_ workload: Workload) -> Bool {
        switch self {
        case .rawRollback: workload == .insertItems || workload == .insertEvents
        case .grdbCodable: workload != .openAndMigrate
        case .raw, .strata, .grdbBest: true
        }
    }
}

/// Row counts of the workloads: the full sizes, or tiny ones when the environment variable
/// `STRATA_BENCH_QUICK` is set (`run.sh --quick`, which CI runs so the harness cannot rot).
public enum Sizes {
    public static let quick = ProcessInfo.processInfo.environment["STRATA_BENCH_QUICK"].map { !$0.isEmpty && $0 != "0" } ?? false
    public static let items = quick ? 2_000 : 200_000
    public static let insertedItems = quick ? 500 : 50_000
    public static let events = quick ? 500 : 50_000
    public static let lookups = quick ? 1_000 : 100_000
    public static let namedQueries = quick ? 100 : 10_000
    public static let whereCalls = quick ? 100 : 10_000
    public static let cursorRows = quick ? 20_000 : 2_000_000
    /// Tables of the database `openAndMigrate` opens.
    public static let migratedTables = 50
}

/// Deterministic test data, made once, outside measurements.
public enum TestData {
    public static func item(_ i: Int) -> Item {
        Item(i0: i + 1, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i)
    }

    public static func event(_ i: Int) -> Event {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)
        bytes.12 = UInt8(truncatingIfNeeded: i >> 24)
        bytes.13 = UInt8(truncatingIfNeeded: i >> 16)
        bytes.14 = UInt8(truncatingIfNeeded: i >> 8)
        bytes.15 = UInt8(truncatingIfNeeded: i)
        return Event(
            id: i + 1,
            name: "event name \(i)",
            note: i % 3 == 0 ? nil : "a note about event \(i)",
            score: Double(i) * 0.25,
            active: i % 2 == 0,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(i) * 1.5),
            token: UUID(uuid: bytes),
            kind: Event.Kind.allCases[i % 3])
    }

    public static let insertedItems: [Item] = (0..<Sizes.insertedItems).map(item)
    public static let events: [Event] = (0..<Sizes.events).map(event)
    /// ``events`` with other values in every column but the key: what `upsertEvents` and
    /// `updateEvents` write over them.
    public static let changedEvents: [Event] = events.enumerated().map { i, event in
        var changed = event
        changed.name += " (changed)"
        changed.note = event.note == nil ? "a new note" : nil
        changed.score += 1
        changed.active.toggle()
        changed.createdAt += 60
        changed.kind = Event.Kind.allCases[(i + 1) % 3]
        return changed
    }
    /// Keys to look up: spread over the table, every one present.
    public static let lookupKeys: [Int] = (0..<Sizes.lookups).map { ($0 &* 7919) % Sizes.events + 1 }
    /// Names for the named query: each matches one row.
    public static let queryNames: [String] = (0..<Sizes.namedQueries).map { "event name \(($0 &* 104_729) % Sizes.events)" }
    /// First ids of the `fetchWhere` ranges (`id BETWEEN first AND first + 2`): three rows each.
    public static let whereStarts: [Int] = (0..<Sizes.whereCalls).map { ($0 &* 7919) % (Sizes.events - 2) + 1 }

    /// The SQL of the 50-table database of `openAndMigrate`: tables of eight columns of the
    /// common types, each with a foreign key to the one before and an index, as a migration
    /// file written by `strata migration new` would hold.
    public static let migratedSchemaSQL: String = (0..<Sizes.migratedTables).map { i in
        let parent = i == 0 ? "" : ",\n  \"parentId\" INTEGER REFERENCES \"table_\(i - 1)\" (\"id\") ON DELETE SET NULL"
        return """
            CREATE TABLE "table_\(i)" (
              "id" INTEGER PRIMARY KEY AUTOINCREMENT,
              "name" TEXT NOT NULL,
              "note" TEXT,
              "amount" REAL NOT NULL DEFAULT 0,
              "active" INTEGER NOT NULL DEFAULT 1 CHECK ("active" IN (0, 1)),
              "createdAt" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
              "token" TEXT NOT NULL,
              "kind" TEXT NOT NULL DEFAULT 'small' CHECK ("kind" IN ('small', 'medium', 'large'))\(parent)
            ) STRICT;
            CREATE INDEX "table_\(i)_name" ON "table_\(i)" ("name");

            """
    }.joined()
}

/// The database files of a run, in a fresh temporary directory.
public final class Fixture: Sendable {
    public let directory: URL
    /// Items and events, filled once: what the read workloads read.
    public let readPath: String

    /// Fills the read database with what `workloads` read (all of them by default).
    public init(for workloads: [Workload] = Workload.allCases) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        readPath = directory.appendingPathComponent("read.sqlite").path
        let db = try Strata.Database(path: readPath)
        try Bench.migrate(db)
        try db.write { conn in
            if workloads.contains(.fetchItems) {
                let items = ItemDAO(conn)
                for i in 0..<Sizes.items { try items.insert(TestData.item(i)) }
            }
            if workloads.contains(where: \.readsEvents) {
                let events = EventDAO(conn)
                for event in TestData.events { try events.insert(event) }
            }
        }
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        cursorPath = directory.appendingPathComponent("cursor.sqlite").path
        if workloads.contains(.cursorItems) {
            let cursorDB = try Strata.Database(path: cursorPath)
            try Bench.migrate(cursorDB)
            try cursorDB.write { conn in
                let items = ItemDAO(conn)
                for i in 0..<Sizes.cursorRows { try items.insert(TestData.item(i)) }
            }
            try cursorDB.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// `items` with ``Sizes/cursorRows`` rows, for `cursorItems` (made when that workload is
    /// asked for).
    public let cursorPath: String

    /// A path for `implementation`'s own 50-table database of `openAndMigrate`: each migrator
    /// creates and records it its own way.
    public func migratePath(for implementation: Implementation) -> String {
        directory.appendingPathComponent("migrate-\(implementation.rawValue).sqlite").path
    }

    /// A migrated, empty database file for `implementation`'s write workloads.
    public func writePath(for implementation: Implementation) throws -> String {
        let path = directory.appendingPathComponent("write-\(implementation.rawValue).sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            try Bench.migrate(try Strata.Database(path: path))
        }
        return path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One implementation's connections and prepared state; `run` does one workload once.
public protocol Runner: AnyObject {
    /// Work done before each run, outside the measurement (emptying a table).
    func prepare(_ workload: Workload) throws
    /// Runs `workload` once and returns a checksum, so nothing is optimized away.
    func run(_ workload: Workload) throws -> Int
}

public func makeRunner(_ implementation: Implementation, fixture: Fixture) throws -> any Runner {
    switch implementation {
    case .raw: try RawRunner(fixture: fixture, rollbackJournal: false)
    case .rawRollback: try RawRunner(fixture: fixture, rollbackJournal: true)
    case .strata: try StrataRunner(fixture: fixture)
    case .grdbCodable: try GRDBRunner(fixture: fixture, optimized: false)
    case .grdbBest: try GRDBRunner(fixture: fixture, optimized: true)
    }
}

/// The `PRAGMA synchronous` every contender's writer runs with: FULL (2), SQLite's default
/// and Strata's. GRDB's `DatabasePool` sets NORMAL on its own, so its runner sets FULL back.
public let benchSynchronous = 2

public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
