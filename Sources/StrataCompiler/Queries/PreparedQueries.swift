import Foundation
import Strata

/// `<Name>.prepared.json`: what `strata prepare <schema> --url postgres://…` learned about each
/// top-level query from a real PostgreSQL server, written beside the schema so that builds need
/// no server (the sqlx "offline" model).
///
/// The file is stable and reviewed in diffs: keys sorted, queries sorted by name, two-space
/// indentation, a newline at the end. A query whose source (``sourceFingerprint(name:postgresSQL:declaration:)``)
/// or whose schema (``migrationsFingerprint(_:)``) changed since the file was written is stale:
/// the build fails at the query's line naming `strata prepare`.
package struct PreparedQueries: Codable, Equatable, Sendable {
    /// The version of this format; a file of another version is refused with a clear error.
    package static let currentFormatVersion = 1

    /// The format version the file was written in.
    package var formatVersion: Int
    /// ``migrationsFingerprint(_:)`` of the PostgreSQL migrations the queries were prepared against.
    package var migrationsFingerprint: String
    /// One entry per top-level query, sorted by name.
    package var queries: [PreparedQuery]

    /// Creates a file's contents (the queries are sorted by name).
    package init(migrationsFingerprint: String, queries: [PreparedQuery]) {
        formatVersion = Self.currentFormatVersion
        self.migrationsFingerprint = migrationsFingerprint
        self.queries = queries.sorted { $0.name < $1.name }
    }

    /// The entry of the query named `name`.
    package func query(named name: String) -> PreparedQuery? {
        queries.first { $0.name == name }
    }

    /// `Shop.prepared.json` beside `Shop.schema.yml` (the `.schema.yml` suffix replaced).
    package static func path(forSchemaPath schemaPath: String) -> String {
        let suffix = ".schema.yml"
        let base = schemaPath.hasSuffix(suffix) ? String(schemaPath.dropLast(suffix.count))
            : (schemaPath as NSString).deletingPathExtension
        return base + ".prepared.json"
    }

    /// The fingerprint of a schema's PostgreSQL migrations, in order: SHA-256 over each
    /// migration's version, name and checksum.
    package static func migrationsFingerprint(_ migrations: [Migration]) -> String {
        let text = migrations.sorted { $0.version < $1.version }
            .map { "\($0.version) \($0.name) \($0.checksum)\n" }
            .joined()
        return Migration.checksum(of: text)
    }

    /// The fingerprint of one query as the YAML declares it for PostgreSQL: its name, the
    /// PostgreSQL SQL text as written (the `postgres:` variant, or the shared `sql:`), and
    /// `declaration`, a canonical text of whatever else changes the generated method
    /// (`returns:`, `params:`, `columns:`), chosen by the compiler.
    package static func sourceFingerprint(name: String, postgresSQL: String, declaration: String) -> String {
        Migration.checksum(of: "\(name)\n\(declaration)\n\(postgresSQL)")
    }

    /// ``sourceFingerprint(name:postgresSQL:declaration:)`` of a query as decoded: its
    /// PostgreSQL text and its `returns:`, `params:` and `columns:`. `strata prepare` writes
    /// it; the build compares it with the file's.
    package static func sourceFingerprint(of query: SQLQuery) -> String {
        let parameters = query.parameterTypes.map { override -> String in
            let element = override.type.keyword + (override.isOptional ? "?" : "")
            return "\(override.name): " + (override.isList ? "[\(element)]" : element)
        }
        let columns = query.columnTypes.map { "\($0.name): \($0.type.keyword)" + ($0.isOptional ? "?" : "") }
        let declaration = "returns: \(query.returns.rawValue)\nparams: \(parameters.joined(separator: ", "))\ncolumns: \(columns.joined(separator: ", "))"
        return sourceFingerprint(name: query.name, postgresSQL: query.postgresText, declaration: declaration)
    }

    /// The file's text: sorted keys, pretty printed, a newline at the end.
    package func encodedText() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        return Self.compactingEmptyArrays(String(decoding: data, as: UTF8.self)) + "\n"
    }

    /// `[]` for an empty array, which Foundation's pretty printer writes as `[`, an empty line
    /// and `]` on Linux: the file must be the same bytes wherever `strata prepare` ran. (A `[`
    /// followed by a line break is never inside a JSON string, whose line breaks are escaped.)
    static func compactingEmptyArrays(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "[") {
            result += rest[...open]
            var after = rest.index(after: open)
            guard after < rest.endIndex, rest[after] == "\n" else {
                rest = rest[after...]
                continue
            }
            while after < rest.endIndex, rest[after] == "\n" || rest[after] == " " { after = rest.index(after: after) }
            if after < rest.endIndex, rest[after] == "]" {
                result += "]"
                rest = rest[rest.index(after: after)...]
            } else {
                rest = rest[rest.index(after: open)...]
            }
        }
        result += rest
        return result
    }

    /// Decodes a file's text; a malformed file throws.
    package static func decode(_ text: String) throws -> PreparedQueries {
        try JSONDecoder().decode(PreparedQueries.self, from: Data(text.utf8))
    }
}

/// One query as PostgreSQL prepared it.
package struct PreparedQuery: Codable, Equatable, Sendable {
    /// The query's name (its key under `queries:`).
    package var name: String
    /// ``PreparedQueries/sourceFingerprint(name:postgresSQL:declaration:)`` of the declaration
    /// it was prepared from.
    package var sourceFingerprint: String
    /// The statement as sent to the server: `:name` parameters rewritten to `$1`, `$2` … in
    /// ``parameters`` order. This is the text the generated `<Database>PostgresQueries` runs.
    package var sql: String
    /// The parameters in `$n` order.
    package var parameters: [PreparedParameter]
    /// The result columns in order (empty for a statement that yields no rows).
    package var columns: [PreparedColumn]

    /// Creates an entry.
    package init(name: String, sourceFingerprint: String, sql: String, parameters: [PreparedParameter], columns: [PreparedColumn]) {
        self.name = name
        self.sourceFingerprint = sourceFingerprint
        self.sql = sql
        self.parameters = parameters
        self.columns = columns
    }
}

/// One `$n` parameter of a prepared query.
package struct PreparedParameter: Codable, Equatable, Sendable {
    /// The `:name` it was written as (without the colon).
    package var name: String
    /// The PostgreSQL type the server inferred, by `pg_type.typname` (`int8`, `text`, `_int8`
    /// for an array, `timestamptz` …).
    package var type: String
    /// A list parameter (`IN (:ids)` in SQLite's SQL), bound as one array (`= ANY($n)`).
    package var isList: Bool

    /// Creates a parameter.
    package init(name: String, type: String, isList: Bool = false) {
        self.name = name
        self.type = type
        self.isList = isList
    }
}

/// One result column of a prepared query.
package struct PreparedColumn: Codable, Equatable, Sendable {
    /// The column's name as the server reports it.
    package var name: String
    /// Its PostgreSQL type, by `pg_type.typname` (`int8`, `numeric`, `text` …).
    package var type: String
    /// Whether it may be NULL: false only when it is a column of a table with
    /// `pg_attribute.attnotnull` that no outer join makes nullable, or an expression the query
    /// analysis proves non-null.
    ///
    /// The rule (`strata prepare`, ``PreparedQuery/init(query:text:analysis:parameterTypes:columns:)``):
    /// the server reports, for each result column, the table OID and attribute number it comes
    /// from (0 for an expression); the compiler's analysis of the same query (the SQLite
    /// check's ``TypedQuery``, its column at the same position) says whether it is optional.
    /// For a table column, `nullable = !attnotnull || analysisSaysOptional` (the analysis sees
    /// the outer joins); for an expression, `nullable = analysisSaysOptional`; a position the
    /// analysis does not have is nullable.
    package var nullable: Bool

    /// Creates a column.
    package init(name: String, type: String, nullable: Bool) {
        self.name = name
        self.type = type
        self.nullable = nullable
    }
}
