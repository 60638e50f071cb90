import Foundation
import Logging
import PostgresNIO
import Strata

/// What the server says about one statement it prepared (parsed, analysed and planned, never
/// executed): what `strata prepare` writes to `<Name>.prepared.json`.
package struct PostgresStatementDescription: Sendable, Equatable {
    /// One result column.
    package struct Column: Sendable, Equatable {
        /// The name the server gives it.
        package var name: String
        /// Its type's `pg_type.typname` (`int8`, `numeric`, `text` …).
        package var type: String
        /// For a column that comes straight from a table: that table column's
        /// `pg_attribute.attnotnull`; nil for an expression (table OID 0).
        package var tableColumnNotNull: Bool?
    }

    /// The `pg_type.typname` of each `$n` parameter, in order, as the server inferred them.
    package var parameterTypes: [String]
    /// The result columns in order (empty for a statement without rows).
    package var columns: [Column]
}

/// Why the server refused to prepare a statement.
package struct PostgresStatementRejection: Error, Sendable, Equatable {
    /// The server's message.
    package var message: String
    /// Its `HINT:`, when it gave one.
    package var hint: String?
    /// The 1-based character position in the statement the error is at, when the server gave one.
    package var position: Int?
    /// The SQLSTATE.
    package var sqlState: String?
}

extension PostgresDatabase {
    /// Applies `migrations` to a new scratch schema (`strata_prepare_<random>`) with
    /// `search_path` set to it alone, prepares each of `statements` there and returns what the
    /// server said about each, or why it rejected it. Nothing is executed but the migrations.
    ///
    /// Everything happens in one transaction that is rolled back (the scratch schema is also
    /// dropped explicitly first): whatever fails, and even when the client dies, nothing is
    /// left behind. A migration that fails throws `StrataError.Kind.migrationFailed` naming it.
    package func describeStatements(
        _ statements: [String], migrations: [Migration]
    ) async throws -> [Result<PostgresStatementDescription, PostgresStatementRejection>] {
        let schema = "strata_prepare_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        return try await withConnection { lent in
            // A migration may take long: the migrator's own bound (none) applies.
            let conn = lent.unbounded
            try await conn.run(sql: "BEGIN")
            do {
                try await conn.run(sql: "CREATE SCHEMA \"\(schema)\"")
                try await conn.run(sql: "SET LOCAL search_path TO \"\(schema)\"")
                for migration in migrations {
                    do {
                        try await conn.execute(sql: migration.sql)
                    } catch var error as StrataError where error.kind == .postgres {
                        error.kind = .migrationFailed
                        error.message = "\(migration.fileName) fails on the server: \(error.message)"
                        throw error
                    }
                }
                var results: [Result<PostgresStatementDescription, PostgresStatementRejection>] = []
                for statement in statements {
                    try await conn.run(sql: "SAVEPOINT strata_prepare")
                    do {
                        results.append(.success(try await conn.describe(statement)))
                        try await conn.run(sql: "RELEASE SAVEPOINT strata_prepare")
                    } catch let rejection as PostgresStatementRejection {
                        try await conn.run(sql: "ROLLBACK TO SAVEPOINT strata_prepare")
                        results.append(.failure(rejection))
                    }
                }
                try await conn.run(sql: "DROP SCHEMA \"\(schema)\" CASCADE")
                try await conn.run(sql: "ROLLBACK")
                return results
            } catch {
                if (error as? StrataError)?.kind != .connection, !conn.underlying.isClosed {
                    _ = try? await conn.run(sql: "ROLLBACK")
                }
                throw error
            }
        }
    }
}

extension PostgresDatabase.Connection {
    /// Prepares `sql` as a named statement (Parse and Describe, no Bind, no Execute), reads its
    /// parameter types from `pg_prepared_statements` and its row description, and deallocates
    /// it. A statement the server refuses throws ``PostgresStatementRejection``.
    func describe(_ sql: String) async throws -> PostgresStatementDescription {
        let prepared: PreparedQuery
        do {
            prepared = try await underlying.prepare(query: sql).get()
        } catch let error as PSQLError where error.code == .server {
            let info = error.serverInfo
            throw PostgresStatementRejection(
                message: info?[.message] ?? "the server reported an error", hint: info?[.hint],
                position: info?[.position].flatMap { Int($0) }, sqlState: info?[.sqlState])
        } catch PostgresError.server(let info) {
            // postgres-nio's `prepare(query:)` reports server errors in its older error type.
            throw PostgresStatementRejection(
                message: info.fields[.message] ?? "the server reported an error", hint: info.fields[.hint],
                position: info.fields[.position].flatMap { Int($0) }, sqlState: info.fields[.sqlState])
        } catch {
            throw StrataError.fromPostgres(error, sql: sql, host: host.description)
        }
        do {
            let fields = try Self.rowDescription(of: prepared)
            let name = try Self.statementName(of: prepared)
            var bindings = PostgresBindings()
            bindings.append(name)
            let parameterTypes = try await query(
                sql: """
                    SELECT t.typname FROM pg_prepared_statements s
                    CROSS JOIN LATERAL unnest(s.parameter_types) WITH ORDINALITY AS p(type, n)
                    JOIN pg_type t ON t.oid = p.type::oid
                    WHERE s.name = $1 ORDER BY p.n
                    """, bindings
            ).map { try $0.decode(String.self) }
            var typeNames: [UInt32: String] = [:]
            let typeOIDs = Set(fields.map(\.type))
            if !typeOIDs.isEmpty {
                let list = typeOIDs.sorted().map(String.init).joined(separator: ", ")
                for row in try await query(sql: "SELECT oid::int8, typname FROM pg_type WHERE oid IN (\(list))") {
                    let (oid, name) = try row.decode((Int64, String).self)
                    typeNames[UInt32(truncatingIfNeeded: oid)] = name
                }
            }
            var notNull: [String: Bool] = [:]
            let tableColumns = fields.filter { $0.table != 0 && $0.attribute > 0 }
            if !tableColumns.isEmpty {
                let pairs = tableColumns.map { "(\(UInt32(bitPattern: $0.table)), \($0.attribute))" }.joined(separator: ", ")
                let rows = try await query(
                    sql: """
                        SELECT a.attrelid::int8, a.attnum::int4, a.attnotnull FROM pg_attribute a
                        JOIN (VALUES \(pairs)) AS w(rel, num) ON a.attrelid = w.rel::oid AND a.attnum = w.num
                        """)
                for row in rows {
                    let (table, attribute, isNotNull) = try row.decode((Int64, Int32, Bool).self)
                    notNull["\(table).\(attribute)"] = isNotNull
                }
            }
            let columns = try fields.map { field -> PostgresStatementDescription.Column in
                guard let type = typeNames[field.type] else {
                    throw StrataError(kind: .postgres, message: "the server did not report the type of column \(field.name) (OID \(field.type))", sql: sql)
                }
                let key = "\(UInt32(bitPattern: field.table)).\(field.attribute)"
                return .init(name: field.name, type: type, tableColumnNotNull: field.table == 0 ? nil : notNull[key] ?? false)
            }
            try await prepared.deallocate().get()
            return PostgresStatementDescription(parameterTypes: parameterTypes, columns: columns)
        } catch {
            _ = try? await prepared.deallocate().get()
            throw StrataError.fromPostgres(error, sql: sql, host: host.description)
        }
    }

    /// One field of a row description: name, table OID, attribute number, type OID.
    struct Field {
        var name: String
        var table: Int32
        var attribute: Int16
        var type: UInt32
    }

    /// The row description the server sent for a prepared statement.
    ///
    /// postgres-nio keeps it in its prepared query (`PreparedQuery.underlying.rowDescription`)
    /// without a public accessor, and its other ways to a row description execute the
    /// statement; reflection reads it without running anything. A postgres-nio whose layout
    /// differs is an error that says so, never an empty description.
    static func rowDescription(of prepared: PreparedQuery) throws -> [Field] {
        let missing = StrataError(
            kind: .misuse,
            message: "this postgres-nio does not keep a prepared statement's row description where strata prepare reads it (PreparedQuery.underlying.rowDescription)")
        guard let statement = Mirror(reflecting: prepared).descendant("underlying") else { throw missing }
        guard let optional = Mirror(reflecting: statement).descendant("rowDescription") else { throw missing }
        let wrapped = Mirror(reflecting: optional)
        guard wrapped.displayStyle == .optional else { throw missing }
        // nil: a statement without rows.
        guard let description = wrapped.children.first?.value else { return [] }
        guard let columns = Mirror(reflecting: description).descendant("columns") else { throw missing }
        return try Mirror(reflecting: columns).children.map { child in
            let column = Mirror(reflecting: child.value)
            guard let name = column.descendant("name") as? String, let table = column.descendant("tableOID") as? Int32,
                let attribute = column.descendant("columnAttributeNumber") as? Int16,
                let type = column.descendant("dataType") as? PostgresDataType
            else { throw missing }
            return Field(name: name, table: table, attribute: attribute, type: type.rawValue)
        }
    }

    /// The name postgres-nio prepared the statement under (`PreparedQuery.underlying.name`).
    static func statementName(of prepared: PreparedQuery) throws -> String {
        guard let name = Mirror(reflecting: prepared).descendant("underlying", "name") as? String else {
            throw StrataError(kind: .misuse, message: "this postgres-nio does not keep a prepared statement's name where strata prepare reads it")
        }
        return name
    }
}
