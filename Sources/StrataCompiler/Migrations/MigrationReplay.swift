import Strata

/// Builds the structures the planner and the verifier compare, through the runtime.
package enum MigrationReplay {
    /// A new in-memory database with `migrations` applied by the runtime's ``Migrator``.
    package static func replay(_ migrations: [Migration]) throws -> Database {
        CompileWork.countReplay()
        let db = try Database.inMemory(configuration: .compilerChecks)
        try Migrator(migrations: migrations).migrate(db)
        return db
    }

    /// The structure `migrations` produce.
    package static func structure(after migrations: [Migration]) throws -> DatabaseSchema {
        let db = try replay(migrations)
        return try db.read { conn in try SchemaIntrospector.introspect(conn) }
    }

    /// The DDL of `schema`: tables in dependency order, then indexes.
    package static func declaredStatements(of schema: Schema) -> [String] {
        SQLRenderer.ddl(for: schema)
    }

    /// Whether `migrations`, below their `--` header lines, are byte for byte the statements of
    /// `schema`'s DDL (``SQLRenderer/ddl(for:)``), each as `migration new` writes it (after a
    /// blank line, ended by `;`), and `schema` has no `renamedFrom` hints. Replaying them then
    /// runs exactly that DDL, in that order, on an empty database (a header line is a comment
    /// to SQLite), so it builds the declared structure and the verifier need not replay them:
    /// replaying a large schema's migrations costs as much as executing its DDL once more.
    /// Anything else (another order, other spacing, a statement written or edited by hand,
    /// a statement whose end a `;` would not end) is replayed and compared.
    static func areExactlyTheDDL(_ migrations: [Migration], of schema: Schema) -> Bool {
        guard !migrations.isEmpty,
            schema.tables.allSatisfy({ $0.renamedFrom == nil && $0.columns.allSatisfy { $0.renamedFrom == nil } })
        else { return false }
        var expected = ""
        for statement in SQLRenderer.ddl(for: schema) {
            guard !statement.contains("--"), SQLTokenizer.tokenize(statement + ";").last?.text == ";" else { return false }
            expected += "\n\(statement);\n"
        }
        var body = ""
        for migration in migrations {
            var text = Substring(migration.sql)
            while text.hasPrefix("--") {
                guard let end = text.firstIndex(of: "\n") else { return false }
                text = text[text.index(after: end)...]
            }
            body += text
        }
        return SQLName.identical(body, expected)
    }

    /// The structure `schema` declares: its DDL executed in an in-memory database (`catalog`,
    /// the one the checks left, when it holds exactly that DDL) and introspected, so it
    /// compares with a replayed one on equal terms. Its tables go into `cache`, if given.
    static func declaredStructure(
        of schema: Schema, catalog: ValidatedDatabase = ValidatedDatabase(), cache: IntrospectionCache? = nil
    ) throws -> DatabaseSchema {
        let db = try SQLiteChecker.declaredDatabase(of: schema, catalog: catalog)
        return try db.read { conn in try SchemaIntrospector.introspect(conn, cache: cache) }
    }
}
