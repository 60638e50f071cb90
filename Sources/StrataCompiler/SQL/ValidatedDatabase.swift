import Strata

/// An in-memory database and the DDL statements executed in it, in order: what validation
/// leaves for the later stages of a compile (``SQLiteChecker/declaredDatabase(of:)``). It
/// takes no part in a ``Schema``'s equality or hashing: it is derived from the schema.
///
/// Its ordinary tables and indexes were entered into its schema without b-trees
/// (``SQLiteChecker/load(_:recording:)``): statements prepare against them and the schema
/// pragmas describe them, but reading or writing their rows fails. Use it to prepare and to
/// introspect only.
struct ValidatedDatabase: Hashable, Sendable {
    /// The database, nil when none was kept.
    var database: Database?
    /// The DDL statements executed in ``database``, in order.
    var ddl: [String] = []

    /// ``database`` when it holds exactly `ddl`.
    func database(holding ddl: [String]) -> Database? {
        self.ddl == ddl ? database : nil
    }

    static func == (_: Self, _: Self) -> Bool { true }

    func hash(into _: inout Hasher) {}
}
