import Foundation
import Strata
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import StrataTestSupport
import Testing

/// The Ledger schema's typed queries (`queries:` with `dialects: [sqlite, postgres]`), compiled
/// by the real build plugin from Ledger.schema.yml and Ledger.prepared.json: the same data in a
/// SQLite file and on a throwaway PostgreSQL server, and every query of `LedgerQueries` and
/// `LedgerPostgresQueries` giving the same values, in the same (shared) row types. Covers a
/// join with aggregates, a per-dialect statement (the cast PostgreSQL needs), a list parameter
/// (`= ANY($1)`, one array), record-shaped rows, an enum and a UUID read, `returns: one` of
/// an aggregate, `INSERT … RETURNING`, an `UPDATE`'s row count, an enum parameter and
/// parameters named like the generated code's own names (`conn`, `row`, `name`), and an `int4`
/// parameter (bound narrowed, an out-of-range value refused).
@Suite(.postgreSQLInstalled, .postgresServer)
struct LedgerPostgresQueriesTests {
    /// Whole milliseconds: SQLite stores dates to the millisecond, PostgreSQL to the microsecond.
    static let start = Date(timeIntervalSince1970: 1_700_000_000.250)

    static let entries: [(account: Int, cents: Int, memo: String?, seconds: Double)] = [
        (1, 12_000, "salary", 0), (1, -2_550, nil, 60), (2, -90_000, "mortgage", 120), (1, 700, "refund", 180.5), (2, 1_000, nil, 240),
    ]

    @Test func everyQueryGivesTheSameValuesOnSQLiteAndPostgreSQL() async throws {
        let directory = try TemporaryDirectory()
        let db = try Database(path: directory.path("ledger.sqlite"))
        _ = try Ledger.migrate(db)
        let pg = try await PostgresTestServer.current().makeDatabase()
        do {
            _ = try await Ledger.migrate(pg)
            let accounts = [Account(name: "Cash"), Account(name: "House", kind: .liability), Account(name: "Empty")]
            let tokens = Self.entries.indices.map { _ in UUID() }
            // The same rows on both, the entries through the typed INSERT … RETURNING.
            let sqliteIDs = try await db.write { conn in
                for account in accounts { try AccountDAO(conn).insert(account) }
                return try Self.entries.enumerated().map { index, entry in
                    try LedgerQueries(conn).addEntry(
                        accountId: entry.account, cents: entry.cents, memo: entry.memo, token: tokens[index],
                        bookedAt: Self.start.addingTimeInterval(entry.seconds))
                }
            }
            let postgresIDs = try await pg.write { conn in
                for account in accounts { try await AccountPostgresDAO(conn).insert(account) }
                var ids: [Int?] = []
                for (index, entry) in Self.entries.enumerated() {
                    ids.append(
                        try await LedgerPostgresQueries(conn).addEntry(
                            accountId: entry.account, cents: entry.cents, memo: entry.memo, token: tokens[index],
                            bookedAt: Self.start.addingTimeInterval(entry.seconds)))
                }
                return ids
            }
            #expect(sqliteIDs == [1, 2, 3, 4, 5])
            #expect(postgresIDs == sqliteIDs)

            // Reads: one shared row type, so the two answers compare with ==.
            let sqlite = try await db.read { conn in
                let queries = LedgerQueries(conn)
                return Answers(
                    balances: try queries.balances(), averageCash: try queries.averageCents(accountId: 1),
                    averageEmpty: try queries.averageCents(accountId: 3), entriesOf: try queries.entriesOf(accountIds: [2, 3]),
                    entriesOfNone: try queries.entriesOf(accountIds: []), house: try queries.accountNamed(name: "House"),
                    nobody: try queries.accountNamed(name: "Nobody"), memos: try queries.memos(since: Self.start.addingTimeInterval(60)),
                    count: try queries.entryCount(), like: try queries.accountsLike(name: "%s%", conn: 0, row: .liability),
                    initials: try queries.initials(length: 2))
            }
            let postgres = try await pg.read { conn in
                let queries = LedgerPostgresQueries(conn)
                return Answers(
                    balances: try await queries.balances(), averageCash: try await queries.averageCents(accountId: 1),
                    averageEmpty: try await queries.averageCents(accountId: 3), entriesOf: try await queries.entriesOf(accountIds: [2, 3]),
                    entriesOfNone: try await queries.entriesOf(accountIds: []), house: try await queries.accountNamed(name: "House"),
                    nobody: try await queries.accountNamed(name: "Nobody"),
                    memos: try await queries.memos(since: Self.start.addingTimeInterval(60)), count: try await queries.entryCount(),
                    like: try await queries.accountsLike(name: "%s%", conn: 0, row: .liability),
                    initials: try await queries.initials(length: 2))
            }
            // The values themselves, not only their agreement.
            #expect(sqlite.balances == [
                LedgerQueries.BalancesRow(name: "Cash", entries: 3, total: 10_150),
                LedgerQueries.BalancesRow(name: "Empty", entries: 0, total: 0),
                LedgerQueries.BalancesRow(name: "House", entries: 2, total: -89_000),
            ])
            #expect(sqlite.averageCash == Double(12_000 - 2_550 + 700) / 3)
            #expect(sqlite.averageEmpty == nil)
            #expect(sqlite.entriesOf.map(\.id) == [3, 5])
            #expect(sqlite.entriesOf.first == Entry(id: 3, accountId: 2, cents: -90_000, memo: "mortgage", token: tokens[2], bookedAt: Self.start.addingTimeInterval(120)))
            #expect(sqlite.entriesOfNone.isEmpty)
            #expect(sqlite.house == Account(id: 2, name: "House", kind: .liability))
            #expect(sqlite.nobody == nil)
            #expect(sqlite.memos == [
                LedgerQueries.MemosRow(memo: nil, kind: .asset, token: tokens[1]),
                LedgerQueries.MemosRow(memo: "mortgage", kind: .liability, token: tokens[2]),
                LedgerQueries.MemosRow(memo: "refund", kind: .asset, token: tokens[3]),
                LedgerQueries.MemosRow(memo: nil, kind: .liability, token: tokens[4]),
            ])
            #expect(sqlite.count == 5)
            #expect(sqlite.like == [1])  // Cash and House match "%s%"; House is the liability left out
            #expect(sqlite.initials == ["Ca", "Ho", "Em"])
            #expect(postgres == sqlite)
            // substr's length is int4 on PostgreSQL: a value beyond it is an error, not a wrapped number.
            let tooLong = await #expect(throws: StrataError.self) {
                try await pg.read { conn in try await LedgerPostgresQueries(conn).initials(length: Int(Int32.max) + 1) }
            }
            #expect(tooLong?.kind == .invalidValue)
            #expect(tooLong?.message.contains("parameter :length") == true, "\(String(describing: tooLong))")

            // An UPDATE's row count, on both.
            let sqliteChanges = try await db.write { conn in
                [try LedgerQueries(conn).rename(name: "Wallet", id: 1), try LedgerQueries(conn).rename(name: "Ghost", id: 99)]
            }
            let postgresChanges = try await pg.write { conn in
                [try await LedgerPostgresQueries(conn).rename(name: "Wallet", id: 1), try await LedgerPostgresQueries(conn).rename(name: "Ghost", id: 99)]
            }
            #expect(sqliteChanges == [1, 0])
            #expect(postgresChanges == sqliteChanges)
            #expect(try await pg.read { conn in try await LedgerPostgresQueries(conn).accountNamed(name: "Wallet")?.id } == 1)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    /// The checked-in Ledger.prepared.json says what this server says, asked another way than
    /// `strata-postgres prepare` asks (which wrote it: ParityPostgresTests checks `--check`
    /// passes on it): each statement,
    /// prepared on the migrated database, has the recorded parameter types, and (`\gdesc`) the
    /// recorded result column names and types. It is also up to date with Ledger.schema.yml and its
    /// migrations, or the build plugin would have refused it.
    @Test func thePreparedFileAgreesWithTheServer() async throws {
        let server = try PostgresTestServer.current()
        let pg = try await server.makeDatabase()
        let database = try #require(pg.configuration.database)
        do {
            _ = try await Ledger.migrate(pg)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let file = try PreparedQueries.decode(try String(contentsOf: directory.appendingPathComponent("Ledger.prepared.json"), encoding: .utf8))
        #expect(file.queries.count == 10)
        // psql's \gdesc prints format_type's names.
        let typeNames = [
            "bigint": "int8", "integer": "int4", "smallint": "int2", "double precision": "float8", "numeric": "numeric", "text": "text",
            "uuid": "uuid", "timestamp with time zone": "timestamptz", "boolean": "bool",
        ]
        let scratch = try TemporaryDirectory()
        for query in file.queries {
            var sql = query.sql
            while sql.last?.isWhitespace == true { sql.removeLast() }
            let script = scratch.path("\(query.name).sql")
            try """
                PREPARE described AS \(sql);
                SELECT array_to_string(ARRAY(SELECT t.typname FROM unnest(parameter_types) WITH ORDINALITY AS u(type, i)
                  JOIN pg_type t ON t.oid = u.type::oid ORDER BY u.i), ',') FROM pg_prepared_statements WHERE name = 'described';
                \(sql) \\gdesc

                """.write(toFile: script, atomically: true, encoding: .utf8)
            let output = try await PostgresTestServer.offCooperativeThreads {
                try server.psql(database: database, ["-At", "-f", script])
            }
            var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while lines.last?.isEmpty == true { lines.removeLast() }
            let parameters = lines.isEmpty ? [] : lines.removeFirst().split(separator: ",").map(String.init)
            // (psql says so for a statement without result columns.)
            lines.removeAll { $0 == "The command has no result, or the result has no columns." }
            #expect(parameters == query.parameters.map(\.type), "\(query.name): the server types the parameters \(parameters)")
            let columns = lines.map { line -> String in
                let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
                return parts.count == 2 ? "\(parts[0]) \(typeNames[parts[1]] ?? parts[1])" : line
            }
            #expect(columns == query.columns.map { "\($0.name) \($0.type)" }, "\(query.name): the server describes the columns \(columns)")
        }
    }

    /// What each read query answered.
    struct Answers: Equatable, Sendable {
        var balances: [LedgerQueries.BalancesRow]
        var averageCash: Double?
        var averageEmpty: Double?
        var entriesOf: [Entry]
        var entriesOfNone: [Entry]
        var house: Account?
        var nobody: Account?
        var memos: [LedgerQueries.MemosRow]
        var count: Int
        var like: [Int]
        var initials: [String]
    }
}
