import Foundation
import GRDB

/// `items` as a GRDB Codable record: what most GRDB code looks like.
struct GItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// `items` as GRDB's performance suite reads it: columns by index in `init(row:)`.
struct GItemFast: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(row: Row) {
        i0 = row[0]; i1 = row[1]; i2 = row[2]; i3 = row[3]; i4 = row[4]
        i5 = row[5]; i6 = row[6]; i7 = row[7]; i8 = row[8]; i9 = row[9]
    }
}

/// `events` as a GRDB Codable record, storing UUIDs as upper-case text like Strata (GRDB's
/// default date format already matches Strata's).
struct GEvent: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    var id: Int
    var name: String
    var note: String?
    var score: Double
    var active: Bool
    var createdAt: Date
    var token: UUID
    var kind: Event.Kind

    init(_ event: Event) {
        (id, name, note, score, active) = (event.id, event.name, event.note, event.score, event.active)
        (createdAt, token, kind) = (event.createdAt, event.token, event.kind)
    }
}

/// `events` as GRDB's best hand-written code reads it: columns by index in `init(row:)`.
struct GEventFast: FetchableRecord {
    var id: Int
    var name: String
    var note: String?
    var score: Double
    var active: Bool
    var createdAt: Date
    var token: UUID
    var kind: Event.Kind

    init(row: Row) throws {
        id = row[0]
        name = row[1]
        note = row[2]
        score = row[3]
        active = row[4]
        createdAt = row[5]
        token = row[6]
        guard let kind = Event.Kind(rawValue: row[7]) else { throw BenchError("bad kind") }
        self.kind = kind
    }
}

/// `eventSummary`'s row as a GRDB Decodable record (the typedLookup workload).
struct GSummary: Decodable, FetchableRecord {
    var id: Int
    var name: String
    var score: Double
}

/// `eventSummary`'s row read by column index, as GRDB's best hand-written code does.
struct GSummaryFast: FetchableRecord {
    var id: Int
    var name: String
    var score: Double

    init(row: Row) {
        id = row[0]
        name = row[1]
        score = row[2]
    }
}

/// The workloads through GRDB 7: a `DatabasePool` (WAL, like Strata) whose writer runs with
/// `synchronous` as ``benchSynchronous`` (the pool sets NORMAL on its own; it is set back and
/// checked). Two ways:
/// - **best** (`optimized`): GRDB's own performance-suite style: one statement per SQL, reused,
///   with `setUncheckedArguments` (no argument validation, no `PersistenceContainer`), and
///   records read by column index in `init(row:)`;
/// - **Codable**: `Codable & FetchableRecord & PersistableRecord` records with the query
///   interface (`record.insert(db)`, `fetchAll(db)`, `fetchOne(db, key:)`, `filter`): GRDB as
///   most apps write it.
final class GRDBRunner: Runner {
    let fixture: Fixture
    let reader: DatabasePool
    let writer: DatabasePool
    let optimized: Bool
    let items: [GItem]
    let events: [GEvent]
    let changedEvents: [GEvent]
    private var cursorReader: DatabasePool?
    let migrator: DatabaseMigrator

    init(fixture: Fixture, optimized: Bool) throws {
        self.fixture = fixture
        self.optimized = optimized
        reader = try DatabasePool(path: fixture.readPath)
        writer = try DatabasePool(path: try fixture.writePath(for: optimized ? .grdbBest : .grdbCodable))
        let pragmas = try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(benchSynchronous)")
            return (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        guard pragmas.0 == "wal", pragmas.1 == benchSynchronous else {
            throw BenchError("GRDB: not journal_mode wal, synchronous \(benchSynchronous)")
        }
        items = optimized ? [] : TestData.insertedItems.map {
            GItem(i0: $0.i0, i1: $0.i1, i2: $0.i2, i3: $0.i3, i4: $0.i4, i5: $0.i5, i6: $0.i6, i7: $0.i7, i8: $0.i8, i9: $0.i9)
        }
        events = optimized ? [] : TestData.events.map(GEvent.init)
        changedEvents = optimized ? [] : TestData.changedEvents.map(GEvent.init)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("initial") { db in try db.execute(sql: TestData.migratedSchemaSQL) }
        self.migrator = migrator
        if optimized { _ = try openAndMigrate() }
    }

    /// What an app does at launch: open the pool and run the migrator.
    func openAndMigrate() throws -> Int {
        let pool = try DatabasePool(path: fixture.migratePath(for: .grdbBest))
        try migrator.migrate(pool)
        return try pool.read { db in try migrator.appliedIdentifiers(db).count }
    }

    func prepare(_ workload: Workload) throws {
        guard workload.writes else { return }
        try writer.write { db in
            try db.execute(sql: "DELETE FROM items; DELETE FROM events")
            if workload.startsFilled {
                let statement = try db.cachedStatement(sql: Self.insertEvent)
                for event in TestData.events {
                    statement.setUncheckedArguments(Self.arguments(event))
                    try statement.execute()
                }
            }
        }
        _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    static let insertItem = "INSERT INTO items (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertEvent = "INSERT INTO events (id, name, note, score, active, createdAt, token, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectItems = "SELECT i0, i1, i2, i3, i4, i5, i6, i7, i8, i9 FROM items"
    static let selectEvents = "SELECT id, name, note, score, active, createdAt, token, kind FROM events"
    static let findEvent = selectEvents + " WHERE id = ?"
    static let eventsByName = selectEvents + " WHERE name = ?"
    static let eventsWhere = selectEvents + " WHERE id BETWEEN ? AND ?"
    static let upsertEvent = insertEvent + " ON CONFLICT (id) DO UPDATE SET name = excluded.name, note = excluded.note, score = excluded.score, "
        + "active = excluded.active, createdAt = excluded.createdAt, token = excluded.token, kind = excluded.kind"
    static let updateEvent = "UPDATE events SET name = ?, note = ?, score = ?, active = ?, createdAt = ?, token = ?, kind = ? WHERE id = ?"
    static let deleteEvent = "DELETE FROM events WHERE id = ?"
    static let eventSummary = "SELECT id, name, score FROM events WHERE id = ?"
    static let countWhere = "SELECT count(*) FROM events WHERE id BETWEEN ? AND ?"
    static let existsWhere = "SELECT 1 FROM events WHERE id = ? LIMIT 1"

    /// `event`'s columns in table order, for `setUncheckedArguments`.
    static func arguments(_ event: Event) -> StatementArguments {
        [event.id, event.name, event.note, event.score, event.active, event.createdAt, event.token.uuidString, event.kind.rawValue]
    }

    func run(_ workload: Workload) throws -> Int {
        switch (workload, optimized) {
        case (.fetchItems, false):
            return try reader.read { db in try GItem.fetchAll(db) }.count
        case (.fetchItems, true):
            return try reader.read { db in try GItemFast.fetchAll(db, sql: Self.selectItems) }.count
        case (.insertItems, false):
            return try writer.write { db in
                for item in items { try item.insert(db) }
                return items.count
            }
        case (.insertItems, true):
            return try writer.write { db in
                let statement = try db.cachedStatement(sql: Self.insertItem)
                for item in TestData.insertedItems {
                    statement.setUncheckedArguments([item.i0, item.i1, item.i2, item.i3, item.i4, item.i5, item.i6, item.i7, item.i8, item.i9])
                    try statement.execute()
                }
                return TestData.insertedItems.count
            }
        case (.insertEvents, false):
            return try writer.write { db in
                for event in events { try event.insert(db) }
                return events.count
            }
        case (.insertEvents, true):
            return try writer.write { db in
                let statement = try db.cachedStatement(sql: Self.insertEvent)
                for event in TestData.events {
                    statement.setUncheckedArguments(Self.arguments(event))
                    try statement.execute()
                }
                return TestData.events.count
            }
        case (.fetchEvents, false):
            return try reader.read { db in try GEvent.fetchAll(db) }.count
        case (.fetchEvents, true):
            return try reader.read { db in try GEventFast.fetchAll(db, sql: Self.selectEvents) }.count
        case (.lookup, false):
            return try reader.read { db in
                var sum = 0
                for key in TestData.lookupKeys { sum &+= try GEvent.fetchOne(db, key: key)?.id ?? 0 }
                return sum
            }
        case (.lookup, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.findEvent)
                var sum = 0
                for key in TestData.lookupKeys {
                    statement.setUncheckedArguments([key])
                    sum &+= try GEventFast.fetchOne(statement)?.id ?? 0
                }
                return sum
            }
        case (.namedQuery, false):
            return try reader.read { db in
                var sum = 0
                for name in TestData.queryNames { sum &+= try GEvent.filter(Column("name") == name).fetchAll(db).count }
                return sum
            }
        case (.namedQuery, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.eventsByName)
                var sum = 0
                for name in TestData.queryNames {
                    statement.setUncheckedArguments([name])
                    sum &+= try GEventFast.fetchAll(statement).count
                }
                return sum
            }
        case (.fetchWhere, false):
            return try reader.read { db in
                var sum = 0
                for first in TestData.whereStarts {
                    sum &+= try GEvent.filter((first...(first + 2)).contains(Column("id"))).fetchAll(db).count
                }
                return sum
            }
        case (.fetchWhere, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.eventsWhere)
                var sum = 0
                for first in TestData.whereStarts {
                    statement.setUncheckedArguments([first, first + 2])
                    sum &+= try GEventFast.fetchAll(statement).count
                }
                return sum
            }
        case (.cursorItems, _):
            if cursorReader == nil { cursorReader = try DatabasePool(path: fixture.cursorPath) }
            guard let cursorReader else { throw BenchError("no cursor database") }
            return try cursorReader.read { db in
                var sum = 0
                if optimized {
                    let cursor = try GItemFast.fetchCursor(db, sql: Self.selectItems)
                    while let item = try cursor.next() { sum &+= item.i9 }
                } else {
                    let cursor = try GItem.fetchCursor(db)
                    while let item = try cursor.next() { sum &+= item.i9 }
                }
                return sum
            }
        case (.openAndMigrate, _):
            return try openAndMigrate()
        case (.typedLookup, false):
            return try reader.read { db in
                var sum = 0
                for key in TestData.lookupKeys { sum &+= try GSummary.fetchOne(db, sql: Self.eventSummary, arguments: [key])?.id ?? 0 }
                return sum
            }
        case (.typedLookup, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.eventSummary)
                var sum = 0
                for key in TestData.lookupKeys {
                    statement.setUncheckedArguments([key])
                    sum &+= try GSummaryFast.fetchOne(statement)?.id ?? 0
                }
                return sum
            }
        case (.countWhere, false):
            return try reader.read { db in
                var sum = 0
                for first in TestData.whereStarts { sum &+= try GEvent.filter((first...(first + 2)).contains(Column("id"))).fetchCount(db) }
                return sum
            }
        case (.countWhere, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.countWhere)
                var sum = 0
                for first in TestData.whereStarts {
                    statement.setUncheckedArguments([first, first + 2])
                    sum &+= try Int.fetchOne(statement) ?? 0
                }
                return sum
            }
        case (.existsWhere, false):
            return try reader.read { db in
                var sum = 0
                for key in TestData.whereStarts where try GEvent.exists(db, key: key) { sum &+= 1 }
                return sum
            }
        case (.existsWhere, true):
            return try reader.read { db in
                let statement = try db.cachedStatement(sql: Self.existsWhere)
                var sum = 0
                for key in TestData.whereStarts {
                    statement.setUncheckedArguments([key])
                    if try Int.fetchOne(statement) != nil { sum &+= 1 }
                }
                return sum
            }
        case (.upsertEvents, false):
            return try writer.write { db in
                for event in changedEvents { try event.upsert(db) }
                return changedEvents.count
            }
        case (.upsertEvents, true):
            return try writer.write { db in
                let statement = try db.cachedStatement(sql: Self.upsertEvent)
                for event in TestData.changedEvents {
                    statement.setUncheckedArguments(Self.arguments(event))
                    try statement.execute()
                }
                return TestData.changedEvents.count
            }
        case (.updateEvents, false):
            return try writer.write { db in
                var sum = 0
                for event in changedEvents {
                    try event.update(db)
                    sum &+= 1
                }
                return sum
            }
        case (.updateEvents, true):
            return try writer.write { db in
                let statement = try db.cachedStatement(sql: Self.updateEvent)
                var sum = 0
                for event in TestData.changedEvents {
                    statement.setUncheckedArguments([
                        event.name, event.note, event.score, event.active, event.createdAt, event.token.uuidString, event.kind.rawValue, event.id,
                    ])
                    try statement.execute()
                    if db.changesCount > 0 { sum &+= 1 }
                }
                return sum
            }
        case (.deleteEvents, false):
            return try writer.write { db in
                var sum = 0
                for event in TestData.events where try GEvent.deleteOne(db, key: event.id) { sum &+= 1 }
                return sum
            }
        case (.deleteEvents, true):
            return try writer.write { db in
                let statement = try db.cachedStatement(sql: Self.deleteEvent)
                var sum = 0
                for event in TestData.events {
                    statement.setUncheckedArguments([event.id])
                    try statement.execute()
                    if db.changesCount > 0 { sum &+= 1 }
                }
                return sum
            }
        }
    }
}
