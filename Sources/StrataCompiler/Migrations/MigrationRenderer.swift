/// Renders a ``MigrationPlan`` as the text of a migration file: a header that says what the
/// migration does, then its statements.
///
/// ```sql
/// -- 0002_add_phone: Shop.schema.yml
/// --   add column customer.phone (TEXT NOT NULL DEFAULT '')
///
/// ALTER TABLE "customer" ADD COLUMN "phone" TEXT NOT NULL DEFAULT '';
/// ```
///
/// The file holds no `PRAGMA foreign_keys` and no `BEGIN`/`COMMIT`: the runtime's ``Migrator``
/// runs each migration in its own transaction with foreign keys off.
public enum MigrationRenderer {
    /// The file text for `plan` as migration `version` called `name`.
    public static func render(_ plan: MigrationPlan, version: Int, name: String, schemaFile: String) -> String {
        var text = "-- \(MigrationFiles.fileStem(version: version, name: name)): \(schemaFile)\n"
        for change in plan.changes {
            text += "--   \(change)\n"
        }
        for statement in plan.statements {
            text += "\n\(statement);\n"
        }
        return text
    }
}
