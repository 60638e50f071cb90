import Foundation
import GRDB

/// `items` as a GRDB Codable record: what most GRDB code looks like.
struct GItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// `items` as a hand-optimized GRDB record: columns read by index (GRDB's own performance
/// suite), values written by hand.
struct GItemFast: FetchableRecord, PersistableRecord {
    static let databaseTableName = "items"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(i0: Int, i1: Int, i2: Int, i3: Int, i4: Int, i5: Int, i6: Int, i7: Int, i8: Int, i9: Int) {
        (self.i0, self.i1, self.i2, self.i3, self.i4) = (i0, i1, i2, i3, i4)
        (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    init(row: Row) {
        i0 = row[0]; i1 = row[1]; i2 = row[2]; i3 = row[3]; i4 = row[4]
        i5 = row[5]; i6 = row[6]; i7 = row[7]; i8 = row[8]; i9 = row[9]
    }

    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0; container["i1"] = i1; container["i2"] = i2; container["i3"] = i3; container["i4"] = i4
        container["i5"] = i5; container["i6"] = i6; container["i7"] = i7; container["i8"] = i8; container["i9"] = i9
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

/// `events` as a hand-optimized GRDB record.
struct GEventFast: FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"
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

    func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["name"] = name
        container["note"] = note
        container["score"] = score
        container["active"] = active
        container["createdAt"] = createdAt
        container["token"] = token.uuidString
        container["kind"] = kind.rawValue
    }
}

/// The workloads through GRDB 7: a `DatabasePool` (WAL, like Strata), Codable records with the
/// query interface, or hand-optimized records with cached statements.
final class GRDBRunner: Runner {
    let reader: DatabasePool
    let writer: DatabasePool
    let optimized: Bool
    let items: [GItem]
    let fastItems: [GItemFast]
    let events: [GEvent]
    let fastEvents: [GEventFast]

    init(fixture: Fixture, optimized: Bool) throws {
        self.optimized = optimized
        reader = try DatabasePool(path: fixture.readPath)
        writer = try DatabasePool(path: try fixture.writePath(for: optimized ? .grdbOptimized : .grdbCodable))
        let source = TestData.insertedItems
        items = optimized ? [] : source.map { GItem(i0: $0.i0, i1: $0.i1, i2: $0.i2, i3: $0.i3, i4: $0.i4, i5: $0.i5, i6: $0.i6, i7: $0.i7, i8: $0.i8, i9: $0.i9) }
        fastItems = optimized ? source.map { GItemFast(i0: $0.i0, i1: $0.i1, i2: $0.i2, i3: $0.i3, i4: $0.i4, i5: $0.i5, i6: $0.i6, i7: $0.i7, i8: $0.i8, i9: $0.i9) } : []
        events = optimized ? [] : TestData.events.map(GEvent.init)
        fastEvents = optimized ? TestData.events.map(GEventFast.init) : []
    }

    func prepare(_ workload: Workload) throws {
        guard workload.writes else { return }
        try writer.write { db in try db.execute(sql: "DELETE FROM items; DELETE FROM events") }
        _ = try writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    static let findEvent = "SELECT id, name, note, score, active, createdAt, token, kind FROM events WHERE id = ?"
    static let eventsByName = "SELECT id, name, note, score, active, createdAt, token, kind FROM events WHERE name = ?"

    func run(_ workload: Workload) throws -> Int {
        switch (workload, optimized) {
        case (.fetchItems, false):
            return try reader.read { db in try GItem.fetchAll(db) }.count
        case (.fetchItems, true):
            return try reader.read { db in try GItemFast.fetchAll(db) }.count
        case (.insertItems, false):
            return try writer.write { db in
                for item in items { try item.insert(db) }
                return items.count
            }
        case (.insertItems, true):
            return try writer.write { db in
                for item in fastItems { try item.insert(db) }
                return fastItems.count
            }
        case (.insertEvents, false):
            return try writer.write { db in
                for event in events { try event.insert(db) }
                return events.count
            }
        case (.insertEvents, true):
            return try writer.write { db in
                for event in fastEvents { try event.insert(db) }
                return fastEvents.count
            }
        case (.fetchEvents, false):
            return try reader.read { db in try GEvent.fetchAll(db) }.count
        case (.fetchEvents, true):
            return try reader.read { db in try GEventFast.fetchAll(db) }.count
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
                for key in TestData.lookupKeys { sum &+= try GEventFast.fetchOne(statement, arguments: [key])?.id ?? 0 }
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
                for name in TestData.queryNames { sum &+= try GEventFast.fetchAll(statement, arguments: [name]).count }
                return sum
            }
        }
    }
}
