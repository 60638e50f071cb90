import Strata

/// The SQL that makes PostgreSQL tell observers which tables a committed transaction changed:
/// `strata_notify()`, a trigger function that sends the table's name on the `strata_changes`
/// channel, and one statement-level trigger per table that calls it.
///
/// `pg_notify` inside a transaction is delivered when, and only if, it commits, and PostgreSQL
/// folds identical notifications of one transaction into one: a transaction that wrote a table
/// with many statements (or rows) sends that table's name once. `StrataPostgres`'s
/// `PostgresDatabase.observe` listens on the channel.
///
/// The PostgreSQL migrations that `strata migration new` writes create them
/// (``PostgresMigrations/plan(schema:sqliteMigrations:postgresMigrations:options:)``): the first
/// migration, and the first one written for a history whose PostgreSQL files do not create the
/// function yet (``isInstalled(by:)``), create the function and a trigger on every table; a
/// later one creates the trigger of each table it creates. A renamed table keeps its trigger
/// (PostgreSQL alters in place, the trigger belongs to the table); a dropped table's goes with it.
package enum PostgresNotifyTriggers {
    /// The channel the triggers notify and observers `LISTEN` to.
    package static let channel = "strata_changes"
    /// The trigger function's name.
    package static let functionName = "strata_notify"
    /// The name of the trigger on each table.
    package static let triggerName = "strata_notify"

    /// Creates (or replaces) the trigger function; idempotent.
    package static let createFunctionSQL = """
        CREATE OR REPLACE FUNCTION \(functionName)() RETURNS trigger LANGUAGE plpgsql AS $strata$
        BEGIN
          PERFORM pg_notify('\(channel)', TG_TABLE_NAME);
          RETURN NULL;
        END
        $strata$;
        """

    /// ``createFunctionSQL`` as one statement of a migration (without the final `;`).
    package static var createFunctionStatement: String { String(createFunctionSQL.dropLast()) }

    /// The statement that creates the trigger of a new table `table` (its SQL name, unquoted),
    /// without a final `;`.
    package static func createTriggerStatement(table: String) -> String {
        "CREATE TRIGGER \(triggerName) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(quote(table))"
            + " FOR EACH STATEMENT EXECUTE FUNCTION \(functionName)()"
    }

    /// The statements that install observation on a database whose tables `tables` exist:
    /// the function, then, per table, its trigger (dropped first if it has one: idempotent).
    package static func installStatements(tables: [String]) -> [String] {
        [createFunctionStatement] + tables.flatMap { ["DROP TRIGGER IF EXISTS \(triggerName) ON \(quote($0))", createTriggerStatement(table: $0)] }
    }

    /// Whether `migrations` (PostgreSQL migration files) create the trigger function: written
    /// by `strata migration new` since it installs observation, or by hand from the same SQL.
    package static func isInstalled(by migrations: [Migration]) -> Bool {
        let marker = "function \(functionName)()"
        return migrations.contains { $0.sql.lowercased().contains(marker) }
    }

    /// Creates the statement-level trigger of `table` (its SQL name, unquoted), replacing one
    /// of the same name; idempotent. `TRUNCATE` notifies too.
    package static func createTriggerSQL(table: String) -> String {
        let name = quote(table)
        return """
            DROP TRIGGER IF EXISTS \(triggerName) ON \(name);
            CREATE TRIGGER \(triggerName) AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(name)
              FOR EACH STATEMENT EXECUTE FUNCTION \(functionName)();
            """
    }

    /// Drops the trigger of `table`, if it has one.
    package static func dropTriggerSQL(table: String) -> String {
        "DROP TRIGGER IF EXISTS \(triggerName) ON \(quote(table));"
    }

    /// Drops the function (after every trigger that uses it).
    package static let dropFunctionSQL = "DROP FUNCTION IF EXISTS \(functionName)();"

    /// The function and the triggers of `tables`, in one script.
    package static func installSQL(tables: [String]) -> String {
        ([createFunctionSQL] + tables.map { createTriggerSQL(table: $0) }).joined(separator: "\n")
    }

    private static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
