import Strata

/// A private in-memory SQLite database the compiler uses to check DDL and queries, through the
/// Strata runtime (the project's one SQLite access layer). Not `Sendable`: one check run owns it.
final class SQLiteChecker {
    private let db: Database

    /// What preparing a statement found.
    struct Prepared {
        /// The names of the statement's parameters, with their prefix (`:name`, `?`, `@x`).
        var parameterNames: [String]
        /// Whether text follows the first statement.
        var hasTrailingText: Bool
    }

    init?() {
        guard let db = try? Database.inMemory() else { return nil }
        self.db = db
    }

    /// Runs `sql`; returns SQLite's error message, or nil on success.
    func execute(_ sql: String) -> String? {
        do {
            try db.writeWithoutTransaction { conn in try conn.execute(sql: sql) }
            return nil
        } catch let error as StrataError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// Compiles `sql` without running it.
    func prepare(_ sql: String) -> Result<Prepared, SQLiteMessage> {
        do {
            return .success(
                try db.writeWithoutTransaction { conn in
                    let (statement, tail) = try conn.makeFirstStatement(sql: sql)
                    let names = (0..<Int32(statement.parameterCount)).map { statement.parameterName(at: $0 + 1) ?? "?" }
                    return Prepared(parameterNames: names, hasTrailingText: tail.contains { !$0.isWhitespace && $0 != ";" })
                })
        } catch let error as StrataError {
            return .failure(SQLiteMessage(text: error.message))
        } catch {
            return .failure(SQLiteMessage(text: "\(error)"))
        }
    }
}

/// An error message from SQLite.
struct SQLiteMessage: Error {
    var text: String
}
