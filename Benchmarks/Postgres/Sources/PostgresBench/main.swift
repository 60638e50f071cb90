import Foundation
import Logging
import PostgresNIO
import StrataPostgres

// The generated `AccountPostgresDAO` (Bench.schema.yml, compiled by the build plugin) against
// hand-written postgres-nio code that runs the same SQL text on one `PostgresConnection`, also
// as named prepared statements, decoding into the same `Account` struct (and, for the lookups
// that lease a connection each, through postgres-nio's `PostgresClient` pool). Each workload runs
// `runs` times per contender, the contenders alternating (A B, B A, …) so that a change in the
// machine's load hits both alike; the first run of each is a warm-up (statements prepared on the
// connection) and is not counted. Prints one markdown table: p0 and p50 of the wall-clock time.
// The typed query `totals` (a join and an aggregate, Bench.schema.yml's `queries:`) runs through
// the generated `BenchPostgresQueries` and through a hand-written postgres-nio prepared
// statement of the same SQL, binding the same values and decoding into the same row struct.
//
//   PostgresBench postgres://user@127.0.0.1:5432/db [--runs 20] [--insert 5000] [--fetch 10000] [--find 2000]
//                 [--totals 2000] [--only insert|fetchAll|find|findPool|totals] [--contender strata|hand]

// MARK: Arguments

struct Options {
    var url = ""
    var runs = 20
    var insertRows = 5_000
    var fetchRows = 10_000
    var lookups = 2_000
    /// `--totals N`: calls of the typed join + aggregate query per run.
    var totalsCalls = 2_000
    /// `--only insert|fetchAll|find|findPool|totals`: that workload alone.
    var only: String?
    /// `--contender strata|hand`: that contender alone, and no table (for callgrind, one process each).
    var contender: String?

    static let workloads = ["insert", "fetchAll", "find", "findPool", "totals"]

    func wants(_ workload: String) -> Bool { only == nil || only == workload }

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--runs", "--insert", "--fetch", "--find", "--totals":
                guard let text = rest.popFirst(), let value = Int(text), value > 0 else { return nil }
                switch argument {
                case "--runs": options.runs = value
                case "--insert": options.insertRows = value
                case "--fetch": options.fetchRows = value
                case "--totals": options.totalsCalls = value
                default: options.lookups = value
                }
            case "--only":
                guard let name = rest.popFirst(), workloads.contains(name) else { return nil }
                options.only = name
            case "--contender":
                guard let name = rest.popFirst(), ["strata", "hand"].contains(name) else { return nil }
                options.contender = name
            default:
                guard options.url.isEmpty, argument.hasPrefix("postgres") else { return nil }
                options.url = argument
            }
        }
        return options.url.isEmpty ? nil : options
    }
}

// MARK: The hand-written side

/// The SQL the generated DAO runs, written out by hand (checked against the DAO's below).
enum HandSQL {
    static let columns = #""id", "name", "email", "balance", "active", "created""#
    static let insert = #"INSERT INTO "accounts" ("name", "email", "balance", "active", "created") VALUES ($1, $2, $3, $4, $5) RETURNING "# + columns
    static let fetchAll = #"SELECT "# + columns + #" FROM "accounts""#
    static let find = #"SELECT "# + columns + #" FROM "accounts" WHERE "id" = $1"#
    /// Bench.schema.yml's query `totals` as Bench.prepared.json has it (`:name` → `$n`).
    static let totals = """
        SELECT a.id, a.name, count(p.id) AS payments, sum(p.amount) AS total
        FROM accounts a JOIN payments p ON p.account_id = a.id
        WHERE a.id BETWEEN $1 AND $2 AND a.active = $3
        GROUP BY a.id, a.name
        ORDER BY a.id

        """
}

/// A row of `accounts` decoded as postgres-nio's documentation shows: one tuple decode.
func handDecode(_ row: PostgresRow) throws -> Account {
    let (id, name, email, balance, active, created) = try row.decode((Int, String, String?, Double, Bool, Date).self)
    return Account(id: id, name: name, email: email, balance: balance, active: active, created: created)
}

struct HandInsert: PostgresPreparedStatement {
    static let name = "hand_insert"
    static let sql = HandSQL.insert
    typealias Row = Account
    var account: Account

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 5)
        bindings.append(account.name)
        bindings.append(account.email)
        bindings.append(account.balance)
        bindings.append(account.active)
        bindings.append(account.created)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Account { try handDecode(row) }
}

struct HandFetchAll: PostgresPreparedStatement {
    static let name = "hand_fetch_all"
    static let sql = HandSQL.fetchAll
    typealias Row = Account

    func makeBindings() throws -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Account { try handDecode(row) }
}

struct HandFind: PostgresPreparedStatement {
    static let name = "hand_find"
    static let sql = HandSQL.find
    typealias Row = Account
    var id: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Account { try handDecode(row) }
}

/// The typed query by hand: the same bindings, each row decoded into the generated row struct.
struct HandTotals: PostgresPreparedStatement {
    static let name = "hand_totals"
    static let sql = HandSQL.totals
    typealias Row = BenchQueries.TotalsRow
    var first: Int
    var last: Int
    var active: Bool

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(first)
        bindings.append(last)
        bindings.append(active)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (id, name, payments, total) = try row.decode((Int, String, Int, Double).self)
        return Row(id: id, name: name, payments: payments, total: total)
    }
}

/// Hand-written postgres-nio: one connection, `BEGIN`/`COMMIT` as simple queries, prepared statements.
struct Hand {
    let connection: PostgresConnection
    let logger: Logger

    func insert(_ accounts: [Account]) async throws -> [Account] {
        try await connection.query("BEGIN", logger: logger)
        var stored: [Account] = []
        stored.reserveCapacity(accounts.count)
        do {
            for account in accounts {
                for try await row in try await connection.execute(HandInsert(account: account), logger: logger) {
                    stored.append(row)
                }
            }
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
        return stored
    }

    func fetchAll() async throws -> [Account] {
        var rows: [Account] = []
        for try await row in try await connection.execute(HandFetchAll(), logger: logger) {
            rows.append(row)
        }
        return rows
    }

    /// Each lookup a lease of its own from postgres-nio's pool, as a server's request handler does it.
    static func find(_ ids: [Int], client: PostgresClient, logger: Logger) async throws -> Int {
        var found = 0
        for id in ids {
            for try await _ in try await client.execute(HandFind(id: id), logger: logger) {
                found += 1
            }
        }
        return found
    }

    func totals(_ ranges: [(first: Int, last: Int, active: Bool)]) async throws -> [BenchQueries.TotalsRow] {
        var rows: [BenchQueries.TotalsRow] = []
        for range in ranges {
            for try await row in try await connection.execute(HandTotals(first: range.first, last: range.last, active: range.active), logger: logger) {
                rows.append(row)
            }
        }
        return rows
    }

    func find(_ ids: [Int]) async throws -> Int {
        var found = 0
        for id in ids {
            for try await _ in try await connection.execute(HandFind(id: id), logger: logger) {
                found += 1
            }
        }
        return found
    }
}

// MARK: Measuring

/// Wall-clock and CPU times (ms) of the runs of each contender.
struct Sample {
    var strata: [Double] = []
    var hand: [Double] = []
    var strataCPU: [Double] = []
    var handCPU: [Double] = []
}

/// The CPU time (user + system, ms) this process has used so far: every thread, the event loops' too.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func ms(_ time: timeval) -> Double { Double(time.tv_sec) * 1_000 + Double(time.tv_usec) / 1_000 }
    return ms(usage.ru_utime) + ms(usage.ru_stime)
}

func milliseconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
}

/// Runs `setup` (not timed) and then `body` (timed) for each contender, alternating which goes first.
func measure(
    _ options: Options, expect: Int,
    setup: () async throws -> Void,
    strata: () async throws -> Int, hand: () async throws -> Int
) async throws -> Sample {
    var sample = Sample()
    let clock = ContinuousClock()
    for run in 0...options.runs {
        let order = run % 2 == 0 ? [true, false] : [false, true]
        for isStrata in order where options.contender == nil || options.contender == (isStrata ? "strata" : "hand") {
            try await setup()
            let cpuStart = cpuMilliseconds()
            let start = clock.now
            let count = try await (isStrata ? strata() : hand())
            let elapsed = milliseconds(clock.now - start)
            let cpu = cpuMilliseconds() - cpuStart
            guard count == expect else {
                throw StrataError.misuse("\(isStrata ? "Strata" : "hand-written") produced \(count) rows, expected \(expect)")
            }
            if run > 0 {   // run 0 is the warm-up
                if isStrata {
                    sample.strata.append(elapsed)
                    sample.strataCPU.append(cpu)
                } else {
                    sample.hand.append(elapsed)
                    sample.handCPU.append(cpu)
                }
            }
        }
    }
    return sample
}

func p50(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func format(_ value: Double) -> String { String(format: "%.1f", value) }
func ratio(_ value: Double) -> String { String(format: "%.3f", value) }

// MARK: The run

func accounts(_ count: Int) -> [Account] {
    let created = Date(timeIntervalSince1970: 1_790_000_000)
    var result: [Account] = []
    result.reserveCapacity(count)
    for index in 0..<count {
        let email: String? = index % 3 == 0 ? nil : "user\(index)@example.com"
        let balance = Double(index) * 1.25
        let account = Account(
            name: "account \(index)", email: email, balance: balance, active: index % 2 == 0,
            created: created.addingTimeInterval(Double(index)))
        result.append(account)
    }
    return result
}

/// Runs every workload against the server at `options.url` and prints the table.
func runBenchmark(_ options: Options) async throws {
    let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
    let configuration = try PostgresDatabase.Configuration(url: options.url)
    let pg = try await PostgresDatabase(configuration: configuration)
    let host = configuration.hosts[0]
    let connection = try await PostgresConnection.connect(
        configuration: PostgresConnection.Configuration(
            host: host.host, port: host.port, username: configuration.username, password: configuration.password,
            database: configuration.database, tls: .disable),
        id: 1, logger: logger)
    let hand = Hand(connection: connection, logger: logger)
    // postgres-nio's own pool, for the workload that leases a connection per lookup.
    let client = PostgresClient(
        configuration: PostgresClient.Configuration(
            host: host.host, port: host.port, username: configuration.username, password: configuration.password,
            database: configuration.database, tls: .disable),
        backgroundLogger: logger)
    let clientTask = Task { await client.run() }

    // The hand-written statements are the DAO's SQL, character for character.
    for (mine, generated) in [
        (HandSQL.insert, AccountPostgresDAO.InsertAssigningKey.sql),
        (HandSQL.fetchAll, AccountPostgresDAO.FetchAll.sql),
        (HandSQL.find, AccountPostgresDAO.Find.sql),
        (HandSQL.totals, BenchPostgresQueries.TotalsStatement.sql),
    ] where mine != generated {
        throw StrataError.misuse("hand-written SQL differs from the generated DAO's:\n  \(mine)\n  \(generated)")
    }

    try await Bench.migrate(pg)

    func truncate() async throws {
        try await pg.withConnection { conn in try await conn.execute(sql: #"TRUNCATE "payments", "accounts" RESTART IDENTITY"#) }
    }

    var results: [(name: String, rows: String, sample: Sample)] = []

    // 1. insert N rows in one transaction, each returning the stored row (RETURNING).
    let toInsert = accounts(options.insertRows)
    if options.wants("insert") {
        results.append((
            "insert (one transaction)", "\(options.insertRows) rows",
            try await measure(
                options, expect: options.insertRows, setup: truncate,
                strata: { try await pg.write { conn in try await AccountPostgresDAO(conn).insert(toInsert) }.count },
                hand: { try await hand.insert(toInsert).count })
        ))
    }

    // 2. and 3. read a table of `fetchRows` rows.
    try await truncate()
    _ = try await pg.write { conn in try await AccountPostgresDAO(conn).insert(accounts(options.fetchRows)) }
    if options.wants("fetchAll") {
        results.append((
            "fetchAll", "\(options.fetchRows) rows",
            try await measure(
                options, expect: options.fetchRows, setup: {},
                strata: { try await pg.read { conn in try await AccountPostgresDAO(conn).fetchAll() }.count },
                hand: { try await hand.fetchAll().count })
        ))
    }

    var generator = SystemRandomNumberGenerator()
    let ids = (0..<options.lookups).map { _ in Int.random(in: 1...options.fetchRows, using: &generator) }
    if options.wants("find") {
        results.append((
            "find by key (one read)", "\(options.lookups) lookups",
            try await measure(
                options, expect: options.lookups, setup: {},
                strata: {
                    try await pg.read { conn in
                        let dao = AccountPostgresDAO(conn)
                        var found = 0
                        for id in ids {
                            if try await dao.find(id: id) != nil { found += 1 }
                        }
                        return found
                    }
                },
                hand: { try await hand.find(ids) })
        ))
    }
    // Strata: a `pg.read` per lookup (its pool's lease and release each time); hand-written: a
    // `PostgresClient.execute` per lookup (postgres-nio's pool, the same lease and release).
    if options.wants("findPool") {
        results.append((
            "find by key (a pool lease each)", "\(options.lookups) lookups",
            try await measure(
                options, expect: options.lookups, setup: {},
                strata: {
                    var found = 0
                    for id in ids {
                        if try await pg.read({ conn in try await AccountPostgresDAO(conn).find(id: id) }) != nil { found += 1 }
                    }
                    return found
                },
                hand: { try await Hand.find(ids, client: client, logger: logger) })
        ))
    }

    // 4. the typed join + aggregate: `totalsCalls` calls in one read, each over 20 accounts
    // (about 10 active ones, 3 payments each).
    if options.wants("totals") {
        let created = Date(timeIntervalSince1970: 1_790_000_000)
        let payments = (1...options.fetchRows).flatMap { account in
            (0..<3).map { Payment(accountId: account, amount: Double(account % 97) * 0.5 + Double($0), paid: created.addingTimeInterval(Double($0))) }
        }
        _ = try await pg.write { conn in try await PaymentPostgresDAO(conn).insert(payments) }
        let ranges = (0..<options.totalsCalls).map { call -> (first: Int, last: Int, active: Bool) in
            let first = Int.random(in: 1...max(1, options.fetchRows - 19), using: &generator)
            return (first, first + 19, call % 2 == 0)
        }
        // The two answer the same, row for row, before anything is timed.
        let expected = try await pg.read { conn in
            let queries = BenchPostgresQueries(conn)
            var rows: [BenchQueries.TotalsRow] = []
            for range in ranges { rows += try await queries.totals(first: range.first, last: range.last, active: range.active) }
            return rows
        }
        guard try await hand.totals(ranges) == expected, !expected.isEmpty else {
            throw StrataError.misuse("the hand-written totals query answers differently from BenchPostgresQueries.totals")
        }
        results.append((
            "typed join + aggregate (one read)", "\(options.totalsCalls) calls, \(expected.count) rows",
            try await measure(
                options, expect: expected.count, setup: {},
                strata: {
                    try await pg.read { conn in
                        let queries = BenchPostgresQueries(conn)
                        var count = 0
                        for range in ranges { count += try await queries.totals(first: range.first, last: range.last, active: range.active).count }
                        return count
                    }
                },
                hand: { try await hand.totals(ranges).count })
        ))
    }

    clientTask.cancel()
    try await connection.close().get()
    try await pg.close()
    guard options.contender == nil else { return }

    print("| workload | size | Strata p0 (ms) | Strata p50 (ms) | hand-written p0 (ms) | hand-written p50 (ms) | ratio p0 | ratio p50 | client CPU p50, Strata / hand (ms) | CPU ratio |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (name, rows, sample) in results {
        let strataP0 = sample.strata.min() ?? 0, handP0 = sample.hand.min() ?? 0
        let strataP50 = p50(sample.strata), handP50 = p50(sample.hand)
        let strataCPU = p50(sample.strataCPU), handCPU = p50(sample.handCPU)
        print(
            "| \(name) | \(rows) | \(format(strataP0)) | \(format(strataP50)) | \(format(handP0)) | \(format(handP50)) "
                + "| \(ratio(strataP0 / handP0)) | \(ratio(strataP50 / handP50)) | \(format(strataCPU)) / \(format(handCPU)) | \(ratio(strataCPU / handCPU)) |")
    }
    print()
    print("\(options.runs) runs of each contender per workload (after one warm-up run each), contenders alternating; ratio = Strata / hand-written; client CPU = user + system time of this process (not the server's).")
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data("usage: PostgresBench postgres://user@host:port/db [--runs N] [--insert N] [--fetch N] [--find N] [--totals N] [--only insert|fetchAll|find|findPool|totals] [--contender strata|hand]\n".utf8))
    exit(2)
}

try await runBenchmark(options)
