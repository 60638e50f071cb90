import Strata

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
package enum MigrationRenderer {
    /// The file text for `plan` as migration `version` called `name`.
    package static func render(_ plan: MigrationPlan, version: Int, name: String, schemaFile: String) -> String {
        var text = "-- \(commentText("\(MigrationFiles.fileStem(version: version, name: name)): \(schemaFile)"))\n"
        for change in plan.changes {
            text += "--   \(commentText(change))\n"
        }
        for statement in plan.statements {
            text += "\n\(statement);\n"
        }
        return text
    }

    /// `text` made safe for one `--` comment line: a line break inside a name (`table: "x\nDROP
    /// TABLE y; --"`) would end the comment and turn the rest of the name into SQL that runs
    /// with the migration, so line breaks and other control characters are written escaped.
    static func commentText(_ text: String) -> String {
        TextEscaping.mapScalars(text) { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": " "
            case _ where scalar.properties.generalCategory == .control
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator:
                "\\u{\(String(scalar.value, radix: 16))}"
            default: nil
            }
        }
    }
}
