import Strata

extension SwiftRenderer {
    /// `public enum Library { version, tables, indexes, migrations, migrate(_:) }`.
    func renderNamespace(_ out: inout SwiftWriter) {
        let name = SwiftNames.identifier(schema.name)
        out.doc("The `\(schema.name)` database: its tables, indexes and versioned migrations.\n\n\(remark("database \(schema.name)"))")
        out.block("public enum \(name)") { out in
            out.line("/// The schema version: the number of the latest migration.")
            out.line("public static let version = \(input.migrations.last?.version ?? 0)")
            out.line()
            out.line("/// The `CREATE TABLE` statements, in declaration order.")
            out.line("public static let tables: [String] = [")
            for sql in input.createTableSQL {
                out.multiline("    ", sql, ",")
            }
            out.line("]")
            out.line()
            out.line("/// The `CREATE INDEX` statements: the index definitions of the schema.")
            out.line("public static let indexes: [String] = [")
            for sql in input.createIndexSQL {
                out.line("    " + SwiftNames.stringLiteral(sql) + ",")
            }
            out.line("]")
            out.line()
            out.line("/// How to open the database for this schema: `foreignKeys` as the schema's")
            out.line("/// `options.foreignKeys` says.")
            out.line("///")
            out.line("/// ```swift")
            out.line("/// let db = try Database(path: path, configuration: \(schema.name).configuration)")
            out.line("/// ```")
            out.line("public static let configuration: Database.Configuration = {")
            out.line("    var configuration = Database.Configuration()")
            out.line("    configuration.foreignKeys = \(schema.options.foreignKeys)")
            out.line("    return configuration")
            out.line("}()")
            out.line()
            out.line("/// The migrations of `\(schema.name).migrations/`, with their checksums.")
            renderMigrations("migrations", input.migrations, &out)
            out.line()
            renderMigrate(
                "migrate(_ db: Database) throws",
                doc: [
                    "Applies the pending migrations to `db`, each in its own transaction, and returns the",
                    "ones applied. Refuses, changing nothing, when an applied migration was edited, the",
                    "database is newer than this code, the history has a gap, or the file's structure was",
                    "altered outside the migrations (see `Migrator`).",
                    "Foreign keys are left on or off as `configuration` says.",
                ],
                apply: [
                    "try db.writeWithoutTransaction { conn in",
                    "    try Migrator(migrations: migrations).migrate(conn, foreignKeys: configuration.foreignKeys)",
                    "}",
                ],
                purge: "try purgeExpired(db)", &out
            )
            renderPurgeExpired(&out)
        }
    }

    /// `public static func <signature> -> [Migration]` (`@discardableResult`), documented by the
    /// `doc` lines: runs the `apply` lines, which return the migrations applied; when some table
    /// expires, then runs `purge` once (and says so in the doc) before returning them. The SQLite
    /// and PostgreSQL namespaces' `migrate` share this shape.
    func renderMigrate(_ signature: String, doc: [String], apply: [String], purge: String, _ out: inout SwiftWriter) {
        let expires = schema.tables.contains(where: \.expires)
        for line in doc { out.line(line.isEmpty ? "///" : "/// " + line) }
        if expires { out.line("/// Then deletes the expired rows once, with `purgeExpired(_:)`.") }
        out.line("@discardableResult")
        out.block("public static func \(signature) -> [Migration]") { out in
            guard expires, let first = apply.first else {
                for line in apply { out.line(line) }
                return
            }
            out.line("let applied = " + first)
            for line in apply.dropFirst() { out.line(line) }
            out.line(purge)
            out.line("return applied")
        }
    }

    /// `public static let <name>: [Migration] = [ … ]`: the migrations embedded with their checksums.
    func renderMigrations(_ name: String, _ migrations: [Migration], _ out: inout SwiftWriter) {
        out.line("public static let \(name): [Migration] = [")
        for migration in migrations {
            out.line("    Migration(")
            out.line("        version: \(migration.version), name: \(SwiftNames.stringLiteral(migration.name)),")
            let sql = migration.sql.utf8.contains(UInt8(ascii: "\r")) ? migration.sql.replacingOccurrences(of: "\r\n", with: "\n") : migration.sql
            out.multiline("        sql: ", sql, ",")
            out.line("        checksum: \(SwiftNames.stringLiteral(migration.checksum))),")
        }
        out.line("]")
    }
}
