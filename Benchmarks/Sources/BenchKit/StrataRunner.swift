import Foundation
import Strata

/// The workloads through Strata's generated DAOs: what a user of Strata writes.
final class StrataRunner: Runner {
    let reader: Strata.Database
    let writer: Strata.Database

    init(fixture: Fixture) throws {
        reader = try Strata.Database(path: fixture.readPath)
        writer = try Strata.Database(path: try fixture.writePath(for: .strata))
    }

    func prepare(_ workload: Workload) throws {
        guard workload.writes else { return }
        try writer.write { conn in
            try conn.execute(sql: "DELETE FROM items")
            try conn.execute(sql: "DELETE FROM events")
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
        }
    }
}
