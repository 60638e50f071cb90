import Foundation
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// One connection lent by ``PostgresDatabase/write(isolation:_:)`` or
    /// ``PostgresDatabase/read(isolation:_:)`` for the duration of the closure: prepared
    /// statements (what generated DAOs use) and raw SQL.
    ///
    /// A prepared statement is a `PostgresPreparedStatement` (postgres-nio's protocol); the
    /// connection prepares it on first use and reuses it after. Every error is a `StrataError`.
    ///
    /// Every statement has a bounded time (``Configuration/queryTimeout``): the server cancels
    /// one that runs longer (SQLSTATE `57014`, `StrataError.Kind.postgres`, the connection stays
    /// usable), and a server that does not answer a second after that (frozen, unreachable,
    /// crashed without a word) fails the statement with `StrataError.Kind.connection`; the
    /// connection is then closed and the pool replaces it.
    public struct Connection: Sendable {
        /// The postgres-nio connection, for what this API does not cover (`COPY`, `LISTEN`).
        /// Statements run on it directly are not bounded by ``Configuration/queryTimeout``.
        public let underlying: PostgresConnection
        let logger: Logger
        /// The server this connection is to.
        public let host: Configuration.Host
        /// How long the client waits for the answer to one statement; nil: as long as it takes.
        let answerTimeout: Duration?
        /// Where the SQL of each statement run through this connection is recorded (an
        /// observation's fetch, to know which tables it read); nil: nowhere.
        var recorder: StatementRecorder? = nil
        /// The clock of expiring rows (``Configuration/now``).
        let clock: @Sendable () -> Date

        init(
            underlying: PostgresConnection, logger: Logger, host: Configuration.Host, answerTimeout: Duration?,
            clock: @escaping @Sendable () -> Date = { Date() }, recorder: StatementRecorder? = nil
        ) {
            (self.underlying, self.logger, self.host, self.answerTimeout) = (underlying, logger, host, answerTimeout)
            (self.clock, self.recorder) = (clock, recorder)
        }

        /// The current time by the database's clock, ``Configuration/now``: the generated
        /// `<Record>PostgresDAO`s' reads of an expiring table leave out the rows whose
        /// `expiresAt` is not after it.
        ///
        /// ```swift
        /// let stillValid = try await pg.read { conn in conn.now < session.expiresAt ?? .distantFuture }
        /// ```
        public var now: Date { clock() }

        /// The time `duration` from now by the database's clock: the `expiresAt` of a row
        /// inserted with `expiresIn: duration`.
        ///
        /// ```swift
        /// let expiresAt = try await pg.read { conn in conn.date(in: .seconds(90)) }
        /// ```
        public func date(in duration: Duration) -> Date {
            let (seconds, attoseconds) = duration.components
            return clock().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }

        /// Runs `statement` and returns every row it produced, decoded by the statement.
        public func fetchAll<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> sending [Statement.Row] {
            let rows = try await bounded(sql: Statement.sql) { [underlying, logger] in
                var rows: [PostgresRow] = []
                for try await row in try await underlying.execute(UndecodedRows(statement), logger: logger) {
                    rows.append(row)
                }
                return rows
            }
            do {
                return try rows.map { try statement.decodeRow($0) }
            } catch {
                throw StrataError.fromPostgres(error, sql: Statement.sql, host: host.description)
            }
        }

        /// Runs `statement` and returns its first row, or nil when it produced none.
        public func fetchOne<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> sending Statement.Row? {
            try await fetchAll(statement).first
        }

        /// Runs `statement`, which returns no rows (`INSERT`, `UPDATE`, `DELETE` without
        /// `RETURNING`), and returns the number of rows it affected, from the server's command tag.
        ///
        /// It runs as an unnamed statement (parse, bind and execute in one round trip), not a
        /// named prepared one: postgres-nio 1.33's `execute` of a statement without rows traps
        /// when it reads the command tag, and its prepared-statement API has no other way to it.
        @discardableResult
        public func execute<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> Int
        where Statement.Row == () {
            let query = PostgresQuery(unsafeSQL: Statement.sql, binds: try statement.makeBindings())
            return try await bounded(sql: Statement.sql) { [underlying, logger] in
                try await underlying.query(query, logger: logger).get().metadata.rows ?? 0
            }
        }

        /// Runs `sql`, which may hold several statements separated by semicolons (a migration,
        /// say), one after the other. Parameters are not supported here: use ``query(sql:_:)``.
        public func execute(sql: String) async throws {
            for statement in SQLStatements.split(sql) {
                try await run(sql: statement)
            }
        }

        /// Runs one statement with `$1`, `$2` … bound to `bindings` and returns its rows.
        ///
        /// ```swift
        /// var bindings = PostgresBindings()
        /// bindings.append("Ann")
        /// let rows = try await conn.query(sql: "SELECT id FROM customer WHERE name = $1", bindings)
        /// let ids = try rows.map { try $0.decode(Int.self) }
        /// ```
        public func query(sql: String, _ bindings: PostgresBindings = PostgresBindings()) async throws -> [PostgresRow] {
            try await bounded(sql: sql) { [underlying, logger] in
                try await underlying.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).get().rows
            }
        }

        /// Runs one statement without parameters and returns the command of its tag (`COMMIT`, `ROLLBACK` …).
        @discardableResult
        func run(sql: String) async throws -> String {
            try await bounded(sql: sql) { [underlying, logger] in
                try await underlying.query(PostgresQuery(unsafeSQL: sql), logger: logger).get().metadata.command
            }
        }

        /// This connection without the client's bound on answers (the migrator's: a migration
        /// may run for long, and a second deploy waits for the first one's lock).
        var unbounded: Connection {
            Connection(underlying: underlying, logger: logger, host: host, answerTimeout: nil, clock: clock)
        }

        /// Runs `operation` (one statement) with its errors as `StrataError`s and, unless
        /// ``answerTimeout`` is nil, a bound on how long its answer may take.
        ///
        /// The bound is the client's own timer, not postgres-nio's: a statement written to a
        /// connection whose channel closed at that moment is dropped by postgres-nio 1.33 without
        /// failing it, so its caller would wait forever. When the timer fires first the
        /// connection is closed (failing whatever else it had in flight) and the call fails with
        /// `StrataError.Kind.connection`; the statement's own task is left to end whenever
        /// postgres-nio ends it.
        private func bounded<R: Sendable>(sql: String, _ operation: @escaping @Sendable () async throws -> R) async throws -> R {
            // postgres-nio drops a statement written to a closed channel without failing it.
            recorder?.record(sql)
            guard !underlying.isClosed else {
                throw StrataError(kind: .connection, message: "the connection to \(host) is closed", sql: sql)
            }
            let host = self.host
            guard let answerTimeout else {
                do {
                    return try await operation()
                } catch {
                    throw StrataError.fromPostgres(error, sql: sql, host: host.description)
                }
            }
            let underlying = self.underlying
            return try await withDeadline(
                answerTimeout, on: underlying.eventLoop,
                timedOut: {
                    underlying.close().whenComplete { _ in withExtendedLifetime(underlying) {} }
                    return StrataError(
                        kind: .connection,
                        message: "\(host) did not answer within \(answerTimeout) (frozen, unreachable or gone); the connection was closed",
                        sql: sql)
                }
            ) {
                do {
                    return try await operation()
                } catch {
                    throw StrataError.fromPostgres(error, sql: sql, host: host.description)
                }
            }
        }
    }
}

/// A prepared statement whose rows come back undecoded, so that they can cross from the task
/// that waits for the server to the caller, which decodes them with the statement itself. Its
/// name and SQL are the statement's: the server prepares it once per connection all the same.
private struct UndecodedRows<Statement: PostgresPreparedStatement>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var name: String { Statement.name }
    static var sql: String { Statement.sql }
    static var bindingDataTypes: [PostgresDataType] { Statement.bindingDataTypes }
    let statement: Statement

    init(_ statement: Statement) { self.statement = statement }

    func makeBindings() throws -> PostgresBindings { try statement.makeBindings() }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

