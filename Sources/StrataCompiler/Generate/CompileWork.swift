import Foundation

/// Counts the work of one compile that should grow linearly with the schema: the DDL
/// statements the compiler executes in its own in-memory databases (the schema's DDL once, not
/// once per stage), the name lookup tables it builds (once per schema model, not once per
/// lookup) and the replays of the migrations. Tests read it to assert linear scaling with
/// counts rather than with a clock.
///
/// Counting is off unless a caller installs a counter for the current task:
///
/// ```swift
/// let work = CompileWork()
/// _ = try CompileWork.$current.withValue(work) { try Generator.generate(schemaPath: path) }
/// // work.ddlStatements, work.lookupTablesBuilt
/// ```
final class CompileWork: @unchecked Sendable {
    /// The counter of the running compile, if a caller installed one.
    @TaskLocal static var current: CompileWork?

    private let lock = NSLock()
    private var ddl = 0
    private var lookups = 0
    private var replays = 0
    private var fullPrepares = 0
    private var introspected = 0
    private var reused = 0

    init() {}

    /// DDL statements executed by the compiler, the statements of a planned migration that
    /// the planner executes to check it included (the migrations' replay by the runtime's
    /// ``Migrator`` is not counted).
    var ddlStatements: Int { locked { ddl } }
    /// Name lookup tables built (a ``Schema``'s or a ``DatabaseSchema``'s, each time its tables
    /// or indexes are set).
    var lookupTablesBuilt: Int { locked { lookups } }
    /// Migration histories replayed in an in-memory database (``MigrationReplay/replay(_:)``).
    var migrationReplays: Int { locked { replays } }
    /// Generated DAO statements validation prepared in the database that holds the whole
    /// schema (the others were prepared in a small scratch database with the tables they touch).
    var daoStatementsPreparedInFull: Int { locked { fullPrepares } }

    /// Tables whose structure ``SchemaIntrospector`` asked SQLite for.
    var introspectedTables: Int { locked { introspected } }
    /// Tables ``SchemaIntrospector`` took from an ``IntrospectionCache`` instead.
    var reusedTables: Int { locked { reused } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Adds one to `counter` of the running compile's counter, if any.
    private static func count(_ counter: ReferenceWritableKeyPath<CompileWork, Int>) {
        guard let work = current else { return }
        work.locked { work[keyPath: counter] += 1 }
    }

    static func countDDLStatement() { count(\.ddl) }
    static func countDAOStatementPreparedInFull() { count(\.fullPrepares) }
    static func countReplay() { count(\.replays) }
    static func countIntrospectedTable() { count(\.introspected) }
    static func countReusedTable() { count(\.reused) }
    static func countLookupTable() { count(\.lookups) }
}
