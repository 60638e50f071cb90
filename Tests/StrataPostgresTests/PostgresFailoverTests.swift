import Foundation
import Logging
import StrataPostgres
import StrataPostgresTestSupport
import Testing

/// Inserts one event; a retry of an insert whose acknowledgement was lost finds the row there.
private struct InsertEvent: PostgresPreparedStatement {
    static let sql = "INSERT INTO event (id, payload) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING"
    typealias Row = ()
    var id: Int

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(id)
        bindings.append("event \(id)")
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

/// What the writer saw: the ids whose insert returned, and when the first one after the kill
/// did, on any server and on the new primary.
///
/// The backends of a killed postmaster live on until they notice its death, and the standby's
/// WAL receiver stays connected to the orphaned WAL sender for a moment: a write can still commit
/// (synchronously replicated) on the old primary just after the kill. The time that measures the
/// failover is the one to the first write on the new primary.
private actor Ledger {
    var acknowledged: [Int] = []
    var failedAttempts = 0
    var killedAt: ContinuousClock.Instant?
    var firstWriteAfterKill: Duration?
    var firstWriteOnNewPrimary: Duration?
    var newPrimaryPort: Int?

    func acknowledge(_ id: Int, at instant: ContinuousClock.Instant, port: Int) {
        acknowledged.append(id)
        guard let killedAt else { return }
        if firstWriteAfterKill == nil { firstWriteAfterKill = instant - killedAt }
        if port == newPrimaryPort, firstWriteOnNewPrimary == nil { firstWriteOnNewPrimary = instant - killedAt }
    }

    func expectNewPrimary(port: Int) { newPrimaryPort = port }

    /// What the writer is doing, for the report of a writer that did not finish in time.
    var step = "not started"
    var isDone = false
    func enter(_ step: String) { self.step = step }
    func done() { isDone = true }

    func failed() { failedAttempts += 1 }
    func killed(at instant: ContinuousClock.Instant) { killedAt = instant }
}

@Suite(.postgreSQLInstalled)
struct PostgresFailoverTests {
    static let rows = 400
    static let killAfter = 150

    /// A primary and a synchronous streaming standby on loopback; a writer inserts rows through a
    /// PostgresDatabase configured with both; the primary is killed with SIGKILL mid-stream, the
    /// standby promoted; every row whose insert returned before the kill is on the new primary.
    @Test func everyAcknowledgedRowSurvivesKillingThePrimaryAndPromotingTheStandby() async throws {
        let clock = ContinuousClock()
        let primary = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { primary.stop() }
        let standby = try await PostgresTestServer.offCooperativeThreads { try primary.makeStandby() }
        defer { standby.stop() }

        let admin = try await PostgresDatabase(url: primary.url())
        try await admin.withConnection { conn in
            try await conn.execute(sql: "ALTER SYSTEM SET synchronous_standby_names = '*'")
            try await conn.execute(sql: "ALTER SYSTEM SET synchronous_commit = 'on'")
            try await conn.execute(sql: "SELECT pg_reload_conf()")
        }
        // Bounded: 300 checks, 100 ms apart.
        var synchronous = false
        for _ in 0..<300 where !synchronous {
            synchronous = try await admin.read { conn in
                try await conn.query(sql: "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'")[0]
                    .decode(Int.self) == 1
            }
            if !synchronous { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(synchronous, "the standby did not become a synchronous streaming standby")
        try await admin.write { conn in try await conn.execute(sql: "CREATE TABLE event (id BIGINT PRIMARY KEY, payload TEXT NOT NULL)") }
        try await admin.close()

        var configuration = try PostgresDatabase.Configuration(urls: [primary.url(), standby.url()])
        configuration.maximumConnections = 2
        configuration.connectTimeout = .seconds(2)
        configuration.failoverTimeout = .seconds(60)
        // STRATA_FAILOVER_TRACE=1 shows the client's side: postgres-nio's and the pool's logs.
        var logger: Logger?
        if ProcessInfo.processInfo.environment["STRATA_FAILOVER_TRACE"] != nil {
            logger = Logger(label: "failover", factory: { label in StreamLogHandler.standardError(label: label) })
            logger?.logLevel = .trace
        }
        let pg = try await PostgresDatabase(configuration: configuration, logger: logger)
        #expect(await pg.currentHost.port == primary.port)

        let ledger = Ledger()
        await ledger.expectNewPrimary(port: standby.port)
        let writer = Task {
            for id in 1...Self.rows {
                // Bounded per row: 200 attempts and 90 s.
                let start = clock.now
                var attempts = 0
                while true {
                    attempts += 1
                    do {
                        await ledger.enter("row \(id), attempt \(attempts): write")
                        let port = try await pg.write { conn in
                            try await conn.execute(InsertEvent(id: id))
                            return conn.host.port
                        }
                        await ledger.acknowledge(id, at: clock.now, port: port)
                        break
                    } catch let error as StrataError where error.kind == .connection || error.sqlState == "25006" {
                        await ledger.failed()
                        await ledger.enter("row \(id), attempt \(attempts) failed: \(error)")
                        guard attempts < 200, clock.now - start < .seconds(90) else { throw error }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
            }
            await ledger.done()
        }

        // Kill the primary mid-stream, after `killAfter` acknowledged rows (bounded: 60 s).
        let waitStart = clock.now
        while await ledger.acknowledged.count < Self.killAfter, clock.now - waitStart < .seconds(60) {
            try await Task.sleep(for: .milliseconds(2))
        }
        try primary.kill()
        let killedAt = clock.now
        await ledger.killed(at: killedAt)
        let acknowledgedBeforeKill = Set(await ledger.acknowledged)
        try await PostgresTestServer.offCooperativeThreads { try standby.promote() }
        let promotedAfter = clock.now - killedAt
        let newPrimary = try await PostgresDatabase(url: standby.url())
        try await newPrimary.withConnection { conn in
            try await conn.execute(sql: "ALTER SYSTEM RESET synchronous_standby_names")
            try await conn.execute(sql: "SELECT pg_reload_conf()")
        }

        // Bounded: the writer has 120 s to finish; one that hangs is reported with its last step.
        let writerStart = clock.now
        while await !ledger.isDone, clock.now - writerStart < .seconds(120) {
            try await Task.sleep(for: .milliseconds(20))
        }
        guard await ledger.isDone else {
            writer.cancel()
            Issue.record("the writer did not finish within 120 s; its last step: \(await ledger.step)")
            try await newPrimary.close()
            return
        }
        try await writer.value
        let acknowledged = await ledger.acknowledged
        let present = Set(
            try await newPrimary.read { conn in
                try await conn.query(sql: "SELECT id FROM event").map { try $0.decode(Int.self) }
            })
        try await newPrimary.close()
        #expect(await pg.currentHost.port == standby.port)
        try await pg.close()

        let lostBeforeKill = acknowledgedBeforeKill.subtracting(present)
        let lost = Set(acknowledged).subtracting(present)
        let firstWrite = await ledger.firstWriteAfterKill
        let firstWriteOnNewPrimary = await ledger.firstWriteOnNewPrimary
        let failed = await ledger.failedAttempts
        func milliseconds(_ duration: Duration?) -> String {
            duration.map { String(format: "%.0f ms", Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15) } ?? "none"
        }
        print(
            """
            failover: rows written \(acknowledged.count) (\(acknowledgedBeforeKill.count) before the kill), \
            lost \(lost.count) (\(lostBeforeKill.count) of those acknowledged before the kill), failed attempts \(failed); \
            after the kill: standby promoted at \(milliseconds(promotedAfter)), first successful write at \(milliseconds(firstWrite)), \
            first successful write on the new primary at \(milliseconds(firstWriteOnNewPrimary))
            """)
        #expect(acknowledgedBeforeKill.count >= Self.killAfter)
        #expect(lostBeforeKill.isEmpty)
        #expect(lost.isEmpty)
        #expect(acknowledged.count == Self.rows)
        #expect(firstWriteOnNewPrimary != nil, "the writer never reached the promoted standby")
    }
}
