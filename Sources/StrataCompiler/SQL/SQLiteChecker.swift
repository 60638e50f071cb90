import Strata

/// A private in-memory SQLite database the compiler uses to check DDL and queries, through the
/// Strata runtime (the project's one SQLite access layer). Not `Sendable`: one check run owns it.
///
/// Validation executes the schema's DDL here in the order of ``SQLRenderer/ddl(for:)``, and
/// records it (``executeDDL(_:)``); when it holds exactly that DDL, the query analysis, the
/// generator's statement check and the migration verifier reuse the database
/// (``declaredDatabase(of:)``) instead of executing the DDL again: SQLite's cost of a
/// `CREATE` grows with the number of objects already in the database, so each execution of a
/// large schema's DDL is expensive. For the same reason validation enters the tables and
/// indexes, each checked alone in a scratch database, in bulk (``load(_:recording:)``).
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
        guard let db = try? Database.inMemory(configuration: .compilerChecks) else { return nil }
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

    /// An entry of `sqlite_master` that has SQL (a table, an index, a view, a trigger; not
    /// the automatic indexes of UNIQUE and PRIMARY KEY constraints, which SQLite derives from
    /// their table's SQL).
    struct SchemaObject: Equatable {
        var type: String
        var name: String
        var tableName: String
        /// The SQL as SQLite stores it.
        var sql: String
    }

    /// The entries of `sqlite_master` that have SQL, in the order they were created; nil when
    /// SQLite fails to list them.
    func schemaObjects() -> [SchemaObject]? {
        try? db.writeWithoutTransaction { conn in
            try conn.fetch(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid").map { row in
                SchemaObject(type: try row.get(0), name: try row.get(1), tableName: try row.get(2), sql: try row.get(3))
            }
        }
    }

    /// Enters `objects` (entries of another database's ``schemaObjects()``, each executed and
    /// checked there) into this database's schema without executing them, and records `ddl`
    /// as executed (``executeDDL(_:)``); returns whether SQLite read the schema back with
    /// exactly these objects. On false, the database is unusable.
    ///
    /// SQLite 3.40 re-reads the whole `sqlite_master` and walks every table's foreign keys for
    /// each `CREATE` it executes, so executing a schema of n tables costs n²; entering the
    /// entries with `PRAGMA writable_schema` and reading them back once costs n. The tables
    /// get no b-tree (`rootpage` 0): statements prepare against them, and `sqlite_master` and
    /// the schema pragmas describe them, but reading or writing their rows fails ("database
    /// disk image is malformed"), which nothing in the compiler does. The indexes of a table
    /// get the root pages 1, 2, … in turn, because SQLite refuses two indexes of one table on
    /// the same root page (and an automatic index of a UNIQUE constraint is on 0); it also
    /// refuses a root page past the end of the database, so a table with more indexes than
    /// `sqlite_master` has pages (only in a small schema) makes this return false.
    func load(_ objects: [SchemaObject], recording ddl: [String]) -> Bool {
        let entered = (try? db.writeWithoutTransaction { conn in Self.enter(objects, into: conn) }) ?? false
        guard entered else { return false }
        executedDDL += ddl
        return true
    }

    /// Enters `objects` into the schema of the `main` database of `conn` (not in a
    /// transaction) without executing them, as ``load(_:recording:)`` describes: tables get no
    /// b-tree, so statements prepare against them but reading or writing their rows fails.
    /// Returns whether SQLite read the schema back with exactly these objects added; on false,
    /// the database is unusable.
    static func enter(_ objects: [SchemaObject], into conn: Connection) -> Bool {
        var indexCounts: [String: Int] = [:]
        return enter(objects, into: conn, indexCounts: &indexCounts)
    }

    /// ``enter(_:into:)`` for entries in several calls: `indexCounts` holds, by table name
    /// (folded), the root pages already given to that table's entered indexes.
    static func enter(_ objects: [SchemaObject], into conn: Connection, indexCounts: inout [String: Int]) -> Bool {
        do {
            // An empty database has schema format 0 until a table is created, and SQLite
            // reads entries entered under that format the legacy way: an index's DESC is
            // ignored. Creating a table sets format 4, as executing the DDL would.
            try conn.execute(sql: "CREATE TABLE strata_schema_format (x); DROP TABLE strata_schema_format")
            let before = try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            // SQLite reads the schema again after the edit (here, by the count): an entry it
            // cannot parse fails it.
            try editingSchema(of: conn) {
                let insert = try conn.makeStatement(
                    sql: "INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) VALUES (?, ?, ?, ?, ?)")
                for object in objects {
                    defer { insert.reset() }
                    var rootpage = 0
                    if object.type == "index" {
                        rootpage = indexCounts[SQLName.fold(object.tableName), default: 0] + 1
                        indexCounts[SQLName.fold(object.tableName)] = rootpage
                    }
                    try insert.bind([object.type, object.name, object.tableName, rootpage, object.sql])
                    try insert.run()
                }
            }
            return (try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM sqlite_master") ?? 0) - before == objects.count
        } catch {
            return false
        }
    }

    /// Runs `body`, which edits `sqlite_master` of `conn`'s `main` database, in one `IMMEDIATE`
    /// transaction under `PRAGMA writable_schema = ON`, then `writable_schema = RESET`, which
    /// turns it off and makes SQLite read the whole schema again (also when `body` throws).
    static func editingSchema(of conn: Connection, _ body: () throws -> Void) throws {
        try conn.execute(sql: "PRAGMA writable_schema = ON")
        do {
            try conn.inTransaction(.immediate) { try body() }
        } catch {
            try? conn.execute(sql: "PRAGMA writable_schema = RESET")
            throw error
        }
        try conn.execute(sql: "PRAGMA writable_schema = RESET")
    }

    /// The database and the DDL executed in it (the probes of ``SchemaDecoder`` drop what
    /// they create, so nothing else is in it).
    var validated: ValidatedDatabase {
        ValidatedDatabase(database: db, ddl: executedDDL)
    }

    /// An in-memory database holding `schema`'s DDL (``SQLRenderer/ddl(for:)``): `catalog`,
    /// the one the checks executed it in (``CompiledSchema/catalog``), when it holds exactly
    /// that, else a new one.
    static func declaredDatabase(of schema: Schema, catalog: ValidatedDatabase = ValidatedDatabase()) throws -> Database {
        let ddl = SQLRenderer.ddl(for: schema)
        if let db = catalog.database(holding: ddl) { return db }
        let db = try Database.inMemory(configuration: .compilerChecks)
        try db.writeWithoutTransaction { conn in
            for sql in ddl {
                CompileWork.countDDLStatement()
                try conn.execute(sql: sql)
            }
        }
        return db
    }

    /// Whether SQLite compiles each of `statements` (its first statement) without an error,
    /// in one use of the connection; stops at the first it rejects.
    func preparesAll(_ statements: [String]) -> Bool {
        do {
            try db.writeWithoutTransaction { conn in
                for sql in statements { _ = try conn.makeFirstStatement(sql: sql) }
            }
            return true
        } catch {
            return false
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

extension Database.Configuration {
    /// The configuration of the compiler's in-memory databases, which hold DDL and prepare
    /// queries but no rows: a collation the app registers (`options: { collations: }`)
    /// compares as `BINARY` there.
    static var compilerChecks: Database.Configuration {
        var configuration = Database.Configuration()
        configuration.placeholderCollations = true
        return configuration
    }
}
