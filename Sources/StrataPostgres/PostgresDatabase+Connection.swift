import Logging
import PostgresNIO

extension PostgresDatabase {
    /// One connection lent by ``PostgresDatabase/write(_:)`` or ``PostgresDatabase/read(_:)``
    /// for the duration of the closure: prepared statements (what generated DAOs use) and raw SQL.
    ///
    /// A prepared statement is a `PostgresPreparedStatement` (postgres-nio's protocol); the
    /// connection prepares it on first use and reuses it after. Every error is a `StrataError`.
    public struct Connection: Sendable {
        /// The postgres-nio connection, for what this API does not cover (`COPY`, `LISTEN`).
        public let underlying: PostgresConnection
        let logger: Logger
        /// The server this connection is to.
        public let host: Configuration.Host

        /// Runs `statement` and returns every row it produced, decoded by the statement.
        public func fetchAll<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
            try await mapErrors(sql: Statement.sql) {
                var rows: [Statement.Row] = []
                for try await row in try await underlying.execute(statement, logger: logger) {
                    rows.append(row)
                }
                return rows
            }
        }

        /// Runs `statement` and returns its first row, or nil when it produced none.
        public func fetchOne<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> Statement.Row? {
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
            try await mapErrors(sql: Statement.sql) {
                let query = PostgresQuery(unsafeSQL: Statement.sql, binds: try statement.makeBindings())
                return try await underlying.query(query, logger: logger).get().metadata.rows ?? 0
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
            try await mapErrors(sql: sql) {
                try await underlying.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: logger).get().rows
            }
        }

        /// Runs one statement without parameters and returns the command of its tag (`COMMIT`, `ROLLBACK` …).
        @discardableResult
        func run(sql: String) async throws -> String {
            try await mapErrors(sql: sql) {
                try await underlying.query(PostgresQuery(unsafeSQL: sql), logger: logger).get().metadata.command
            }
        }

        private func mapErrors<T>(sql: String, _ body: () async throws -> T) async throws -> T {
            // postgres-nio drops a statement written to a closed channel without failing it.
            guard !underlying.isClosed else {
                throw StrataError(kind: .connection, message: "the connection to \(host) is closed", sql: sql)
            }
            do {
                return try await body()
            } catch {
                throw StrataError.fromPostgres(error, sql: sql, host: host.description)
            }
        }
    }
}
