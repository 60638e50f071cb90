import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// Typed SQL at parity: the 22 queries of Parity.schema.yml (joins, a LEFT JOIN, aggregates
/// with GROUP BY/HAVING, a CTE and a recursive one, window functions, subqueries, DISTINCT,
/// LIMIT/OFFSET parameters, a list parameter, `returns: one`, record-shaped rows, INSERT/UPDATE/
/// DELETE … RETURNING, dates, bools, UUIDs, an enum, non-ASCII text and NULLs), compiled by the
/// real build plugin from the schema and Parity.prepared.json, run through `ParityQueries` on a
/// SQLite file and `ParityPostgresQueries` on a throwaway server holding the same seeded rows
/// (inserted through the generated DAOs): every answer must be equal, value by value, in the
/// same row types. A difference names the query, the seed and the first differing row.
///
/// `STRATA_PARITY_SEED=<n>` runs it on other data.
@Suite(.postgreSQLInstalled, .postgresServer)
struct ParityPostgresTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["STRATA_PARITY_SEED"].flatMap { UInt64($0) } ?? 31

    /// 2023-11-14 22:13:20 UTC; dates are whole quarters of a second (SQLite keeps
    /// milliseconds, PostgreSQL microseconds).
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func everyQueryGivesTheSameValuesOnSQLiteAndPostgreSQL() async throws {
        let (squads, players) = Self.data(seed: Self.seed)
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("parity.sqlite"))
        _ = try Parity.migrate(db)
        let pg = try await PostgresTestServer.current().makeDatabase()
        do {
            _ = try await Parity.migrate(pg)
            try await db.write { conn in
                for squad in squads { _ = try SquadDAO(conn).insert(squad) }
                for player in players { _ = try PlayerDAO(conn).insert(player) }
            }
            try await pg.write { conn in
                for squad in squads { _ = try await SquadPostgresDAO(conn).insert(squad) }
                for player in players { _ = try await PlayerPostgresDAO(conn).insert(player) }
            }
            try await Self.compareReads(db, pg, squads: squads, players: players)
            try await Self.compareWrites(db, pg, players: players)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    /// The checked-in Parity.prepared.json and Ledger.prepared.json are what the real
    /// `strata-postgres prepare` writes against this server: `prepare --check` passes on a copy
    /// of each (schema, migrations, file), `prepare` writes the same bytes, and an edited file
    /// or query makes `--check` fail naming the command.
    @Test(arguments: ["Parity", "Ledger"])
    func theCheckedInPreparedFileIsWhatPrepareWrites(_ name: String) async throws {
        let server = try PostgresTestServer.current()
        let scratch = try await server.makeDatabase()
        let database = try #require(scratch.configuration.database)
        try await scratch.close()
        let url = server.url(database: database)
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let copy = try TemporaryDirectory()
        for file in ["\(name).schema.yml", "\(name).prepared.json", "\(name).migrations"] {
            try FileManager.default.copyItem(at: here.appendingPathComponent(file), to: copy.url.appendingPathComponent(file))
        }
        let schema = copy.path("\(name).schema.yml")
        let prepared = copy.path("\(name).prepared.json")
        let checkedIn = try String(contentsOf: here.appendingPathComponent("\(name).prepared.json"), encoding: .utf8)

        let check = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(check.status == 0, "\(name).prepared.json is not what `strata-postgres prepare` writes: \(check.output)\n\(check.error)")
        #expect(check.output.contains("is up to date"), "\(check.output)")
        try FileManager.default.removeItem(atPath: prepared)
        let write = try StrataCLI.run(["prepare", schema, "--url", url])
        #expect(write.status == 0, "\(write.output)\n\(write.error)")
        #expect(try String(contentsOfFile: prepared, encoding: .utf8) == checkedIn)

        // A file edited by hand (a column's nullability) is stale.
        let edited = checkedIn.replacingOccurrences(of: "\"nullable\" : true", with: "\"nullable\" : false")
        #expect(edited != checkedIn)
        try edited.write(toFile: prepared, atomically: true, encoding: .utf8)
        let hand = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(hand.status == 1)
        #expect(hand.error.contains("\(prepared) is stale"), "\(hand.error)")
        #expect(hand.error.contains("strata-postgres prepare \(schema) --url"), "\(hand.error)")

        // A query edited in the schema is stale, named.
        try checkedIn.write(toFile: prepared, atomically: true, encoding: .utf8)
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        let query = name == "Parity" ? "SELECT DISTINCT city FROM teams ORDER BY city" : "SELECT count(*) AS n FROM entries"
        #expect(text.contains(query))
        try text.replacingOccurrences(of: query, with: query + " LIMIT 10").write(toFile: schema, atomically: true, encoding: .utf8)
        let stale = try StrataCLI.run(["prepare", schema, "--url", url, "--check"])
        #expect(stale.status == 1)
        #expect(stale.error.contains("query '\(name == "Parity" ? "cities" : "entryCount")' changed since it was written"), "\(stale.error)")
    }

    /// Every read query, with several arguments each, on both databases.
    static func compareReads(_ db: Database, _ pg: PostgresDatabase, squads: [Squad], players: [Player]) async throws {
        func both<T: Equatable & Sendable>(
            _ name: String, nonEmpty: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation,
            _ sqlite: @escaping @Sendable (ParityQueries) throws -> [T],
            _ postgres: @escaping @Sendable (ParityPostgresQueries) async throws -> [T]
        ) async throws {
            let a = try await db.read { conn in try sqlite(ParityQueries(conn)) }
            let b = try await pg.read { conn in try await postgres(ParityPostgresQueries(conn)) }
            expectSame(name, a, b, nonEmpty: nonEmpty, sourceLocation: sourceLocation)
        }
        let ids = players.indices.map { $0 + 1 }
        let squadIDs = squads.indices.map { $0 + 1 }

        try await both("roster(active: true)", { try $0.roster(active: true) }, { try await $0.roster(active: true) })
        try await both("roster(active: false)", { try $0.roster(active: false) }, { try await $0.roster(active: false) })
        try await both("withMentors", { try $0.withMentors() }, { try await $0.withMentors() })
        try await both("teamStats(minMembers: 5)", { try $0.teamStats(minMembers: 5) }, { try await $0.teamStats(minMembers: 5) })
        try await both("teamStats(minMembers: 1000)", nonEmpty: false, { try $0.teamStats(minMembers: 1000) }, { try await $0.teamStats(minMembers: 1000) })
        try await both("averages", { try $0.averages() }, { try await $0.averages() })
        try await both("headcounts(atLeast: 3)", { try $0.headcounts(atLeast: 3) }, { try await $0.headcounts(atLeast: 3) })
        try await both(
            "mentorChain(id:) of every player", { q in try ids.flatMap { try q.mentorChain(id: $0) } },
            { q in
                var rows: [ParityQueries.MentorChainRow] = []
                for id in ids { rows += try await q.mentorChain(id: id) }
                return rows
            })
        try await both("places", { try $0.places() }, { try await $0.places() })
        try await both(
            "runningPayroll(teamId:) of every squad", { q in try squadIDs.flatMap { try q.runningPayroll(teamId: $0) } },
            { q in
                var rows: [ParityQueries.RunningPayrollRow] = []
                for id in squadIDs { rows += try await q.runningPayroll(teamId: id) }
                return rows
            })
        try await both("aboveAverage", { try $0.aboveAverage() }, { try await $0.aboveAverage() })
        try await both("teamsWithoutLead", { try $0.teamsWithoutLead() }, { try await $0.teamsWithoutLead() })
        try await both("cities", { try $0.cities() }, { try await $0.cities() })
        for (limit, offset) in [(7, 0), (7, 7), (100, players.count - 3), (5, players.count + 10)] {
            try await both(
                "page(limit: \(limit), offset: \(offset))", nonEmpty: offset < players.count,
                { try $0.page(limit: limit, offset: offset) }, { try await $0.page(limit: limit, offset: offset) })
        }
        try await both("membersIn(ids: [3, 5, 8, 999])", { try $0.membersIn(ids: [3, 5, 8, 999]) }, { try await $0.membersIn(ids: [3, 5, 8, 999]) })
        try await both("membersIn(ids: [])", nonEmpty: false, { try $0.membersIn(ids: []) }, { try await $0.membersIn(ids: []) })
        try await both("membersIn(ids: every id)", { try $0.membersIn(ids: ids) }, { try await $0.membersIn(ids: ids) })
        try await both("member(id:) 4 and 999", { q in [try q.member(id: 4), try q.member(id: 999)] }, { q in [try await q.member(id: 4), try await q.member(id: 999)] })
        let unknown = UUID(uuidString: "00000000-0000-4000-8000-000000000031")!
        try await both(
            "teamByCode(code:)", { q in try (squads.map(\.code) + [unknown]).map { try q.teamByCode(code: $0) } },
            { q in
                var rows: [ParityQueries.TeamByCodeRow?] = []
                for code in squads.map(\.code) + [unknown] { rows.append(try await q.teamByCode(code: code)) }
                return rows
            })
        let since = start.addingTimeInterval(100 * 86_400)
        let before = start.addingTimeInterval(250 * 86_400)
        try await both("joinedBetween", { try $0.joinedBetween(since: since, before: before) }, { try await $0.joinedBetween(since: since, before: before) })
        for role in Player.Role.allCases {
            try await both("contacts(role: .\(role))", { try $0.contacts(role: role) }, { try await $0.contacts(role: role) })
        }
        for pattern in ["%s%", "ana%", "%Ø%"] {
            try await both("named(pattern: \"\(pattern)\")", nonEmpty: pattern != "%Ø%", { try $0.named(pattern: pattern) }, { try await $0.named(pattern: pattern) })
        }
        try await both(
            "tenure(teamId:) of every squad", { q in try squadIDs.map { try q.tenure(teamId: $0) } },
            { q in
                var rows: [ParityQueries.TenureRow] = []
                for id in squadIDs { rows.append(try await q.tenure(teamId: id)) }
                return rows
            })

        // The values themselves, not only their agreement: what the data says.
        let sqlite = try await db.read { conn in
            (try ParityQueries(conn).teamsWithoutLead().map(\.id), try ParityQueries(conn).cities(),
             try ParityQueries(conn).roster(active: true).count, try ParityQueries(conn).tenure(teamId: 6))
        }
        #expect(sqlite.0.contains(5) && sqlite.0.contains(6), "\(sqlite.0)")
        #expect(sqlite.1 == Array(Set(squads.map(\.city))).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(sqlite.2 == players.filter { squads[$0.teamId - 1].active }.count)
        #expect(sqlite.3 == ParityQueries.TenureRow(first: nil, last: nil, n: 0))
    }

    /// INSERT, UPDATE and DELETE … RETURNING, the same on both, then every row compared.
    static func compareWrites(_ db: Database, _ pg: PostgresDatabase, players: [Player]) async throws {
        let joined = start.addingTimeInterval(31 * 86_400 + 0.75)
        let hires: [(Int, Int?, String, String?, Player.Role, Int, Double?, Bool)] = [
            (2, nil, "Zoë Ørsted-Łukasiewicz 東京", nil, .dev, 51_000, nil, true),
            (6, 1, "Ana", "ana@exämple.org", .lead, 99_000, 4.25, false),
        ]
        let sqlite = try await db.write { conn in
            let queries = ParityQueries(conn)
            let hired = try hires.map { try queries.hire(teamId: $0.0, mentorId: $0.1, name: $0.2, email: $0.3, role: $0.4, salary: $0.5, rating: $0.6, active: $0.7, joined: joined) }
            let raised = try queries.raise(amount: 500, teamId: 2).sorted { $0.id < $1.id }
            let dismissed = try queries.dismiss(active: false, teamId: 3).sorted { $0.id < $1.id }
            return (hired, raised, dismissed)
        }
        let postgres = try await pg.write { conn in
            let queries = ParityPostgresQueries(conn)
            var hired: [Player?] = []
            for hire in hires {
                hired.append(try await queries.hire(teamId: hire.0, mentorId: hire.1, name: hire.2, email: hire.3, role: hire.4, salary: hire.5, rating: hire.6, active: hire.7, joined: joined))
            }
            let raised = try await queries.raise(amount: 500, teamId: 2).sorted { $0.id < $1.id }
            let dismissed = try await queries.dismiss(active: false, teamId: 3).sorted { $0.id < $1.id }
            return (hired, raised, dismissed)
        }
        expectSame("hire", sqlite.0, postgres.0)
        #expect(sqlite.0.map { $0?.id } == [players.count + 1, players.count + 2])
        #expect(sqlite.0.first??.name == "Zoë Ørsted-Łukasiewicz 東京")
        expectSame("raise(amount: 500, teamId: 2)", sqlite.1, postgres.1)
        #expect(sqlite.1.count == players.filter { $0.teamId == 2 }.count + 1)
        expectSame("dismiss(active: false, teamId: 3)", sqlite.2, postgres.2)
        #expect(sqlite.2.count == players.filter { $0.teamId == 3 && !$0.active }.count)
        let everyone = Array(1...(players.count + hires.count))
        let after = (
            try await db.read { conn in try ParityQueries(conn).membersIn(ids: everyone) },
            try await pg.read { conn in try await ParityPostgresQueries(conn).membersIn(ids: everyone) }
        )
        expectSame("membersIn(ids:) after the writes", after.0, after.1)
    }

    /// Records an issue naming the query, the seed and the first differing row unless the two
    /// answers are equal; with `nonEmpty`, also when they are empty (an empty agreement proves little).
    static func expectSame<T: Equatable>(_ query: String, _ sqlite: [T], _ postgres: [T], nonEmpty: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        if nonEmpty && sqlite.isEmpty {
            Issue.record("query '\(query)' (seed \(seed)) returns no rows on SQLite: the comparison proves nothing", sourceLocation: sourceLocation)
        }
        guard sqlite != postgres else { return }
        let common = min(sqlite.count, postgres.count)
        let index = (0..<common).first { sqlite[$0] != postgres[$0] } ?? common
        func row(_ rows: [T]) -> String { index < rows.count ? String(describing: rows[index]) : "no row" }
        Issue.record(
            "query '\(query)' (seed \(seed)) differs at row \(index): SQLite \(row(sqlite)), PostgreSQL \(row(postgres)) (\(sqlite.count) rows on SQLite, \(postgres.count) on PostgreSQL)",
            sourceLocation: sourceLocation)
    }

    // MARK: - Data

    /// Six squads (the fifth with no lead, the sixth with no players) and 48 players, from `seed`.
    static func data(seed: UInt64) -> ([Squad], [Player]) {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        func quarterSeconds(upToDays days: Int) -> TimeInterval { Double(random.next() % UInt64(days * 86_400 * 4)) / 4 }
        let names = ["Zürich Zebras", "Kraków Kites", "東京 Tigers", "São Paulo Sabiás", "Oslo Ørns", "Ålesund Auks"]
        let cities = ["Zürich", "Kraków", "東京", "São Paulo", "Oslo", "Zürich"]
        let squads = names.indices.map { index in
            Squad(
                name: names[index], city: cities[index],
                code: UUID(uuidString: String(format: "%08llX-%04llX-4%03llX-8%03llX-%012llX", random.next() % 0x1_0000_0000, random.next() % 0x1_0000,
                                              random.next() % 0x1000, random.next() % 0x1000, random.next() % 0x1_0000_0000_0000))!,
                active: index != 1, founded: start.addingTimeInterval(-quarterSeconds(upToDays: 3_000)))
        }
        let first = ["Zoë", "Łukasz", "José", "Søren", "Ana", "bob", "Émile", "Dvořák", "李娜", "Ingrid", "amy", "ÅSA", "Sam"]
        let players = (1...48).map { id in
            let team = Int(random.next() % 5) + 1
            let name = "\(pick(first)) \(id)"
            return Player(
                teamId: team, mentorId: id > 1 && chance(60) ? Int(random.next() % UInt64(id - 1)) + 1 : nil, name: name,
                email: chance(30) ? nil : "p\(id).\(pick(["x", "ü", "ø"]))@exämple.org",
                role: team == 5 ? pick([.dev, .ops]) : pick(Player.Role.allCases), salary: Int(30 + random.next() % 61) * 1_000,
                rating: pick([nil, 1.5, 2.25, 3.0, 4.75, 5.0]), active: chance(70), joined: start.addingTimeInterval(quarterSeconds(upToDays: 400)))
        }
        return (squads, players)
    }

    /// A small seeded generator (SplitMix64): the same data for the same seed, on every machine.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
