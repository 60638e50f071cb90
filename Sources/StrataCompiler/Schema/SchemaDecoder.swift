/// Where the parts of a decoded table were written, for diagnostics of later checks.
struct TableSource {
    var keyLocation: SourceLocation
    var primaryKey: YAMLNode?
    var columns: [ColumnSource] = []
    var indexes: [IndexSource] = []
    var queries: [QuerySource] = []
    var renamedFrom: YAMLNode?
    /// Something in this table was reported: later SQL checks skip it to avoid follow-on noise.
    var hasErrors = false
}

struct ColumnSource {
    var keyLocation: SourceLocation
    var type: YAMLNode?
    var primaryKey: YAMLNode?
    var defaultValue: YAMLNode?
    var check: YAMLNode?
    var references: YAMLNode?
    var onDelete: YAMLNode?
    var onUpdate: YAMLNode?
    var renamedFrom: YAMLNode?
    var collate: YAMLNode?
}

struct IndexSource {
    var columns: [YAMLNode] = []
    var name: YAMLNode?
    var whereClause: YAMLNode?
}

struct QuerySource {
    var keyLocation: SourceLocation
    var whereClause: YAMLNode?
    var orderBy: YAMLNode?
    var limit: YAMLNode?
    var params: [(key: YAMLNode, type: ColumnType, isOptional: Bool)] = []
}

/// Turns the YAML tree into the ``Schema`` model, reporting what does not fit the schema
/// language. Checks that need the whole table or schema live in `SchemaDecoder+Validation`.
struct SchemaDecoder {
    static let topLevelKeys = ["database", "options", "tables", "queries", "views", "triggers"]
    static let optionKeys = ["strict", "foreignKeys", "dialects", "collations"]
    static let tableKeys = [
        "table", "columns", "primaryKey", "indexes", "queries", "renamedFrom", "doc", "strict", "withoutRowid", "checks", "unique", "search",
        "expires",
    ]
    static let searchKeys = ["columns", "tokenizer"]
    static let columnKeys = [
        "type", "optional", "primaryKey", "unique", "default", "check", "references", "onDelete", "onUpdate",
        "column", "renamedFrom", "swiftType", "values", "doc", "sqlType",
        "collate", "dateFormat",
    ]
    static let indexKeys = ["columns", "expression", "name", "unique", "where"]
    static let queryKeys = ["where", "orderBy", "limit", "returns", "params", "doc"]
    /// Common spellings of other languages, mapped to the schema language's types.
    static let typeSynonyms = [
        "string": "text", "varchar": "text", "char": "text", "integer": "int", "int64": "int", "bigint": "int",
        "float": "double", "real": "double", "number": "double", "boolean": "bool", "datetime": "date",
        "timestamp": "date", "data": "blob", "bytes": "blob",
    ]

    let file: String
    var diagnostics: [Diagnostic] = []
    var sources: [TableSource] = []
    /// Keys suggested by the last `mapping` call: a misspelt `colums` explains a missing `columns`.
    var suggestedKeys: Set<String> = []
    /// The file's bytes, to place errors inside a `sql:` scalar (empty when not available).
    var source: [UInt8] = []
    /// The byte offset where each line of `source` starts, computed on first use.
    var lineStarts: [Int]?
    /// The in-memory database validation checked the DDL and queries in (nil before
    /// `validate`, or when SQLite could not open one); later stages reuse it.
    var sqlite: SQLiteChecker?
    /// `options: { collations: }`: the collations the app registers (decoded before the tables).
    var declaredCollations: [String] = []

    init(file: String) {
        self.file = file
    }

    mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location, message, hint: hint))
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
