import Strata

/// A private in-memory SQLite database the compiler uses to check DDL and queries, through the
/// Strata runtime (the project's one SQLite access layer). Not `Sendable`: one check run owns it.
///
/// Validation executes the schema's DDL here in the order of ``SQLRenderer/ddl(for:)``, and
/// records it (``executeDDL(_:)``); when it holds exactly that DDL, the query analysis, the
/// generator's statement check and the migration verifier reuse the database
/// (``declaredDatabase(of:)``) instead of executing the DDL again: SQLite's cost of a
/// `CREATE` grows with the number of objects already in the database, so each execution of a
/// large schema's DDL is expensive.
final class SQLiteChecker {
    private let db: Database
    /// The DDL statements executed with ``executeDDL(_:)`` that succeeded, in order.
    private var executedDDL: [String] = []

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

    /// Runs `sql`, a statement of the schema's DDL, and records it when it succeeds; returns
    /// SQLite's error message, or nil on success.
    func executeDDL(_ sql: String) -> String? {
        CompileWork.countDDLStatement()
        let message = execute(sql)
        if message == nil { executedDDL.append(sql) }
        return message
    }

    /// The database and the DDL executed in it (the probes of ``SchemaDecoder`` drop what
    /// they create, so nothing else is in it).
    var validated: ValidatedDatabase {
        ValidatedDatabase(database: db, ddl: executedDDL)
    }

    /// An in-memory database holding `schema`'s DDL (``SQLRenderer/ddl(for:)``): the one
    /// validation checked the schema in (``Schema/validatedDatabase``) when it holds exactly
    /// that, else a new one.
    static func declaredDatabase(of schema: Schema) throws -> Database {
        let ddl = SQLRenderer.ddl(for: schema)
        if let db = schema.validatedDatabase.database(holding: ddl) { return db }
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for sql in ddl {
                CompileWork.countDDLStatement()
                try conn.execute(sql: sql)
            }
        }
        return db
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
