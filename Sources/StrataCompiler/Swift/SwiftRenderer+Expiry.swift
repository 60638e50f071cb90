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
        let tables = schema.tables.filter(\.expires)
        guard !tables.isEmpty else { return }
        out.line()
        out.line("/// Deletes the expired rows of \(tables.map { "`\($0.recordName)`" }.joined(separator: ", ")) on PostgreSQL: those whose")
        out.line("/// `expiresAt` is not after the database's clock (`PostgresDatabase.Configuration.now`), in one")
        out.line("/// transaction, and returns how many it deleted (rows that `ON DELETE` actions remove with")
        out.line("/// them are not counted). Reads leave expired rows out already; this reclaims their space.")
        out.line("/// `migrate(_ pg:)` runs it once.")
        out.line("///")
        out.line("/// ```swift")
        out.line("/// let purged = try await \(schema.name).purgeExpired(pg)")
        out.line("/// ```")
        out.line("@discardableResult")
        out.block("public static func purgeExpired(_ pg: PostgresDatabase) async throws -> Int") { out in
            out.line("try await pg.write { conn in")
            out.line("    let now = conn.now")
            out.line("    var purged = 0")
            for table in tables {
                let dao = SwiftNames.identifier(table.recordName + "PostgresDAO")
                out.line("    purged += try await conn.execute(\(dao).PurgeExpired(now: now))")
            }
            out.line("    return purged")
            out.line("}")
        }
    }

    /// `<Database>.purgeExpired(_:)` on the namespace, when some table expires.
    func renderPurgeExpired(_ out: inout SwiftWriter) {
        let tables = schema.tables.filter(\.expires)
        guard !tables.isEmpty else { return }
        out.line()
        out.line("/// Deletes the expired rows of \(tables.map { "`\($0.recordName)`" }.joined(separator: ", ")): those whose `expiresAt` is not")
        out.line("/// after the database's clock (`Database.Configuration.now`), in one transaction, and returns")
        out.line("/// how many it deleted (rows that `ON DELETE` actions remove with them are not counted).")
        out.line("/// Reads leave expired rows out already; this reclaims their space. `migrate` runs it once.")
        out.line("///")
        out.line("/// ```swift")
        out.line("/// let purged = try \(schema.name).purgeExpired(db)")
        out.line("/// ```")
        out.line("@discardableResult")
        out.block("public static func purgeExpired(_ db: Database) throws -> Int") { out in
            out.line("try db.write { conn in")
            out.line("    let now = conn.now")
            out.line("    var purged = 0")
            for table in tables {
                let sql = DAOPlan(table: table, schema: schema).purgeExpiredSQL
                out.line("    try conn.execute(sql: \(SwiftNames.stringLiteral(sql)), arguments: [now])")
                out.line("    purged += conn.changes")
            }
            out.line("    return purged")
            out.line("}")
        }
    }
}
