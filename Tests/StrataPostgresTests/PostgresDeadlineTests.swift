import Foundation
@testable import StrataPostgres
import StrataPostgresTestSupport
import Testing

/// Runs `call` and fails the test when it has not returned within `limit`: a hung call is
/// reported (and abandoned) instead of hanging the test run. Returns the call's result, or nil
/// when it hung.
func watched<T: Sendable>(
    _ what: String, limit: Duration, sourceLocation: SourceLocation = #_sourceLocation,
    _ call: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error>? {
    let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, any Error>?, Never>) in
        let once = Once(continuation)
        let task = Task {
            let result: Result<T, any Error>
            do { result = .success(try await call()) } catch { result = .failure(error) }
            once.resume(result)
        }
        Task {
            try? await Task.sleep(for: limit)
            once.resume(nil)
            task.cancel()
        }
    }
    if outcome == nil { Issue.record("\(what) did not return within \(limit): a hung call", sourceLocation: sourceLocation) }
    return outcome
}

/// Resumes a continuation once, from whichever side comes first.
final class Once<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = continuation }
    func resume(_ value: T) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: value)
    }
}

/// The text of every error, checked for postgres-nio's generic description.
func expectServerWords(_ error: any Error, sourceLocation: SourceLocation = #_sourceLocation) {
    let text = "\(error)"
    #expect(!text.contains("Generic description"), "\(text)", sourceLocation: sourceLocation)
    #expect(error is StrataError, "not a StrataError: \(String(reflecting: error))", sourceLocation: sourceLocation)
}

/// No call waits forever: statements are bounded by `queryTimeout` (the server's
/// `statement_timeout`, the client's timer for a server that does not answer), a frozen or
/// silent host fails calls with `.connection`, a COMMIT whose answer is lost is
/// `.commitOutcomeUnknown`, and the pool gets every slot back.
@Suite(.postgreSQLInstalled, .serialized)
struct PostgresDeadlineTests {
    @Test func aStatementLongerThanQueryTimeoutIsCancelledByTheServerAndTheConnectionStays() async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        try await server.withDatabase(configure: { $0.queryTimeout = .seconds(1) }) { pg in
            let backend = try await pg.read { conn in try await conn.query(sql: "SELECT pg_backend_pid()")[0].decode(Int32.self) }
            let clock = ContinuousClock()
            let start = clock.now
            let result = await watched("a read of pg_sleep(30)", limit: .seconds(20)) {
                try await pg.read { conn in try await conn.query(sql: "SELECT pg_sleep(30)") }
            }
            guard case .failure(let error as StrataError)? = result else {
                Issue.record("expected a StrataError, got \(String(describing: result))")
                return
            }
            #expect(clock.now - start < .seconds(10))
            #expect(error.kind == .postgres)
            #expect(error.sqlState == "57014")
            #expect(error.message.contains("statement timeout"), "\(error.message)")
            expectServerWords(error)
            // The same connection answers the next call: the server cancelled, the client kept it.
            let again = try await pg.read { conn in try await conn.query(sql: "SELECT pg_backend_pid()")[0].decode(Int32.self) }
            #expect(again == backend)
            #expect(await pg.connectionsInUse == 0)
            // A migration is not bounded by it: the migrator's connection lifts it.
            try await PostgresMigrator.migrate(pg, migrations: [Migration(version: 1, name: "slow", sql: "SELECT pg_sleep(1.5); CREATE TABLE slow (id BIGINT);")])
            let timeout = try await pg.read { conn in try await conn.query(sql: "SHOW statement_timeout")[0].decode(String.self) }
            #expect(timeout == "1s")
        }
    }

    @Test func aFrozenServerFailsEveryCallWithinTheDeadlineAndThePoolRecovers() async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        var configuration = try PostgresDatabase.Configuration(url: server.url())
        configuration.maximumConnections = 2
        configuration.queryTimeout = .seconds(1)
        configuration.connectTimeout = .seconds(1)
        configuration.failoverTimeout = .seconds(3)
        let pg = try await PostgresDatabase(configuration: configuration)
        try await pg.write { conn in try await conn.execute(sql: "CREATE TABLE t (id BIGINT PRIMARY KEY)") }
        try server.freeze()
        // Bound: failoverTimeout (3 s) + one connection attempt (connect 1 s + answer 2 s) + two
        // answers (2 s each) + a margin of 10 s for a busy machine.
        let limit: Duration = .seconds(20)
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await withTaskGroup(of: Result<Int, any Error>?.self) { group in
            for n in 0..<6 {
                group.addTask {
                    await watched("call \(n) to a frozen server", limit: limit) {
                        if n.isMultiple(of: 2) {
                            return try await pg.read { conn in try await conn.query(sql: "SELECT count(*) FROM t")[0].decode(Int.self) }
                        }
                        return try await pg.write { conn in
                            var bindings = PostgresBindings()
                            bindings.append(n)
                            return try await conn.query(sql: "INSERT INTO t VALUES ($1) RETURNING id", bindings)[0].decode(Int.self)
                        }
                    }
                }
            }
            var outcomes: [Result<Int, any Error>?] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let elapsed = clock.now - start
        try server.thaw()
        #expect(outcomes.count == 6)
        for outcome in outcomes {
            guard case .failure(let error)? = outcome else {
                Issue.record("a call to a frozen server did not fail: \(String(describing: outcome))")
                continue
            }
            expectServerWords(error)
            #expect((error as? StrataError)?.kind == .connection, "\(error)")
        }
        #expect(elapsed < limit)
        // Every slot came back, and the next call opens a new connection that works.
        #expect(await pg.connectionsInUse == 0)
        let count = try await pg.read { conn in try await conn.query(sql: "SELECT count(*) FROM t")[0].decode(Int.self) }
        #expect(count == 0)
        #expect(await pg.connectionsInUse == 0)
        try await pg.close()
    }

    /// The answer to COMMIT is lost (the proxy drops everything after it): the call throws
    /// `.commitOutcomeUnknown` within the deadline, whether the server committed (COMMIT
    /// delivered) or not (COMMIT dropped); the data is whole either way.
    @Test(arguments: [true, false])
    func aConnectionLostWhileCommitIsInFlightIsCommitOutcomeUnknown(delivered: Bool) async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        let proxy = try await FaultProxy(targetPort: server.port)
        defer { proxy.close() }
        var configuration = try PostgresDatabase.Configuration(url: "postgres://\(PostgresTestServer.user)@127.0.0.1:\(proxy.port)/postgres")
        configuration.queryTimeout = .seconds(1)
        configuration.maximumConnections = 1
        let pg = try await PostgresDatabase(configuration: configuration)
        let direct = try await PostgresDatabase(url: server.url())
        try await direct.write { conn in try await conn.execute(sql: "CREATE TABLE pair (id BIGINT PRIMARY KEY)") }

        let result = await watched("a write whose COMMIT is lost", limit: .seconds(15)) {
            try await pg.write { conn in
                _ = try await conn.query(sql: "INSERT INTO pair VALUES (1), (2)")
                proxy.cutOnNext("COMMIT", deliver: delivered)
            }
        }
        guard case .failure(let error as StrataError)? = result else {
            Issue.record("expected a StrataError, got \(String(describing: result))")
            return
        }
        #expect(error.kind == .commitOutcomeUnknown, "\(error)")
        expectServerWords(error)
        #expect(await pg.connectionsInUse == 0)
        // Present or absent, never half: both rows or neither (bounded: 50 checks, 100 ms apart,
        // for the delivered COMMIT to be applied).
        var ids: [Int] = []
        for _ in 0..<50 {
            ids = try await direct.read { conn in try await conn.query(sql: "SELECT id FROM pair ORDER BY id").map { try $0.decode(Int.self) } }
            if !delivered || !ids.isEmpty { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ids == (delivered ? [1, 2] : []))
        // The pool replaced the connection: the next call goes through.
        try await pg.write { conn in _ = try await conn.query(sql: "INSERT INTO pair VALUES (3)") }
        #expect(await pg.connectionsInUse == 0)
        try await pg.close()
        try await direct.close()
    }

    /// A host that goes silent (a partition: no answer, no close) fails calls with
    /// `.connection`; a call waiting for a slot gives up too; the pool keeps no slot.
    @Test func aSilentHostAndAFullPoolFailWithinTheirBounds() async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        let proxy = try await FaultProxy(targetPort: server.port)
        defer { proxy.close() }
        var configuration = try PostgresDatabase.Configuration(url: "postgres://\(PostgresTestServer.user)@127.0.0.1:\(proxy.port)/postgres")
        configuration.queryTimeout = .seconds(1)
        configuration.connectTimeout = .seconds(1)
        configuration.failoverTimeout = .seconds(2)
        configuration.maximumConnections = 1
        let pg = try await PostgresDatabase(configuration: configuration)
        // A closure that holds the one connection longer than the wait for a slot.
        let holder = Task { try await pg.read { _ in try await Task.sleep(for: .seconds(4)) } }
        try await Task.sleep(for: .milliseconds(300))
        let waiter = await watched("a call waiting for a slot", limit: .seconds(10)) { try await pg.read { _ in 1 } }
        guard case .failure(let waited as StrataError)? = waiter else {
            Issue.record("expected a StrataError, got \(String(describing: waiter))")
            return
        }
        #expect(waited.kind == .connection)
        #expect(waited.message.contains("no connection became free"), "\(waited.message)")
        try await holder.value
        #expect(await pg.connectionsInUse == 0)

        proxy.blackHole()
        for n in 0..<3 {
            let result = await watched("call \(n) to a silent host", limit: .seconds(15)) {
                try await pg.write { conn in _ = try await conn.query(sql: "SELECT 1") }
            }
            guard case .failure(let error)? = result else {
                Issue.record("a call to a silent host did not fail: \(String(describing: result))")
                continue
            }
            expectServerWords(error)
            #expect((error as? StrataError)?.kind == .connection, "\(error)")
        }
        #expect(await pg.connectionsInUse == 0)
        proxy.restore()
        let one = try await pg.read { conn in try await conn.query(sql: "SELECT 1")[0].decode(Int.self) }
        #expect(one == 1)
        try await pg.close()
    }

    /// Errors carry the server's own words: message, DETAIL, HINT and position, and the
    /// SQLSTATE; never postgres-nio's generic description.
    @Test func errorsAreInTheServersWords() async throws {
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        try await server.withDatabase { pg in
            let syntax = await #expect(throws: StrataError.self) {
                try await pg.read { conn in try await conn.query(sql: "SELEC 1") }
            }
            #expect(syntax?.sqlState == "42601")
            #expect(syntax?.message.contains("syntax error at or near \"SELEC\"") == true, "\(syntax?.message ?? "")")
            #expect(syntax?.message.contains("(at character 1 of the statement)") == true, "\(syntax?.message ?? "")")

            let function = await #expect(throws: StrataError.self) {
                try await pg.read { conn in try await conn.query(sql: "SELECT 1 + no_such_function(2)") }
            }
            #expect(function?.sqlState == "42883")
            #expect(function?.message.contains("function no_such_function(integer) does not exist") == true, "\(function?.message ?? "")")
            #expect(function?.message.contains("HINT: No function matches the given name and argument types") == true, "\(function?.message ?? "")")
            #expect(function?.message.contains("(at character 12 of the statement)") == true, "\(function?.message ?? "")")

            try await pg.write { conn in try await conn.execute(sql: "CREATE TABLE u (id BIGINT PRIMARY KEY)") }
            try await pg.write { conn in _ = try await conn.query(sql: "INSERT INTO u VALUES (7)") }
            let duplicate = await #expect(throws: StrataError.self) {
                try await pg.write { conn in _ = try await conn.query(sql: "INSERT INTO u VALUES (7)") }
            }
            #expect(duplicate?.sqlState == "23505")
            #expect(duplicate?.constraint == .unique)
            #expect(duplicate?.message.contains("duplicate key value violates unique constraint \"u_pkey\"") == true)
            #expect(duplicate?.message.contains("DETAIL: Key (id)=(7) already exists.") == true, "\(duplicate?.message ?? "")")
            for error in [syntax, function, duplicate].compactMap({ $0 }) { expectServerWords(error) }

            // A caught failure inside write: the transaction is rolled back, the call says so.
            let caught = await #expect(throws: StrataError.self) {
                try await pg.write { conn in _ = try? await conn.query(sql: "INSERT INTO u VALUES (7)") }
            }
            #expect(caught?.sqlState == "25P02")
            #expect(caught?.message.contains("rolled back") == true)
            #expect(await pg.connectionsInUse == 0)
        }
    }
}
