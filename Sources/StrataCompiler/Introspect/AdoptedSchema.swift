/// What `strata introspect` found in a live database, in schema-file terms: the value the
/// introspection stage hands to the YAML writer.
struct AdoptedSchema: Hashable, Sendable {
    var databaseName: String
    var sourceName: String
    /// `options: { strict: false }` (some table is not STRICT).
    var nonStrict = false
    /// `options: { collations: }`: the collations columns and indexes use that are not built in.
    var collations: [String] = []
    var tables: [AdoptedTable] = []
    var views: [SQLObject] = []
    var triggers: [SQLObject] = []
    /// Everything the YAML cannot express or had to change, one sentence each.
    var warnings: [String] = []
    /// Objects the YAML cannot express, written as comments at the end.
    var skipped: [String] = []
}

struct AdoptedTable: Hashable, Sendable {
    var recordName: String
    var sqlName: String
    /// nil: follows `options`; set when it differs.
    var strict: Bool?
    var withoutRowid = false
    /// `expires: true`: its `expiresAt` column and index are not in `columns` and `indexes`.
    var expires = false
    /// `search:`: its FTS5 table and triggers are not among the schema's skipped objects and triggers.
    var search: AdoptedSearch?
    var columns: [AdoptedColumn] = []
    /// Swift names, when the key has more than one column.
    var compositeKey: [String] = []
    var checks: [String] = []
    /// UNIQUE constraints over several columns (Swift names).
    var uniques: [[String]] = []
    var indexes: [AdoptedIndex] = []
    /// Comment lines written at the end of the table (what the YAML cannot express).
    var comments: [String] = []
}

struct AdoptedColumn: Hashable, Sendable {
    var name: String
    var sqlName: String
    var type: String
    /// The values of an `enum`.
    var values: [String] = []
    var isOptional = false
    /// `true` or `autoincrement`.
    var primaryKey: String?
    var isUnique = false
    /// The YAML text of the default (already a YAML scalar or flow mapping).
    var defaultYAML: String?
    var check: String?
    var references: String?
    var onDelete: String?
    var onUpdate: String?
    var sqlType: String?
    /// `collate:` (a built-in collation lower-cased).
    var collation: String?
    /// `dateFormat:` of a date column whose values are not Strata's text.
    var dateFormat: String?
    /// Comment lines written above the column.
    var comments: [String] = []
    /// What introspect read, for choices that need more than one column (not written).
    var declaredType = ""
    var defaultSQL: String?
    var census = ColumnCensus()
}

struct AdoptedIndex: Hashable, Sendable {
    var name: String?
    var columns: [String]
    /// `expression:`: the key list as the `CREATE INDEX` writes it, when a key is an expression.
    var expression: String?
    var isUnique: Bool
    var whereClause: String?
}

struct AdoptedSearch: Hashable, Sendable {
    /// Swift names.
    var columns: [String]
    var tokenizer: String?
}

extension AdoptedSchema {
    mutating func skip(_ what: String, sql: String, fix: String) {
        warnings.append("\(what); it is kept as a comment" + Self.refusal(fix))
        skipped.append(sql)
    }

    /// What a warning about something kept as a comment adds: the first migration does not
    /// create it, so a baseline refuses the database while it has it, and what to do.
    static func refusal(_ fix: String) -> String {
        ", which 0001 does not create, so `migrate --baseline` refuses the database while it has it: \(fix), then introspect again"
    }
}
