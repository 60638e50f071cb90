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
/// - ``write(_:)`` runs its closure in a transaction (`BEGIN` … `COMMIT`; `ROLLBACK` when it
///   throws) on a server that accepts writes: the first host, in order, that is not in recovery
///   (libpq's `target_session_attrs=read-write`).
/// - ``read(_:)`` runs its closure on the same server, outside a transaction: each statement
///   sees its own snapshot. Read in ``write(_:)`` for one snapshot across several statements.
/// - When a connection is lost (the primary crashed, a standby was promoted), the call that was
///   using it fails with `StrataError.Kind.connection` and the connection is dropped with the
///   other idle ones; the next call connects again, trying the hosts in order for up to
///   ``Configuration/failoverTimeout``. A failed write is not retried: whether it committed is
///   unknown to the client, and only the caller knows whether running it again is safe.
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
        pool = try ConnectionPool(configuration: configuration, logger: logger ?? Logger(label: "strata.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        try await pool.warmUp()
    }

    /// Runs `body` in a transaction on a server that accepts writes and commits; rolls back and
    /// rethrows when `body` throws. A transaction that PostgreSQL aborted (a statement in it
    /// failed and `body` caught the error) does not commit: the call throws instead.
    public func write<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        try await pool.withConnection { conn in
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
            let tag = try await conn.run(sql: "COMMIT")
            if tag == "ROLLBACK" {
                throw StrataError(
                    kind: .postgres,
                    message: "the transaction was rolled back, not committed: a statement in it failed and its error was caught",
                    sql: "COMMIT", sqlState: "25P02")
            }
            return value
        }
    }

    /// Runs `body` on a connection outside any transaction (each statement commits on its own).
    public func read<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    /// Runs `body` on a connection outside any transaction, for statements that must not run in
    /// one (`CREATE INDEX CONCURRENTLY`, `VACUUM`) or that manage their own.
    public func withConnection<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        try await pool.withConnection(body)
    }

    /// The host the pool connects to now: the last one found to qualify.
    public var currentHost: Configuration.Host {
        get async { await pool.currentHost }
    }

    /// Closes the idle connections; the ones in use are closed as their calls return. Calls
    /// after this one fail with `StrataError.Kind.misuse`.
    public func close() async throws {
        try await pool.close()
    }
}
