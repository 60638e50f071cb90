import Foundation
import Strata
import Testing

/// The generated code of `Dates.schema.yml` (one instant in every `dateFormat:`) on a real
/// database file: what each format stores, that records read back equal what insert returned,
/// `default: now` in each format, and queries binding dates in their column's format.
@Suite struct DateFormatTests {
    /// 2023-11-14 22:13:20.123 UTC.
    static let instant = Date(timeIntervalSince1970: 1_700_000_000.123)

    final class Fixture: @unchecked Sendable {
        let directory: URL
        let db: Database

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-dates-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            db = try Database(path: directory.appendingPathComponent("dates.sqlite").path, configuration: Dates.configuration)
            try Dates.migrate(db)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static func event(_ date: Date) -> Event {
        Event(text: date, seconds: date, millis: date, julian: date, reference: date, optionalReference: date, createdAt: date)
    }

    @Test func eachFormatStoresItsValueAndReadsBack() throws {
        let fixture = try Fixture()
        let inserted = try fixture.db.write { conn in try EventDAO(conn).insert(Self.event(Self.instant)) }
        let row = try #require(try fixture.db.read { conn in
            try conn.fetchOne(sql: #"SELECT text, seconds, millis, julian, reference, optionalReference, createdAt FROM "Event""#)
        })
        #expect(row[0] == .text("2023-11-14 22:13:20.123"))
        #expect(row[1] == .integer(1_700_000_000))
        #expect(row[2] == .integer(1_700_000_000_123))
        guard case .real(let julian) = row[3], case .real(let reference) = row[4], case .real(let optional) = row[5] else {
            Issue.record("julianDay and referenceDate are not stored as REAL: \(row[3]) \(row[4]) \(row[5])")
            return
        }
        #expect(abs(julian - 2_460_263.425_927_349_4) < 1e-9, "julian day \(julian), SQLite: julianday('2023-11-14 22:13:20.123') = 2460263.4259273494")
        #expect(abs(reference - 721_692_800.123) < 1e-6, "reference date \(reference)")
        #expect(optional == reference)
        #expect(row[6] == .integer(1_700_000_000_123))

        // The record insert returned holds what reads back, per format.
        #expect(inserted.seconds == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(abs(inserted.millis.timeIntervalSince1970 - 1_700_000_000.123) < 1e-6)
        #expect(abs(inserted.julian.timeIntervalSince(Self.instant)) < 1e-3)
        #expect(abs(inserted.reference.timeIntervalSince(Self.instant)) < 1e-6)
        let read = try fixture.db.read { conn in try EventDAO(conn).find(id: inserted.id) }
        #expect(read == inserted)
    }

    @Test func updateKeepsTheFormatAndNilIsNull() throws {
        let fixture = try Fixture()
        let later = Date(timeIntervalSince1970: 1_800_000_000.5)
        let stored = try fixture.db.write { conn throws in
            let dao = EventDAO(conn)
            var event = try dao.insert(Self.event(Self.instant))
            event.reference = later
            event.optionalReference = nil
            event.seconds = later
            try dao.update(event)
            return try dao.find(id: event.id)
        }
        #expect(stored?.reference == later.addingTimeInterval(0))
        #expect(stored?.optionalReference == nil)
        #expect(stored?.seconds == Date(timeIntervalSince1970: 1_800_000_001))
        let raw = try fixture.db.read { conn in try conn.fetchOne(sql: #"SELECT reference, optionalReference FROM "Event""#) }
        #expect(raw?[0] == .real(1_800_000_000.5 - 978_307_200))
        #expect(raw?[1] == .null)
    }

    @Test func defaultNowIsTheCurrentTimeInTheFormat() throws {
        let fixture = try Fixture()
        let before = Date().addingTimeInterval(-2)
        let event = try fixture.db.write { conn throws in
            try conn.execute(sql: #"INSERT INTO "Event" (text, seconds, millis, julian, reference) VALUES ('2020-01-01 00:00:00.000', 0, 0, 2451545.0, 0)"#)
            return try EventDAO(conn).find(id: 1)
        }
        let after = Date().addingTimeInterval(2)
        let created = try #require(event?.createdAt)
        #expect(created > before && created < after, "default now read back as \(created)")
        #expect(event?.julian == Date(timeIntervalSince1970: 946_728_000), "J2000.0 is 2000-01-01 12:00 UTC")
        #expect(event?.reference == Date(timeIntervalSinceReferenceDate: 0))
    }

    @Test func queriesBindDatesInTheColumnsFormat() throws {
        let fixture = try Fixture()
        let dates = (0..<5).map { Self.instant.addingTimeInterval(Double($0) * 3600) }
        let events = try fixture.db.write { conn in try dates.map { try EventDAO(conn).insert(Self.event($0)) } }
        let middle = dates[2]
        try fixture.db.read { conn in
            let dao = EventDAO(conn)
            #expect(try dao.referenceAfter(after: middle).map(\.id) == events[3...].map(\.id))
            #expect(try dao.millisBefore(before: middle).map(\.id) == events[..<2].map(\.id))
            #expect(try dao.julianBetween(low: dates[1].addingTimeInterval(-1), high: dates[3].addingTimeInterval(1)) == 3)
            let rows = try DatesQueries(conn).referencesSince(since: middle)
            #expect(rows.map(\.id) == events[2...].map(\.id))
            #expect(rows.first?.reference == events[2].reference)
        }
    }

    /// `max(reference)`, `min(millis)` …: an aggregate of a date column is one of its values,
    /// read in the column's `dateFormat:` (read as Strata's text format, a reference date's
    /// seconds would be a date 31 years early).
    @Test func aggregatesOfDatesReadInTheColumnsFormat() throws {
        let fixture = try Fixture()
        let dates = [Self.instant, Self.instant.addingTimeInterval(86_400 * 400), Self.instant.addingTimeInterval(-86_400)]
        var events = try fixture.db.write { conn in try dates.map { try EventDAO(conn).insert(Self.event($0)) } }
        events[2].optionalReference = nil
        _ = try fixture.db.write { conn in try EventDAO(conn).update(events[2]) }
        let row = try #require(try fixture.db.read { conn in try DatesQueries(conn).extremes() }.first)
        let latest = try #require(events.max { $0.reference < $1.reference })
        let earliest = try #require(events.min { $0.millis < $1.millis })
        #expect(row.latestReference == latest.reference)
        #expect(row.earliestMillis == earliest.millis)
        #expect(row.latestJulian == events.map(\.julian).max())
        #expect(row.latestSeconds == events.map(\.seconds).max())
        #expect(row.firstReference == events.map(\.reference).min())
        // A reference date read as seconds since 1970 would be 978,307,200 s early.
        #expect(abs((row.latestReference ?? .distantPast).timeIntervalSince(dates[1])) < 1e-3)
        // COALESCE of two reference dates.
        let coalesced = try fixture.db.read { conn in try DatesQueries(conn).anyReferences() }.map(\.anyReference)
        #expect(coalesced == events.map { $0.optionalReference ?? $0.reference })
        #expect(coalesced[2] == events[2].reference)
    }
}
