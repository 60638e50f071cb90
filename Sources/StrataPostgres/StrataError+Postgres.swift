import PostgresNIO

extension StrataError {
    /// The `StrataError` for an error thrown by postgres-nio (or anything else) while running
    /// `sql` on `host`: a server error keeps its SQLSTATE, message, detail and constraint kind; a
    /// lost connection is `Kind.connection`; a value that does not decode is `Kind.decoding`.
    /// Any other error (a `StrataError`, a `CancellationError`, the caller's own) passes through.
    static func fromPostgres(_ error: any Error, sql: String?, host: String? = nil) -> any Error {
        switch error {
        case let error as PSQLError:
            return fromPSQLError(error, sql: sql, host: host)
        case let error as PostgresDecodingError:
            return StrataError.decoding(
                "column \(error.columnName) (index \(error.columnIndex)) of type \(error.postgresType) does not decode as \(error.targetType): \(error.code)",
                sql: sql)
        default:
            // The caller's own errors (thrown by a `write` closure) pass through.
            return error
        }
    }

    private static func fromPSQLError(_ error: PSQLError, sql: String?, host: String?) -> StrataError {
        let place = host.map { " (\($0))" } ?? ""
        switch error.code {
        case .server:
            let info = error.serverInfo
            let state = info?[.sqlState]
            let connectionLost = state.map(isConnectionState) ?? false
            return StrataError(
                kind: connectionLost ? .connection : .postgres, message: serverMessage(info) + (connectionLost ? place : ""), sql: sql,
                constraint: state.flatMap(constraintKind(sqlState:)), sqlState: state)
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .clientClosedConnection, .poolClosed:
            return StrataError(kind: .connection, message: "the connection was lost or refused\(place) (\(error.code))\(details(error))", sql: sql)
        case .queryCancelled:
            return StrataError(kind: .postgres, message: "the query was cancelled", sql: sql, sqlState: "57014")
        default:
            // Everything postgres-nio knows (`String(reflecting:)`: the code, the server's fields,
            // the unexpected message or command tag, the underlying error).
            return StrataError(kind: .postgres, message: "postgres-nio: \(String(reflecting: error))", sql: sql, sqlState: error.serverInfo?[.sqlState])
        }
    }

    /// The server's own words: its message, then `DETAIL:`, `HINT:` and the position in the
    /// statement when it gave them (what `String(reflecting:)` of postgres-nio's error shows;
    /// its `description` is a fixed text that hides them).
    static func serverMessage(_ info: PSQLError.ServerInfo?) -> String {
        var message = info?[.message] ?? "the server reported an error"
        if let detail = info?[.detail] { message += ". DETAIL: \(detail)" }
        if let hint = info?[.hint] { message += ". HINT: \(hint)" }
        if let position = info?[.position] { message += " (at character \(position) of the statement)" }
        return message
    }

    /// What postgres-nio knows about a failure that is not the server's error: the server's
    /// fields if any, and the underlying error, described in full rather than by postgres-nio's
    /// generic description.
    private static func details(_ error: PSQLError) -> String {
        var parts: [String] = []
        if error.serverInfo?[.message] != nil { parts.append(serverMessage(error.serverInfo)) }
        if let underlying = error.underlying {
            parts.append(underlying is PSQLError ? String(reflecting: underlying) : String(describing: underlying))
        }
        return parts.isEmpty ? "" : ": " + parts.joined(separator: "; ")
    }

    /// SQLSTATEs that mean the server is going away or is not (yet) the one to talk to: class
    /// 08 (connection exception), 57P01–57P03 (shutdown, crash, cannot connect now), and 25006
    /// (a read-only transaction: the server is a standby).
    static func isConnectionState(_ state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03", "25006"].contains(state)
    }

    /// The constraint kind of PostgreSQL's class 23 (integrity constraint violation).
    static func constraintKind(sqlState state: String) -> ConstraintKind? {
        switch state {
        case "23505": return .unique
        case "23503": return .foreignKey
        case "23514": return .check
        case "23502": return .notNull
        case _ where state.hasPrefix("23"): return .other
        default: return nil
        }
    }
}
