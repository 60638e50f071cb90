import Foundation
import Strata

/// The measured workloads; each is implemented by every ``Implementation``.
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

    /// Rows (or calls) per run, for per-row figures.
    public var rows: Int {
        switch self {
        case .fetchItems: Sizes.items
        case .insertItems: Sizes.insertedItems
        case .insertEvents, .fetchEvents: Sizes.events
        case .lookup: Sizes.lookups
        case .namedQuery: Sizes.namedQueries
        }
    }

    /// True when each run must start from an empty table.
    public var writes: Bool { self == .insertItems || self == .insertEvents }
}

/// The ways each workload is implemented.
public enum Implementation: String, CaseIterable, Sendable {
    /// Hand-written Swift over the SQLite C API, with prepared statements kept across calls.
    case raw
    /// Strata's generated DAOs, compiled by the StrataPlugin.
    case strata
    /// GRDB with `Codable` records (`FetchableRecord & PersistableRecord & Codable`).
    case grdbCodable
    /// GRDB with hand-optimized records (`init(row:)` by index, `encode(to:)` by hand).
    case grdbOptimized
}

public enum Sizes {
    public static let items = 200_000
    public static let insertedItems = 50_000
    public static let events = 50_000
    public static let lookups = 100_000
    public static let namedQueries = 10_000
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
    /// Keys to look up: spread over the table, every one present.
    public static let lookupKeys: [Int] = (0..<Sizes.lookups).map { ($0 &* 7919) % Sizes.events + 1 }
    /// Names for the named query: each matches one row.
    public static let queryNames: [String] = (0..<Sizes.namedQueries).map { "event name \(($0 &* 104_729) % Sizes.events)" }
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
            if workloads.contains(where: { [.fetchEvents, .lookup, .namedQuery].contains($0) }) {
                let events = EventDAO(conn)
                for event in TestData.events { try events.insert(event) }
            }
        }
        try db.writeWithoutTransaction { conn in try conn.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
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
    case .raw: try RawRunner(fixture: fixture)
    case .strata: try StrataRunner(fixture: fixture)
    case .grdbCodable: try GRDBRunner(fixture: fixture, optimized: false)
    case .grdbOptimized: try GRDBRunner(fixture: fixture, optimized: true)
    }
}

public struct BenchError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
