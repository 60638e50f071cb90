import Foundation
import StrataPostgres
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What ``PostgresTestServer/makeStandbysSynchronous(verifiedWith:)`` saw.
public struct SynchronousSetup: Sendable {
    /// Whether commits already waited for the standby before the `CHECKPOINT` barrier (the same
    /// probe, run first): false when seeing `sync` in `pg_stat_replication` alone would have let
    /// commits through unreplicated.
    public var waitedBeforeTheBarrier: Bool
    /// What the primary showed each time a probe after the barrier was acknowledged without the
    /// standby (then repeated); empty when the first one waited.
    public var probesFailedAfterTheBarrier: [String] = []
}

extension PostgresTestServer {
    /// The ids of this server's child processes whose title (`postgres: checkpointer`,
    /// `postgres: walsender …`, from /proc/PID/cmdline) contains `role`.
    public func childProcessIDs(role: String) throws -> [Int32] {
        try processIDs().dropFirst().filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let title = String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
            return title.contains(role)
        }
    }

    /// Sends `signal` to the child processes whose title contains `role` (see
    /// ``childProcessIDs(role:)``); throws when there is none.
    public func signal(role: String, _ signal: Int32) throws {
        let ids = try childProcessIDs(role: role)
        guard !ids.isEmpty else { throw TestServerError(message: "no \(role) process on the server of port \(port)") }
        for pid in ids { _ = Glibc.kill(pid, signal) }
    }

    /// Makes this primary's standbys synchronous (`synchronous_standby_names = '*'`,
    /// `synchronous_commit = on`, through `ALTER SYSTEM` and a reload) and returns only once a
    /// commit here really waits for `standby`.
    ///
    /// Seeing the standby as `sync` in `pg_stat_replication` is NOT enough: that view reflects
    /// the reloaded setting of the WAL sender and of the session that reads it, while a commit
    /// waits for a standby only once the CHECKPOINTER has reloaded it too (it alone sets the
    /// shared flag `sync_standbys_defined` that `SyncRepWaitForLSN` reads). Until then commits
    /// are acknowledged at once, asynchronously, and a crash of the primary right after can
    /// lose them although the standby "is synchronous" — which is what lost one acknowledged
    /// write per 200-round run of `PostgresFailoverTests` before this check.
    ///
    /// So after the view says `sync`: a `CHECKPOINT`, which the checkpointer starts only after
    /// it has handled its pending reload (a barrier), then a probe: with `standby` frozen, a
    /// commit must be seen waiting for it (`wait_event = 'SyncRep'`), and must finish once the
    /// standby is thawed. A primary that acknowledges the probe without its standby fails here
    /// with ``TestServerError``.
    ///
    /// A probe that fails after the barrier is repeated (barrier and probe again, 200 ms apart,
    /// at most 20 times) with what the primary showed noted in
    /// ``SynchronousSetup/probesFailedAfterTheBarrier``: the round goes on only once a probe
    /// commit has been seen waiting. (The 2nd 200-round run with the barrier alone failed here
    /// once, after about 100 rounds: the barrier does not explain everything.)
    ///
    /// `afterTheFirstProbe` runs once, after the probe before the barrier and before the first
    /// `CHECKPOINT`: a test that holds the checkpointer releases it from there, so the first
    /// probe sees the held state however long the set-up took.
    @discardableResult
    public func makeStandbysSynchronous(
        verifiedWith standby: PostgresTestServer,
        afterTheFirstProbe: @Sendable () async throws -> Void = {}
    ) async throws -> SynchronousSetup {
        var configuration = try PostgresDatabase.Configuration(url: url())
        configuration.queryTimeout = .seconds(20)
        let admin = try await PostgresDatabase(configuration: configuration)
        do {
            try await admin.withConnection { conn in
                try await conn.execute(sql: "CREATE TABLE IF NOT EXISTS strata_sync_probe (n BIGINT)")
                try await conn.execute(sql: "ALTER SYSTEM SET synchronous_standby_names = '*'")
                try await conn.execute(sql: "ALTER SYSTEM SET synchronous_commit = 'on'")
                try await conn.execute(sql: "SELECT pg_reload_conf()")
            }
            try await waitUntilStreamingSynchronously(admin)
            var setup = SynchronousSetup(waitedBeforeTheBarrier: try await probeSynchronousCommit(admin, standby: standby))
            try await afterTheFirstProbe()
            for attempt in 1...20 {
                try await admin.withConnection { conn in try await conn.execute(sql: "CHECKPOINT") }
                if try await probeSynchronousCommit(admin, standby: standby) { break }
                let shown = try await admin.read { conn in
                    try await conn.query(
                        sql: """
                            SELECT pg_current_wal_lsn()::text || ' sync_standbys=' || current_setting('synchronous_standby_names') || ' ' ||
                              coalesce((SELECT string_agg(application_name || ':' || coalesce(client_port::text, '?') || ':' || state || ':' || sync_state
                                || ':flush=' || coalesce(flush_lsn::text, '-'), ', ') FROM pg_stat_replication), 'no standby')
                            """)[0].decode(String.self)
                }
                setup.probesFailedAfterTheBarrier.append("port \(port), attempt \(attempt): \(shown)")
                guard attempt < 20 else {
                    throw TestServerError(
                        message: "the primary on port \(port) acknowledged commits while its synchronous standby (port \(standby.port)) was frozen, 20 times: \(setup.probesFailedAfterTheBarrier)")
                }
                try await Task.sleep(for: .milliseconds(200))
            }
            try await admin.close()
            return setup
        } catch {
            try? await admin.close()
            throw error
        }
    }

    /// Waits (bounded: 300 checks 50 ms apart) until one standby streams with `sync_state = 'sync'`.
    public func waitUntilStreamingSynchronously(_ admin: PostgresDatabase) async throws {
        for _ in 0..<300 {
            let synchronous = try await admin.read { conn in
                try await conn.query(sql: "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync' AND state = 'streaming'")[0]
                    .decode(Int.self) == 1
            }
            if synchronous { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestServerError(message: "the standby of \(port) did not become a synchronous streaming standby")
    }

    /// With `standby` frozen, commits on this primary and whether it waits for the standby (seen
    /// in `pg_stat_activity` as `wait_event = 'SyncRep'`, bounded: 10 s; then it ends once the
    /// standby thaws): true; false when the commit was acknowledged without the standby.
    func probeSynchronousCommit(_ admin: PostgresDatabase, standby: PostgresTestServer) async throws -> Bool {
        let backend = Mutex<Int32?>(nil)
        let finished = Mutex(false)
        try standby.freeze()
        var thawed = false
        defer { if !thawed { try? standby.thaw() } }
        let probe = Task {
            defer { finished.withLock { $0 = true } }
            try await admin.write { conn in
                let pid = try await conn.query(sql: "SELECT pg_backend_pid()")[0].decode(Int32.self)
                backend.withLock { $0 = pid }
                try await conn.execute(sql: "INSERT INTO strata_sync_probe VALUES (1)")
            }
        }
        let clock = ContinuousClock()
        let start = clock.now
        var waiting = false
        while clock.now - start < .seconds(10) {
            if finished.withLock({ $0 }) { break }
            if let pid = backend.withLock({ $0 }) {
                var bindings = PostgresBindings()
                bindings.append(pid)
                let event = try await admin.read { conn in
                    try await conn.query(sql: "SELECT coalesce(wait_event, '') FROM pg_stat_activity WHERE pid = $1", bindings).first?
                        .decode(String.self)
                }
                if event == "SyncRep" {
                    waiting = true
                    break
                }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        try standby.thaw()
        thawed = true
        try await probe.value
        if waiting { return true }
        guard finished.withLock({ $0 }) else {
            throw TestServerError(message: "a commit on port \(port) was not seen waiting for its standby (port \(standby.port)) within 10 s")
        }
        return false
    }
}
