import Strata

/// An in-memory database and the DDL statements executed in it, in order: the SQLite catalog
/// the checks leave in a ``CompiledSchema`` for the later stages of a compile
/// (``SQLiteChecker/declaredDatabase(of:catalog:)``). It is no part of any compared value.
///
/// Its ordinary tables and indexes were entered into its schema without b-trees
/// (``SQLiteChecker/load(_:recording:)``): statements prepare against them and the schema
/// pragmas describe them, but reading or writing their rows fails. Use it to prepare and to
/// introspect only.
struct ValidatedDatabase: Sendable {
    /// The database, nil when none was kept.
    var database: Database?
    /// The DDL statements executed in ``database``, in order.
    var ddl: [String] = []

    /// ``database`` when it holds exactly `ddl`.
    func database(holding ddl: [String]) -> Database? {
        self.ddl == ddl ? database : nil
    }
}
