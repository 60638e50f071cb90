import Foundation
import Strata
import Synchronization
import Testing

/// A clock the test moves by hand: `Database.Configuration.now` for expiring rows.
final class TestClock: Sendable {
    private let time: Mutex<Date>

    init(_ start: Date) { time = Mutex(start) }

    var now: Date { time.withLock { $0 } }

    func advance(by seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The generated code of `Sessions.schema.yml` (`expires: true` on `Session` and `Notice`) on a
/// real database file with an injected clock: rows inserted to expire in 10 s and in 1 h, the
/// clock moved past the first, and every generated read checked to leave out exactly those.
@Suite struct ExpiryTests {
    /// 2027-01-15 08:00:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A stored text value, or `NULL`.
    static func text(_ value: DatabaseValue) -> String {
        if case .text(let text) = value { return text }
        return "NULL"
    }

    /// A migrated `Sessions` database file in a fresh directory, opened with `clock`.
    final class Fixture: @unchecked Sendable {
        let directory: URL
        let path: String
        let clock = TestClock(ExpiryTests.start)
        let db: Database

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-expiry-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent("sessions.sqlite").path
            db = try Database(path: path, configuration: Self.configuration(clock))
            try Sessions.migrate(db)
        }

        static func configuration(_ clock: TestClock) -> Database.Configuration {
            var configuration = Sessions.configuration
            configuration.now = { clock.now }
            return configuration
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Two users; `ann` has sessions a (10 s), b (1 h), c (never), `bob` has d (10 s) and
        /// e (1 h); each session has one grant.
        func seed() throws -> (ann: User, bob: User) {
            try db.write { conn throws in
                let ann = try UserDAO(conn).insert(User(name: "Ann"))
                let bob = try UserDAO(conn).insert(User(name: "Bob"))
                let sessions = SessionDAO(conn)
                try sessions.insert(Session(token: "a", userId: ann.id, device: "phone"), expiresIn: .seconds(10))
                try sessions.insert(Session(token: "b", userId: ann.id, device: "laptop"), expiresIn: .seconds(3600))
                try sessions.insert(Session(token: "c", userId: ann.id, device: "phone"))
                try sessions.insert(
                    [Session(token: "d", userId: bob.id, device: "phone"), Session(token: "e", userId: bob.id, device: "laptop")],
                    expiresIn: .seconds(10))
                try sessions.upsert(Session(token: "e", userId: bob.id, device: "laptop"), expiresIn: .seconds(3600))
                for token in ["a", "b", "c", "d", "e"] {
                    try GrantDAO(conn).insert(Grant(sessionToken: token, scope: "read"))
                }
                return (ann, bob)
            }
        }
    }

    @Test func insertsStoreTheExpiryTimeByTheClock() throws {
        let fixture = try Fixture()
        _ = try fixture.seed()
        let stored = try fixture.db.read { conn throws in
            try conn.fetch(sql: #"SELECT token, expiresAt FROM "Session" ORDER BY token"#).map { row in
                "\(Self.text(row[0])) \(Self.text(row[1]))"
            }
        }
        #expect(stored == [
            "a 2027-01-15 08:00:10.000", "b 2027-01-15 09:00:00.000", "c NULL", "d 2027-01-15 08:00:10.000",
            "e 2027-01-15 09:00:00.000",
        ])
        // expiresAt: and a record's own expiresAt member.
        let at = Self.start.addingTimeInterval(42)
        try fixture.db.write { conn throws in
            let sessions = SessionDAO(conn)
            let f = try sessions.insert(Session(token: "f", userId: 1, device: "tv"), expiresAt: at)
            #expect(f.expiresAt == at)
            try sessions.insert(Session(token: "g", userId: 1, device: "tv", expiresAt: at))
            #expect(try sessions.find(token: "g")?.expiresAt == at)
            // A Duration's fraction of a second counts (dates are stored to the millisecond).
            let h = try sessions.insert(Session(token: "h", userId: 1, device: "tv"), expiresIn: .milliseconds(1500))
            #expect(h.expiresAt == Self.start.addingTimeInterval(1.5))
            #expect(try sessions.find(token: "h")?.expiresAt == Self.start.addingTimeInterval(1.5))
        }
    }

    @Test func readsLeaveOutExactlyTheExpiredRows() throws {
        let fixture = try Fixture()
        let (ann, bob) = try fixture.seed()
        let db = fixture.db
        func tokens(_ sessions: [Session]) -> [String] { sessions.map(\.token).sorted() }

        // Before anything expires every row is read.
        #expect(try db.read { conn in try SessionDAO(conn).count() } == 5)

        // 10 s: a and d expire (expiresAt is not after now).
        fixture.clock.advance(by: 10)
        try db.read { conn throws in
            let dao = SessionDAO(conn)
            #expect(tokens(try dao.fetchAll()) == ["b", "c", "e"])
            #expect(tokens(try dao.fetchAll(where: "device = ?", ["phone"])) == ["c"])
            #expect(tokens(try dao.fetchAll(where: "device = :device", ["device": "laptop"], orderBy: "token", limit: 5)) == ["b", "e"])
            #expect(try dao.fetchOne(orderBy: "token")?.token == "b")
            #expect(try dao.fetchOne(where: "token = ?", ["a"]) == nil)
            #expect(try dao.count() == 3)
            #expect(try dao.count(where: "userId = ?", [bob.id]) == 1)
            #expect(try dao.exists(where: "token = ?", ["d"]) == false)
            #expect(try dao.exists(where: "token = ?", ["e"]))
            #expect(try dao.find(token: "a") == nil)
            #expect(try dao.find(token: "b")?.device == "laptop")
            #expect(try dao.find(token: "c") != nil)
            var cursorTokens: [String] = []
            let cursor = try dao.cursor(orderBy: "token")
            while let session = try cursor.next() { cursorTokens.append(session.token) }
            #expect(cursorTokens == ["b", "c", "e"])
            // Named queries, a `limit` parameter after the clock's.
            #expect(try dao.forUser(userId: ann.id, limit: 10).map(\.token) == ["b", "c"])
            #expect(try dao.forUser(userId: ann.id, limit: 1).map(\.token) == ["b"])
            #expect(try dao.countForDevice(device: "phone") == 1)
            #expect(try dao.anyForUser(userId: bob.id))
            #expect(try dao.latest()?.token == "e")
            // Navigation to an expiring table, and from it.
            #expect(tokens(try UserDAO(conn).sessions(of: ann)) == ["b", "c"])
            let grants = try GrantDAO(conn).fetchAll(orderBy: "sessionToken")
            #expect(grants.count == 5)  // grants do not expire
            #expect(try grants.map { try GrantDAO(conn).session(of: $0)?.token } == [nil, "b", "c", nil, "e"])
        }

        // The rows are still stored: writes by key see them.
        try db.write { conn throws in
            #expect(try conn.fetchValue(Int.self, sql: #"SELECT count(*) FROM "Session""#) == 5)
            #expect(try SessionDAO(conn).update(Session(token: "a", userId: ann.id, device: "watch", expiresAt: nil)))
            #expect(try SessionDAO(conn).find(token: "a")?.device == "watch")
        }

        // 1 h: b and e expire too; a no longer expires, c never did.
        fixture.clock.advance(by: 3590)
        try db.read { conn throws in
            #expect(tokens(try SessionDAO(conn).fetchAll()) == ["a", "c"])
            #expect(try SessionDAO(conn).count() == 2)
            #expect(try SessionDAO(conn).anyForUser(userId: bob.id) == false)
        }
    }

    @Test func purgeExpiredDeletesExactlyTheExpiredRows() throws {
        let fixture = try Fixture()
        _ = try fixture.seed()
        try fixture.db.write { conn throws in
            try NoticeDAO(conn).insert(Notice(body: "Maintenance tonight"), expiresIn: .seconds(5))
            try NoticeDAO(conn).insert(Notice(body: "Maintenance next week"))
        }
        #expect(try Sessions.purgeExpired(fixture.db) == 0)
        fixture.clock.advance(by: 10)
        // Session a and d, notice 1.
        #expect(try Sessions.purgeExpired(fixture.db) == 3)
        #expect(try Sessions.purgeExpired(fixture.db) == 0)
        try fixture.db.read { conn throws in
            #expect(try conn.fetchValue(Int.self, sql: #"SELECT count(*) FROM "Session""#) == 3)
            #expect(try conn.fetchValue(Int.self, sql: #"SELECT count(*) FROM "Notice""#) == 1)
            // ON DELETE CASCADE took their grants.
            let grantTokens = try conn.fetch(sql: #"SELECT sessionToken FROM "Grant" ORDER BY 1"#).map { Self.text($0[0]) }
            #expect(grantTokens == ["b", "c", "e"])
        }
    }

    @Test func migrateOnOpenPurgesOnce() throws {
        let fixture = try Fixture()
        _ = try fixture.seed()
        fixture.clock.advance(by: 3600)
        // A second open of the same file, as an app does at launch.
        let reopened = try Database(path: fixture.path, configuration: Fixture.configuration(fixture.clock))
        let applied = try Sessions.migrate(reopened)
        #expect(applied.isEmpty)
        #expect(try reopened.read { conn in try conn.fetchValue(Int.self, sql: #"SELECT count(*) FROM "Session""#) } == 1)
        #expect(try reopened.read { conn in try SessionDAO(conn).fetchAll().map(\.token) } == ["c"])
    }

    @Test func searchLeavesOutExpiredRows() throws {
        let fixture = try Fixture()
        try fixture.db.write { conn throws in
            let notices = NoticeDAO(conn)
            try notices.insert(Notice(body: "Library closed on Monday"), expiresIn: .seconds(60))
            try notices.insert(Notice(body: "Library open late on Friday"), expiresIn: .seconds(7200))
        }
        #expect(try fixture.db.read { conn in try NoticeDAO(conn).search("library") }.count == 2)
        fixture.clock.advance(by: 60)
        try fixture.db.read { conn throws in
            #expect(try NoticeDAO(conn).search("library").map(\.body) == ["Library open late on Friday"])
            #expect(try NoticeDAO(conn).searchWithSnippets("monday").isEmpty)
        }
    }

    @Test func theClockIsBoundPerCallNotCached() throws {
        // The same cached statements, read again after the clock moves, see the new time.
        let fixture = try Fixture()
        _ = try fixture.seed()
        for (advance, expected) in [(0.0, 5), (9.999, 5), (0.001, 3), (3589.999, 3), (0.001, 1)] {
            fixture.clock.advance(by: advance)
            let counts = try fixture.db.read { conn throws in
                [try SessionDAO(conn).count(), try SessionDAO(conn).fetchAll().count, try SessionDAO(conn).countForDevice(device: "phone")
                    + SessionDAO(conn).countForDevice(device: "laptop")]
            }
            #expect(counts == [expected, expected, expected], "after \(advance) s more")
        }
    }

    @Test func arityErrorsCountOnlyTheCallersArguments() throws {
        let fixture = try Fixture()
        _ = try fixture.seed()
        let error = #expect(throws: StrataError.self) {
            try fixture.db.read { conn in try SessionDAO(conn).fetchAll(where: "token = ?", []) }
        }
        #expect(error?.message.contains("the statement has 1 parameter but 0 arguments were given") == true)
        #expect(throws: StrataError.self) {
            try fixture.db.read { conn in try SessionDAO(conn).fetchAll(where: "token = :token", ["token": "b", "other": 1]) }
        }
    }
}
