import Foundation
import Logging
import PostgresNIO

/// A PostgreSQL database reached through a small pool of connections, with failover across
/// several hosts.
///
/// ```swift
/// import StrataPostgres
///
/// let pg = try await PostgresDatabase(url: "postgres://app@127.0.0.1:5432,127.0.0.1:5433/shop")
/// let id = try await pg.write { conn in
///     var bindings = PostgresBindings()
///     bindings.append("Ann")
///     return try await conn.query(sql: "INSERT INTO customer (name) VALUES ($1) RETURNING id", bindings)[0].decode(Int.self)
/// }
/// try await pg.close()
/// ```
///
/// - ``write(isolation:_:)`` runs its closure in a transaction (`BEGIN` … `COMMIT`; `ROLLBACK` when it
///   throws) on a server that accepts writes: the first host, in order, that is not in recovery
///   (libpq's `target_session_attrs=read-write`).
/// - ``read(isolation:_:)`` runs its closure on the same server, outside a transaction: each statement
///   sees its own snapshot. Read in ``write(isolation:_:)`` for one snapshot across several statements.
/// - When a connection is lost (the primary crashed, a standby was promoted), the call that was
///   using it fails with `StrataError.Kind.connection` and the connection is dropped with the
///   other idle ones; the next call connects again, trying the hosts in order for up to
///   ``Configuration/failoverTimeout``. A failed write is not retried: only the caller knows
///   whether running it again is safe. A write whose connection was lost while its `COMMIT`
///   was in flight fails with `StrataError.Kind.commitOutcomeUnknown`: it may have committed.
/// - No call waits forever: each statement is bounded by ``Configuration/queryTimeout`` (the
///   server's `statement_timeout`, and one second more on the client for a server that does
///   not answer at all), new connections by ``Configuration/connectTimeout`` and
///   ``Configuration/failoverTimeout``, and a wait for a free connection by the latter.
/// - The closures run in the caller's isolation: call ``write(isolation:_:)`` and
///   ``read(isolation:_:)`` from the main actor, an actor, top-level code or a nonisolated
///   function alike.
/// - Every error is a `StrataError`: `StrataError.Kind.postgres` with the server's
///   `StrataError.sqlState` and message, `StrataError.Kind.connection`, or
///   `StrataError.Kind.decoding`.
/// - On Linux, the first database created sets `SIGPIPE` to be ignored when it has its default
///   disposition, as servers built on SwiftNIO do: otherwise a write to a server that has just
///   gone away would end the process instead of failing with `StrataError.Kind.connection`.
public final class PostgresDatabase: Sendable {
    /// Where and how this database connects.
    public let configuration: Configuration
    let pool: ConnectionPool
    /// The `LISTEN` connection that observations share.
    let changeListener: ChangeListener

    /// Connects to the database that `url` names (see ``Configuration/init(url:)``): several
    /// comma-separated hosts are tried in order for failover. It opens one connection to a
    /// server that qualifies, so a wrong URL fails here.
    public convenience init(url: String, logger: Logger? = nil) async throws {
        try await self.init(configuration: Configuration(url: url), logger: logger)
    }

    /// Connects to the hosts of all `urls`, in order (see ``Configuration/init(urls:)``).
    public convenience init(urls: [String], logger: Logger? = nil) async throws {
        try await self.init(configuration: Configuration(urls: urls), logger: logger)
    }

    /// Connects with `configuration`; `logger` receives postgres-nio's logs (none by default).
    public init(configuration: Configuration, logger: Logger? = nil) async throws {
        guard !configuration.hosts.isEmpty else { throw StrataError.misuse("PostgresDatabase needs at least one host") }
        guard configuration.maximumConnections > 0 else { throw StrataError.misuse("maximumConnections must be at least 1") }
        BrokenPipe.ignored
        self.configuration = configuration
        let logger = logger ?? Logger(label: "strata.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        pool = try ConnectionPool(configuration: configuration, logger: logger)
        changeListener = ChangeListener(pool: pool, logger: logger, failoverTimeout: configuration.failoverTimeout)
        try await pool.warmUp()
    }

    /// Runs `body` in a transaction on a server that accepts writes and commits; rolls back and
    /// rethrows when `body` throws. A transaction that PostgreSQL aborted (a statement in it
    /// failed and `body` caught the error) does not commit: the call throws instead.
    ///
    /// `body` runs in the caller's isolation (`isolation`, which defaults to it): call it from
    /// the main actor, an actor or top-level code, and let the closure use that isolation's
    /// state; neither it nor its result needs to be `Sendable`.
    ///
    /// When the connection is lost, or the server stops answering, after `COMMIT` was sent and
    /// before its answer came, the call throws `StrataError.Kind.commitOutcomeUnknown`: the
    /// transaction may have committed (all of it) or not (none of it). Every other failure of
    /// a lost connection is `StrataError.Kind.connection` and means that nothing was committed.
    public func write<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Connection) async throws -> T
    ) async throws -> T {
        try await withConnection { conn in
            try await conn.run(sql: "BEGIN")
            let value: T
            do {
                value = try await body(conn)
            } catch {
                conn.logger.debug("strata: write failed on \(conn.host): \(error)")
                // A lost connection rolls back by itself, and a statement sent to it might never
                // be answered: only a connection that is known to be alive gets the ROLLBACK.
                if (error as? StrataError)?.kind != .connection, !conn.underlying.isClosed {
                    _ = try? await conn.run(sql: "ROLLBACK")
                }
                throw error
            }
            // The COMMIT is not under `statement_timeout`: PostgreSQL answers a COMMIT whose wait
            // for a synchronous standby is cancelled with success (and a warning), although the
            // standby may not have the transaction. The client's own bound still applies to it.
            do {
                try await conn.run(sql: "SET LOCAL statement_timeout = 0")
            } catch let error as StrataError where error.sqlState == "25P02" {
                // A statement in the transaction failed and `body` caught its error.
                try await conn.run(sql: "ROLLBACK")
                throw Self.rolledBack
            }
            // A COMMIT that was never sent committed nothing; one that was sent and got no
            // answer may have committed.
            guard !conn.underlying.isClosed else {
                throw StrataError(
                    kind: .connection, message: "the connection to \(conn.host) was lost before COMMIT was sent: nothing was committed",
                    sql: "COMMIT")
            }
            let tag: String
            do {
                tag = try await conn.run(sql: "COMMIT")
            } catch let error as StrataError where error.kind == .connection {
                throw StrataError(
                    kind: .commitOutcomeUnknown,
                    message: "the connection to \(conn.host) was lost while COMMIT was in flight: the transaction may or may not have committed (\(error.message))",
                    sql: "COMMIT")
            }
            if tag == "ROLLBACK" { throw Self.rolledBack }
            return value
        }
    }

    /// What ``write(isolation:_:)`` throws for a transaction that PostgreSQL aborted.
    private static let rolledBack = StrataError(
        kind: .postgres,
        message: "the transaction was rolled back, not committed: a statement in it failed and its error was caught",
        sql: "COMMIT", sqlState: "25P02")

    /// Runs `body` on a connection outside any transaction (each statement commits on its own),
    /// in the caller's isolation (see ``write(isolation:_:)``).
    public func read<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Connection) async throws -> T
    ) async throws -> T {
        try await withConnection(body)
    }

    /// Runs `body` on a connection outside any transaction, for statements that must not run in
    /// one (`CREATE INDEX CONCURRENTLY`, `VACUUM`) or that manage their own; in the caller's
    /// isolation (see ``write(isolation:_:)``).
    ///
    /// The connection goes back to the pool when `body` returns or throws; one that failed
    /// with `StrataError.Kind.connection` (or was closed) is closed instead, with the idle ones.
    public func withConnection<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: (Connection) async throws -> T
    ) async throws -> T {
        let connection = try await pool.lease()
        let value: T
        do {
            value = try await body(connection)
        } catch {
            let mapped = StrataError.fromPostgres(error, sql: nil, host: connection.host.description)
            let kind = (mapped as? StrataError)?.kind
            let broken = connection.underlying.isClosed || kind == .connection || kind == .commitOutcomeUnknown
            await pool.release(connection.underlying, broken: broken)
            throw mapped
        }
        await pool.release(connection.underlying, broken: connection.underlying.isClosed)
        return value
    }

    /// Connections lent out or being opened now: 0 when no call is running (for tests).
    var connectionsInUse: Int {
        get async { await pool.busyCount }
    }

    /// The host the pool connects to now: the last one found to qualify.
    public var currentHost: Configuration.Host {
        get async { await pool.currentHost }
    }

    /// Closes the idle connections; the ones in use are closed as their calls return. Calls
    /// after this one fail with `StrataError.Kind.misuse`.
    public func close() async throws {
        await changeListener.close()
        try await pool.close()
    }
}
