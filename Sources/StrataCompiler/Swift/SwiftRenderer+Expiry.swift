/// What a table with `expires: true` adds to the generated code: inserts and upserts that set
/// `expiresAt`, and `<Database>.purgeExpired(_:)`. (Its reads leave expired rows out through
/// the SQL `DAOPlan` renders and the DAO's `expiresAtSQLName`.)
extension SwiftRenderer {
    /// `insert(_:expiresIn:)`, `insert(_:expiresAt:)`, their many-records forms, and the same
    /// for `upsert`; `async` ones for the `<Record>PostgresDAO` (`isAsync`).
    func renderExpiringWrites(_ table: Table, isAsync: Bool = false, _ out: inout SwiftWriter) {
        let record = SwiftNames.identifier(table.recordName)
        let member = SwiftNames.identifier(Expiry.columnName)
        let (effects, call) = isAsync ? ("async throws", "try await") : ("throws", "try")
        let clock = isAsync ? "`PostgresDatabase.Configuration.now`" : "`Database.Configuration.now`"
        for (method, verb) in [("insert", "Inserts"), ("upsert", "Inserts or updates (`ON CONFLICT DO UPDATE`)")] {
            Self.renderExpiresIn(method, "record", record, returning: record, effects: effects, call: call, doc: [
                "\(verb) `record` to expire `duration` from now, by the database's clock",
                "(\(clock)), and returns it as stored.",
            ], &out)
            out.line()
            out.line("/// \(verb) `record` to expire at `date`, and returns it as stored.")
            out.line("@discardableResult")
            out.block("public func \(method)(_ record: \(record), expiresAt date: Date) \(effects) -> \(record)") { out in
                out.line("var record = record")
                out.line("record.\(member) = date")
                out.line("return \(call) \(method)(record)")
            }
        }
        Self.renderExpiresIn("insert", "records", "some Sequence<\(record)>", returning: "[\(record)]", effects: effects, call: call, doc: [
            "Inserts `records` in order, each to expire `duration` from now (one time for all of them),",
            "and returns them as stored.",
        ], &out)
        out.line()
        out.line("/// Inserts `records` in order, each to expire at `date`, and returns them as stored.")
        out.line("@discardableResult")
        out.block("public func insert(_ records: some Sequence<\(record)>, expiresAt date: Date) \(effects) -> [\(record)]") { out in
            if isAsync {
                out.line("var result: [\(record)] = []")
                out.line("for record in records { result.append(try await insert(record, expiresAt: date)) }")
                out.line("return result")
            } else {
                out.line("try records.map { try insert($0, expiresAt: date) }")
            }
        }
    }

    /// `method(_ parameter: type, expiresIn duration: Duration) -> returning`, documented by the
    /// `doc` lines: the `expiresAt:` form of `method` at the database's clock plus `duration`.
    private static func renderExpiresIn(
        _ method: String, _ parameter: String, _ type: String, returning: String, effects: String, call: String, doc: [String],
        _ out: inout SwiftWriter
    ) {
        out.line()
        for line in doc { out.line("/// " + line) }
        out.line("@discardableResult")
        out.block("public func \(method)(_ \(parameter): \(type), expiresIn duration: Duration) \(effects) -> \(returning)") { out in
            out.line("\(call) \(method)(\(parameter), expiresAt: self.conn.date(in: duration))")
        }
    }

    /// `<Database>.purgeExpired(_ pg:)` on the PostgreSQL namespace, when some table expires:
    /// each table's `PurgeExpired` statement in one transaction.
    func renderPostgresPurgeExpired(_ out: inout SwiftWriter) {
        renderPurgeExpired("purgeExpired(_ pg: PostgresDatabase) async throws", write: "try await pg.write", &out) { tables in
            """
                Deletes the expired rows of \(tables) on PostgreSQL: those whose
                `expiresAt` is not after the database's clock (`PostgresDatabase.Configuration.now`), in one
                transaction, and returns how many it deleted (rows that `ON DELETE` actions remove with
                them are not counted). Reads leave expired rows out already; this reclaims their space.
                `migrate(_ pg:)` runs it once.

                ```swift
                let purged = try await \(schema.name).purgeExpired(pg)
                ```
                """
        } purge: { table in
            ["purged += try await conn.execute(\(SwiftNames.identifier(table.recordName + "PostgresDAO")).PurgeExpired(now: now))"]
        }
    }

    /// `<Database>.purgeExpired(_:)` on the namespace, when some table expires.
    func renderPurgeExpired(_ out: inout SwiftWriter) {
        renderPurgeExpired("purgeExpired(_ db: Database) throws", write: "try db.write", &out) { tables in
            """
                Deletes the expired rows of \(tables): those whose `expiresAt` is not
                after the database's clock (`Database.Configuration.now`), in one transaction, and returns
                how many it deleted (rows that `ON DELETE` actions remove with them are not counted).
                Reads leave expired rows out already; this reclaims their space. `migrate` runs it once.

                ```swift
                let purged = try \(schema.name).purgeExpired(db)
                ```
                """
        } purge: { table in
            let sql = DAOPlan(table: table, schema: schema).purgeExpiredSQL
            return ["try conn.execute(sql: \(SwiftNames.stringLiteral(sql)), arguments: [now])", "purged += conn.changes"]
        }
    }

    /// `public static func <signature> -> Int` (`@discardableResult`) when some table expires,
    /// documented by the text `doc` gives for the list of their records: in one `<write> { conn in }`
    /// transaction at `conn.now`, the `purge` lines of each such table (adding to `purged`), then
    /// `purged`. The SQLite and PostgreSQL namespaces' `purgeExpired` share this shape.
    private func renderPurgeExpired(
        _ signature: String, write: String, _ out: inout SwiftWriter, doc: (String) -> String, purge: (Table) -> [String]
    ) {
        let tables = schema.tables.filter(\.expires)
        guard !tables.isEmpty else { return }
        out.line()
        out.doc(doc(tables.map { "`\($0.recordName)`" }.joined(separator: ", ")))
        out.line("@discardableResult")
        out.block("public static func \(signature) -> Int") { out in
            out.line("\(write) { conn in")
            out.line("    let now = conn.now")
            out.line("    var purged = 0")
            for table in tables {
                for line in purge(table) { out.line("    " + line) }
            }
            out.line("    return purged")
            out.line("}")
        }
    }
}
