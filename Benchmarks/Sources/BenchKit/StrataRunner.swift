import Foundation
import Strata

/// The workloads through Strata's generated DAOs: what a user of Strata writes.
/// Strata's defaults (WAL, `foreign_keys = ON`) and `synchronous` as ``benchSynchronous``, which
/// is SQLite's default: set anyway, and checked, like every contender's.
final class StrataRunner: Runner {
    let fixture: Fixture
    let reader: Strata.Database
    let writer: Strata.Database
    private var cursorReader: Strata.Database?
    /// The 50-table database's migration, as the generated `<Name>.migrations` constant holds it
    /// (SQL and checksum computed once, at build time in an app).
    let migrations: [Migration]

    init(fixture: Fixture) throws {
        self.fixture = fixture
        reader = try Strata.Database(path: fixture.readPath)
        writer = try Strata.Database(path: try fixture.writePath(for: .strata))
        let synchronous = try writer.writeWithoutTransaction { conn -> (String?, Int?) in
            try conn.execute(sql: "PRAGMA synchronous = \(benchSynchronous)")
            return (try conn.fetchValue(String.self, sql: "PRAGMA journal_mode"), try conn.fetchValue(Int.self, sql: "PRAGMA synchronous"))
        }
        guard synchronous.0 == "wal", synchronous.1 == benchSynchronous else {
            throw BenchError("Strata: not journal_mode wal, synchronous \(benchSynchronous)")
        }
        migrations = [Migration(version: 1, name: "initial", sql: TestData.migratedSchemaSQL)]
        _ = try openAndMigrate()
    }

    /// What an app does at launch: open the database and run the generated `migrate`.
    func openAndMigrate() throws -> Int {
        let db = try Strata.Database(path: fixture.migratePath(for: .strata))
        return try db.writeWithoutTransaction { conn in
            try Migrator(migrations: migrations).migrate(conn, foreignKeys: true).count
        }
    }

    func prepare(_ workload: Workload) throws {
        guard workload.writes else { return }
        try writer.write { conn in
            try conn.execute(sql: "DELETE FROM items")
            try conn.execute(sql: "DELETE FROM events")
            if workload.startsFilled {
                let dao = EventDAO(conn)
                for event in TestData.events { try dao.insert(event) }
            }
        }
        try writer.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }

    func run(_ workload: Workload) throws -> Int {
        switch workload {
        case .fetchItems:
            return try reader.read { conn in try ItemDAO(conn).fetchAll() }.count
        case .insertItems:
            return try writer.write { conn in
                let dao = ItemDAO(conn)
                for item in TestData.insertedItems { try dao.insert(item) }
                return TestData.insertedItems.count
            }
        case .insertEvents:
            return try writer.write { conn in
                let dao = EventDAO(conn)
                for event in TestData.events { try dao.insert(event) }
                return TestData.events.count
            }
        case .fetchEvents:
            return try reader.read { conn in try EventDAO(conn).fetchAll() }.count
        case .lookup:
            return try reader.read { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for key in TestData.lookupKeys { sum &+= try dao.find(id: key)?.id ?? 0 }
                return sum
            }
        case .namedQuery:
            return try reader.read { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for name in TestData.queryNames { sum &+= try dao.byName(name: name).count }
                return sum
            }
        case .fetchWhere:
            return try reader.read { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for first in TestData.whereStarts { sum &+= try dao.fetchAll(where: "id BETWEEN ? AND ?", [first, first + 2]).count }
                return sum
            }
        case .cursorItems:
            if cursorReader == nil { cursorReader = try Strata.Database(path: fixture.cursorPath) }
            guard let cursorReader else { throw BenchError("no cursor database") }
            return try cursorReader.read { conn in
                let cursor = try ItemDAO(conn).cursor()
                var sum = 0
                while let item = try cursor.next() { sum &+= item.i9 }
                return sum
            }
        case .openAndMigrate:
            return try openAndMigrate()
        case .typedLookup:
            return try reader.read { conn in
                let queries = BenchQueries(conn)
                var sum = 0
                for key in TestData.lookupKeys { sum &+= try queries.eventSummary(id: key)?.id ?? 0 }
                return sum
            }
        case .countWhere:
            return try reader.read { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for first in TestData.whereStarts { sum &+= try dao.count(where: "id BETWEEN ? AND ?", [first, first + 2]) }
                return sum
            }
        case .existsWhere:
            return try reader.read { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for key in TestData.whereStarts where try dao.exists(where: "id = ?", [key]) { sum &+= 1 }
                return sum
            }
        case .upsertEvents:
            return try writer.write { conn in
                let dao = EventDAO(conn)
                for event in TestData.changedEvents { try dao.upsert(event) }
                return TestData.changedEvents.count
            }
        case .updateEvents:
            return try writer.write { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for event in TestData.changedEvents where try dao.update(event) { sum &+= 1 }
                return sum
            }
        case .deleteEvents:
            return try writer.write { conn in
                let dao = EventDAO(conn)
                var sum = 0
                for event in TestData.events where try dao.delete(id: event.id) { sum &+= 1 }
                return sum
            }
        }
    }
}
