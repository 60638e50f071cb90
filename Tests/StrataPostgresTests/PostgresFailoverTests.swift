import Foundation
import Logging
@testable import StrataPostgres
import StrataPostgresTestSupport
import Synchronization
import Testing

/// What the writers and readers saw.
private actor Ledger {
    private var nextID = 0
    var acknowledged: Set<Int> = []
    /// Writes that failed with `.commitOutcomeUnknown`: checked at the end, present or absent.
    var unknown: Set<Int> = []
    var failedAttempts = 0
    var hangs = 0
    var unexpected: [String] = []
    var reads = 0
    var failedReads = 0
    var errorTexts: [String] = []

    /// The current fault: when it happened and which port the new primary has.
    private var faultAt: ContinuousClock.Instant?
    private var newPrimaryPort: Int?
    private var faultIsFreeze = false
    private(set) var firstWriteOnNewPrimary: Duration?
    var failoverTimes: [Duration] = []
    var failoverTimesAfterKills: [Duration] = []
    var failoverTimesAfterFreezes: [Duration] = []
    /// The same for reads: the first read answered by the new primary after each fault.
    private(set) var firstReadOnNewPrimary: Duration?
    var readFailoverTimesAfterKills: [Duration] = []
    var readFailoverTimesAfterFreezes: [Duration] = []

    func newID() -> Int {
        nextID += 1
        return nextID
    }

    func acknowledge(_ id: Int, port: Int, at instant: ContinuousClock.Instant) {
        acknowledged.insert(id)
        if let faultAt, port == newPrimaryPort, firstWriteOnNewPrimary == nil {
            firstWriteOnNewPrimary = instant - faultAt
            failoverTimes.append(instant - faultAt)
            if faultIsFreeze { failoverTimesAfterFreezes.append(instant - faultAt) } else { failoverTimesAfterKills.append(instant - faultAt) }
        }
    }

    func fault(at instant: ContinuousClock.Instant, newPrimaryPort port: Int, freeze: Bool) {
        faultAt = instant
        newPrimaryPort = port
        faultIsFreeze = freeze
        firstWriteOnNewPrimary = nil
        firstReadOnNewPrimary = nil
    }

    func failed(_ error: any Error) {
        failedAttempts += 1
        note(error)
    }

    func outcomeUnknown(_ id: Int, _ error: any Error) {
        unknown.insert(id)
        note(error)
    }

    func hung(_ id: Int) {
        hangs += 1
        unknown.insert(id)
    }

    func unexpected(_ text: String) { unexpected.append(text) }

    func read(ok: Bool) {
        if ok { reads += 1 } else { failedReads += 1 }
    }

    func read(port: Int, at instant: ContinuousClock.Instant) {
        reads += 1
        if let faultAt, port == newPrimaryPort, firstReadOnNewPrimary == nil {
            firstReadOnNewPrimary = instant - faultAt
            if faultIsFreeze { readFailoverTimesAfterFreezes.append(instant - faultAt) } else { readFailoverTimesAfterKills.append(instant - faultAt) }
        }
    }

    func hungRead() { hangs += 1 }

    /// A few error texts, for the checks on their words.
    private func note(_ error: any Error) {
        if errorTexts.count < 200 { errorTexts.append("\(error)") }
    }
}

/// A primary and a synchronous streaming standby on loopback; writers and readers run through
/// ONE `PostgresDatabase` configured with both ports, while the primary is killed (SIGKILL to
/// every process of the server at once, as a crash of its machine) or
/// frozen (SIGSTOP, for longer than the deadline) and the standby promoted, round after round:
/// after each round the dead primary's port gets a new standby of the new primary, made
/// synchronous by `makeStandbysSynchronous(verifiedWith:)`, which returns only once a commit
/// on the primary is seen waiting for that standby (seeing it as `sync` in
/// `pg_stat_replication` was not enough: see `PostgresSynchronousStandbyTests`).
///
/// Every call is watched (deadline + margin): 0 hung calls. Every failure is a typed
/// `StrataError` in the server's or the client's words. Every acknowledged write (two rows,
/// one in each table) is on the last primary; every `.commitOutcomeUnknown` write is there whole
/// or not at all.
///
/// `STRATA_FAILOVER_ROUNDS` sets the number of rounds (20 by default; 200 for the long mode);
/// `STRATA_FAILOVER_TRACE=1` shows postgres-nio's and the pool's logs.
@Suite(.postgreSQLInstalled, .serialized)
struct PostgresFailoverTests {
    static var rounds: Int {
        ProcessInfo.processInfo.environment["STRATA_FAILOVER_ROUNDS"].flatMap(Int.init) ?? 20
    }
    static let writers = 8
    static let readers = 2
    /// Acknowledged writes per round before the fault.
    static let writesPerRound = 12
    /// Every `freezeEvery`-th round freezes the primary instead of killing it.
    static let freezeEvery = 4

    static let queryTimeout = Duration.seconds(2)
    static let connectTimeout = Duration.seconds(2)
    static let failoverTimeout = Duration.seconds(20)
    /// The longest a call may take: waiting for a slot and connecting (failoverTimeout and one
    /// more connection attempt), then the five statements of a write, each of which may wait
    /// for its answer (BEGIN, INSERT, INSERT, SET LOCAL, COMMIT: queryTimeout + 1 s each), and
    /// a margin for a busy machine.
    static let callLimit = failoverTimeout + connectTimeout + (queryTimeout + .seconds(1)) * 6 + .seconds(15)

    @Test func noAcknowledgedWriteIsLostAndNoCallHangsAcrossRepeatedKillsAndFreezes() async throws {
        let clock = ContinuousClock()
        let testStart = clock.now
        var primary = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        let first = primary
        var standby = try await PostgresTestServer.offCooperativeThreads { try first.makeStandby() }
        var servers = [primary, standby]
        defer { for server in servers { server.stop() } }
        try await primary.makeStandbysSynchronous(verifiedWith: standby)
        do {
            let admin = try await PostgresDatabase(url: primary.url())
            try await admin.write { conn in
                try await conn.execute(sql: "CREATE TABLE pair_a (id BIGINT PRIMARY KEY); CREATE TABLE pair_b (id BIGINT PRIMARY KEY)")
            }
            try await admin.close()
        }

        var configuration = try PostgresDatabase.Configuration(urls: [primary.url(), standby.url()])
        configuration.maximumConnections = 4
        configuration.connectTimeout = Self.connectTimeout
        configuration.queryTimeout = Self.queryTimeout
        configuration.failoverTimeout = Self.failoverTimeout
        var logger: Logger?
        if ProcessInfo.processInfo.environment["STRATA_FAILOVER_TRACE"] != nil {
            logger = Logger(label: "failover", factory: { label in StreamLogHandler.standardError(label: label) })
            logger?.logLevel = .trace
        }
        let pg = try await PostgresDatabase(configuration: configuration, logger: logger)
        #expect(await pg.currentHost.port == primary.port)

        let ledger = Ledger()
        let stop = Flag()
        let limit = Self.callLimit
        var workers: [Task<Void, Never>] = []
        for _ in 0..<Self.writers {
            workers.append(Task {
                while !stop.isSet {
                    let id = await ledger.newID()
                    // Bounded per write: 500 attempts (each bounded by the watch).
                    for attempt in 1...500 {
                        let result = await watched("write \(id)", limit: limit) {
                            try await pg.write { conn in
                                var bindings = PostgresBindings()
                                bindings.append(id)
                                _ = try await conn.query(sql: "INSERT INTO pair_a (id) VALUES ($1)", bindings)
                                _ = try await conn.query(sql: "INSERT INTO pair_b (id) VALUES ($1)", bindings)
                                return conn.host.port
                            }
                        }
                        switch result {
                        case nil:
                            await ledger.hung(id)
                        case .success(let port)?:
                            await ledger.acknowledge(id, port: port, at: clock.now)
                        case .failure(let error as StrataError)? where error.kind == .connection:
                            // Nothing was committed: the same write again.
                            await ledger.failed(error)
                            if attempt == 500 { await ledger.unexpected("write \(id) failed 500 times: \(error)") }
                            try? await Task.sleep(for: .milliseconds(20))
                            continue
                        case .failure(let error as StrataError)? where error.kind == .commitOutcomeUnknown:
                            await ledger.outcomeUnknown(id, error)
                        case .failure(let error)?:
                            await ledger.unexpected("write \(id): \(String(reflecting: error))")
                            await ledger.outcomeUnknown(id, error)
                        }
                        break
                    }
                    // Many writers, not a flood: the machine also has to rebuild standbys.
                    try? await Task.sleep(for: .milliseconds(10))
                }
            })
        }
        for _ in 0..<Self.readers {
            workers.append(Task {
                while !stop.isSet {
                    let result = await watched("a read", limit: limit) {
                        try await pg.read { conn in
                            // An index lookup: `count(*)` of ~300,000 rows outlived the 2 s statement_timeout
                            // on the loaded machine (a correct 57014, but not what this test is about).
                            _ = try await conn.query(sql: "SELECT coalesce(max(id), 0) FROM pair_a")[0].decode(Int.self)
                            return conn.host.port
                        }
                    }
                    switch result {
                    case nil:
                        await ledger.hungRead()
                    case .success(let port)?:
                        await ledger.read(port: port, at: clock.now)
                    case .failure(let error as StrataError)? where error.kind == .connection:
                        await ledger.read(ok: false)
                        try? await Task.sleep(for: .milliseconds(20))
                    case .failure(let error)?:
                        await ledger.unexpected("read: \(String(reflecting: error))")
                    }
                    try? await Task.sleep(for: .milliseconds(10))
                }
            })
        }

        var completedRounds = 0
        var freezes = 0
        var rebuildTimes: [Duration] = []
        /// Rounds where commits did not wait for the new standby yet when `pg_stat_replication`
        /// showed it as `sync` (what the harness relied on before its barrier).
        var windowsBeforeTheBarrier = 0
        /// Probes that were acknowledged without the standby even after the barrier (then repeated).
        var probesFailedAfterTheBarrier: [String] = []
        rounds: for round in 0..<Self.rounds {
            // Bounded: 60 s for this round's writes.
            let target = await ledger.acknowledged.count + Self.writesPerRound
            let waitStart = clock.now
            while await ledger.acknowledged.count < target {
                guard clock.now - waitStart < .seconds(60) else {
                    Issue.record("round \(round): fewer than \(Self.writesPerRound) writes acknowledged in 60 s")
                    break rounds
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            let freeze = round % Self.freezeEvery == Self.freezeEvery - 1
            let faultAt = clock.now
            await ledger.fault(at: faultAt, newPrimaryPort: standby.port, freeze: freeze)
            if freeze {
                try primary.freeze()
                freezes += 1
            } else {
                // The whole server at once, as a crash of its machine (killing the postmaster
                // alone leaves its backends and WAL sender running for a moment).
                try primary.killAll()
            }
            let promoting = standby
            try await PostgresTestServer.offCooperativeThreads { try promoting.promote() }
            do {
                let admin = try await PostgresDatabase(url: standby.url())
                try await admin.withConnection { conn in
                    try await conn.execute(sql: "ALTER SYSTEM RESET synchronous_standby_names")
                    try await conn.execute(sql: "SELECT pg_reload_conf()")
                }
                try await admin.close()
            }
            // Bounded: the first write and the first read on the new primary within 60 s (after a
            // freeze too: calls stuck on the frozen host give their slots back).
            while true {
                let written = await ledger.firstWriteOnNewPrimary != nil
                let read = await ledger.firstReadOnNewPrimary != nil
                if written && read { break }
                guard clock.now - faultAt < .seconds(60) else {
                    Issue.record("round \(round): no write or no read reached the new primary within 60 s")
                    break rounds
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            if freeze {
                // Frozen for longer than the deadline, with the calls running: then gone for good.
                let frozenFor = Self.queryTimeout * 2 + .seconds(2)
                if clock.now - faultAt < frozenFor { try await Task.sleep(until: faultAt + frozenFor, clock: .continuous) }
            }
            // The old primary is gone for good; a new standby of the new primary takes its port.
            let rebuildStart = clock.now
            let dead = primary
            try? dead.killAll()
            let newPrimary = standby
            let newStandby = try await PostgresTestServer.offCooperativeThreads { () throws -> PostgresTestServer in
                dead.stop()
                return try newPrimary.makeStandby(port: dead.port)
            }
            servers = [newPrimary, newStandby]
            primary = newPrimary
            standby = newStandby
            let setup = try await primary.makeStandbysSynchronous(verifiedWith: standby)
            if !setup.waitedBeforeTheBarrier { windowsBeforeTheBarrier += 1 }
            probesFailedAfterTheBarrier += setup.probesFailedAfterTheBarrier.map { "round \(round): \($0)" }
            rebuildTimes.append(clock.now - rebuildStart)
            completedRounds += 1
        }

        stop.set()
        for worker in workers { await worker.value }
        let busy = await pg.connectionsInUse
        try await pg.close()

        let direct = try await PostgresDatabase(url: primary.url())
        let (a, b) = try await direct.read { conn in
            (
                Set(try await conn.query(sql: "SELECT id FROM pair_a").map { try $0.decode(Int.self) }),
                Set(try await conn.query(sql: "SELECT id FROM pair_b").map { try $0.decode(Int.self) })
            )
        }
        try await direct.close()

        let acknowledged = await ledger.acknowledged
        let unknown = await ledger.unknown
        let lost = acknowledged.subtracting(a).union(acknowledged.subtracting(b))
        let half = a.symmetricDifference(b)
        let unknownPresent = unknown.intersection(a).count
        let hangs = await ledger.hangs
        let unexpected = await ledger.unexpected
        let times = await ledger.failoverTimes.sorted()
        func ms(_ duration: Duration?) -> String {
            duration.map { String(format: "%.0f ms", Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15) } ?? "none"
        }
        func spread(_ durations: [Duration]) -> String {
            let sorted = durations.sorted()
            return sorted.isEmpty ? "none" : "min \(ms(sorted.first)), median \(ms(sorted[sorted.count / 2])), max \(ms(sorted.last))"
        }
        let afterKills = spread(await ledger.failoverTimesAfterKills)
        let afterFreezes = spread(await ledger.failoverTimesAfterFreezes)
        let readTimesAfterKills = await ledger.readFailoverTimesAfterKills
        let readTimesAfterFreezes = await ledger.readFailoverTimesAfterFreezes
        print(
            """
            failover: \(completedRounds) rounds (\(freezes) freezes, \(completedRounds - freezes) kills) in \(ms(clock.now - testStart)); \
            \(acknowledged.count) writes acknowledged, \(lost.count) lost, \(half.count) half-written; \
            \(unknown.count) commit outcomes unknown (\(unknownPresent) committed, \(unknown.count - unknownPresent) not); \
            \(await ledger.failedAttempts) failed attempts retried; \(await ledger.reads) reads, \(await ledger.failedReads) failed reads; \
            \(hangs) hung calls; \(unexpected.count) unexpected errors; \
            first write on the new primary after a kill: \(afterKills), after a freeze: \(afterFreezes); \
            first read there after a kill: \(spread(readTimesAfterKills)), after a freeze: \(spread(readTimesAfterFreezes)); \
            rebuilding a standby: median \(ms(rebuildTimes.isEmpty ? nil : rebuildTimes.sorted()[rebuildTimes.count / 2])); \
            rounds where commits did not wait for the standby yet when pg_stat_replication said sync: \(windowsBeforeTheBarrier); \
            probes acknowledged without the standby after the CHECKPOINT barrier (repeated): \(probesFailedAfterTheBarrier.count) \(probesFailedAfterTheBarrier.prefix(10))
            """)
        #expect(completedRounds == Self.rounds)
        #expect(lost.isEmpty, "acknowledged writes lost: \(lost.sorted().prefix(20))")
        #expect(half.isEmpty, "writes present in one table only: \(half.sorted().prefix(20))")
        #expect(hangs == 0)
        #expect(unexpected.isEmpty, "\(unexpected.prefix(10))")
        #expect(busy == 0, "connections still in use after every call returned: \(busy)")
        #expect(times.count == completedRounds)
        #expect(readTimesAfterKills.count + readTimesAfterFreezes.count == completedRounds)
        #expect(readTimesAfterFreezes.count == freezes, "reads did not recover after every freeze")
        for text in await ledger.errorTexts {
            #expect(!text.contains("Generic description"), "\(text)")
        }
    }
}

/// A flag set once, read from any task.
private final class Flag: Sendable {
    private let state = Mutex(false)
    var isSet: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
}
