import Foundation
import PostgresNIO

/// The SQL of the statements run through one ``PostgresDatabase/Connection``, in order.
final class StatementRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func record(_ sql: String) {
        lock.lock()
        statements.append(sql)
        lock.unlock()
    }

    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return statements
    }
}

/// Which tables an observed fetch read.
///
/// PostgreSQL has no authorizer callback, so the tables are found from the SQL text: every
/// identifier of every statement the fetch ran (unquoted ones folded to lower case, as
/// PostgreSQL folds them; quoted ones as written), and the tables behind any of them that is a
/// view (from `pg_depend`, recursively). The set holds column names, aliases and keywords too;
/// they never match a table's notification, and a column named like a table only costs a
/// spare refetch. This was chosen over `EXPLAIN (FORMAT JSON)`'s relation names because it
/// needs no parameter values (a `$1` statement cannot be explained without them before
/// PostgreSQL 16's `GENERIC_PLAN`), no planning per fetch, and cannot miss a table the planner
/// proved empty or pruned.
enum ReadTables {
    /// The identifiers of `sql`, outside string literals and comments (the names of its
    /// ``PostgresToken/Kind/identifier`` and ``PostgresToken/Kind/quotedIdentifier`` tokens).
    static func identifiers(in sql: String) -> Set<String> {
        var tokens = PostgresTokenizer(sql)
        var names = Set<String>()
        while let token = tokens.next() {
            if let name = tokens.name(of: token) { names.insert(name) }
        }
        return names
    }

    /// The tables behind those of `names` that are views (recursively), on `conn`.
    static let viewTablesSQL = """
        WITH RECURSIVE rel(oid) AS (
          SELECT c.oid FROM pg_class c
          WHERE c.relname = ANY($1) AND c.relkind IN ('v', 'm') AND pg_table_is_visible(c.oid)
          UNION
          SELECT d.refobjid FROM rel
          JOIN pg_rewrite r ON r.ev_class = rel.oid
          JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
            AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> rel.oid
        )
        SELECT DISTINCT c.relname::text FROM rel JOIN pg_class c ON c.oid = rel.oid
        """
}
