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
    static let optionKeys = ["strict", "foreignKeys"]
    static let tableKeys = [
        "table", "columns", "primaryKey", "indexes", "queries", "renamedFrom", "doc", "strict", "withoutRowid", "checks", "unique", "search",
    ]
    static let searchKeys = ["columns", "tokenizer"]
    static let columnKeys = [
        "type", "optional", "primaryKey", "unique", "default", "check", "references", "onDelete", "onUpdate",
        "column", "renamedFrom", "swiftType", "values", "doc", "sqlType",
    ]
    static let indexKeys = ["columns", "name", "unique", "where"]
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

    init(file: String) {
        self.file = file
    }

    mutating func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        diagnostics.append(Diagnostic(at: location, message, hint: hint))
    }

    // MARK: - Node helpers

    /// The pairs of a mapping node, reporting keys outside `allowed`.
    mutating func mapping(_ node: YAMLNode, allowed: [String], in context: String) -> [String: YAMLNode]? {
        guard let pairs = node.pairs else {
            error(node.location, "\(context) must be a mapping, found \(node.kindDescription)")
            return nil
        }
        var values: [String: YAMLNode] = [:]
        suggestedKeys = []
        for pair in pairs {
            let key = pair.key.scalarText ?? ""
            if allowed.contains(key) {
                values[key] = pair.value
            } else {
                if let suggestion = Suggestion.closest(to: key, in: allowed) { suggestedKeys.insert(suggestion) }
                let hint = Suggestion.hint(for: key, in: allowed)
                    ?? "expected one of: \(allowed.joined(separator: ", "))"
                error(pair.key.location, "unknown key '\(key)' in \(context)", hint: hint)
            }
        }
        return values
    }

    mutating func string(_ node: YAMLNode?, _ what: String, allowEmpty: Bool = false) -> String? {
        guard let node else { return nil }
        guard let text = node.scalarText, !node.isNull else {
            error(node.location, "\(what) must be text, found \(node.kindDescription)")
            return nil
        }
        if text.isEmpty && !allowEmpty {
            error(node.location, "\(what) must not be empty")
            return nil
        }
        return text
    }

    mutating func bool(_ node: YAMLNode?, _ what: String) -> Bool? {
        guard let node else { return nil }
        guard let value = node.bool else {
            error(node.location, "\(what) must be true or false, found \(node.kindDescription)")
            return nil
        }
        return value
    }

    /// `text`, `text?`, `date?` … (no `enum`/`json` details: the caller completes those).
    mutating func typeSpec(_ node: YAMLNode, _ what: String) -> (keyword: String, isOptional: Bool)? {
        guard let raw = node.string, !raw.isEmpty else {
            error(node.location, "\(what) must be a type name, found \(node.kindDescription)",
                  hint: "one of: \(ColumnType.keywords.joined(separator: ", "))")
            return nil
        }
        var keyword = raw.trimmingSpaces
        var isOptional = false
        if keyword.hasSuffix("?") {
            isOptional = true
            keyword = String(keyword.dropLast()).trimmingSpaces
        }
        guard ColumnType.keywords.contains(keyword) else {
            let hint = Suggestion.hint(for: keyword, in: ColumnType.keywords)
                ?? Self.typeSynonyms[keyword.lowercased()].map { "did you mean '\($0)'?" }
                ?? "one of: \(ColumnType.keywords.joined(separator: ", "))"
            error(node.location, "unknown type '\(keyword)'", hint: hint)
            return nil
        }
        return (keyword, isOptional)
    }

    static func simpleType(_ keyword: String) -> ColumnType? {
        switch keyword {
        case "int": .int
        case "double": .double
        case "bool": .bool
        case "text": .text
        case "blob": .blob
        case "date": .date
        case "uuid": .uuid
        default: nil
        }
    }

    // MARK: - Schema

    mutating func decode(_ root: YAMLNode?, path: String) -> Schema {
        let start = SourceLocation(file: file, line: 1, column: 1)
        let stem = Self.databaseName(fromFileStem: Self.fileStem(path))
        var schema = Schema(name: stem, sourcePath: path)
        guard let root, !root.isNull else {
            error(start, "the schema file is empty", hint: "declare the tables under 'tables:'")
            return schema
        }
        guard let top = mapping(root, allowed: Self.topLevelKeys, in: "the schema") else { return schema }
        if let node = top["database"] {
            if let name = string(node, "'database'") {
                if !Identifier.isValidTypeName(name) {
                    error(node.location, "database name '\(name)' is not a valid Swift type name",
                          hint: "use letters, digits and '_', starting with a letter")
                } else if Identifier.typesUsedByGeneratedCode.contains(name) {
                    error(node.location, "database name '\(name)' would hide the type '\(name)' the generated code uses",
                          hint: "choose another name for the namespace, for example '\(name)Schema'")
                } else {
                    schema.name = name
                }
            }
        } else if !Identifier.isValidTypeName(stem) {
            error(start, "the file name '\(stem)' is not a valid Swift type name",
                  hint: "set 'database:' to name the generated namespace")
        } else if Identifier.typesUsedByGeneratedCode.contains(stem) {
            error(start, "the namespace '\(stem)' named after the file would hide the type '\(stem)' the generated code uses",
                  hint: "rename the file or use 'database:' to name the namespace, for example 'database: \(stem)Schema'")
        }
        if let node = top["options"], !node.isNull,
           let options = mapping(node, allowed: Self.optionKeys, in: "'options'") {
            if let strict = bool(options["strict"], "'strict'") { schema.options.strict = strict }
            if let keys = bool(options["foreignKeys"], "'foreignKeys'") { schema.options.foreignKeys = keys }
        }
        schema.views = sqlObjects(top["views"], what: "views")
        schema.triggers = sqlObjects(top["triggers"], what: "triggers")
        if let node = top["queries"] { schema.queries = decodeSQLQueries(node) }
        guard let tablesNode = top["tables"] else {
            error(root.location, "the schema has no 'tables:'", hint: "declare at least one table")
            return schema
        }
        guard let pairs = tablesNode.pairs, !pairs.isEmpty else {
            if tablesNode.isNull || tablesNode.pairs != nil {
                error(tablesNode.location, "'tables' is empty", hint: "declare at least one table")
            } else {
                error(tablesNode.location, "'tables' must be a mapping of record names to tables, found \(tablesNode.kindDescription)")
            }
            return schema
        }
        for pair in pairs {
            let before = diagnostics.count
            var (table, source) = decodeTable(key: pair.key, value: pair.value)
            source.hasErrors = diagnostics.count > before
            schema.tables.append(table)
            sources.append(source)
        }
        return schema
    }

    /// A table's `unique: [[a, b], …]` (a single list is one constraint).
    mutating func uniqueConstraints(_ node: YAMLNode, table: Table) -> [[String]] {
        guard let items = node.items, !items.isEmpty else {
            error(node.location, "'unique' must be a list of column lists, found \(node.kindDescription)", hint: "for example unique: [[a, b]]")
            return []
        }
        let lists = items.allSatisfy { $0.items == nil } ? [node] : items
        var result: [[String]] = []
        for list in lists {
            guard let names = list.items, !names.isEmpty else {
                error(list.location, "a UNIQUE constraint must be a list of columns, found \(list.kindDescription)")
                continue
            }
            var columns: [String] = []
            for item in names {
                guard let name = string(item, "a unique column") else { continue }
                guard let column = Self.column(name, in: table) else {
                    error(item.location, "UNIQUE names unknown column '\(name)'", hint: Suggestion.hint(for: name, in: table.columns.map(\.name)))
                    continue
                }
                columns.append(column.name)
            }
            if columns.count == names.count { result.append(columns) }
        }
        return result
    }

    /// The top-level `views:` or `triggers:` mapping of names to SQL.
    mutating func sqlObjects(_ node: YAMLNode?, what: String) -> [SQLObject] {
        guard let node, !node.isNull else { return [] }
        guard let pairs = node.pairs else {
            error(node.location, "'\(what)' must be a mapping of names to SQL, found \(node.kindDescription)")
            return []
        }
        var result: [SQLObject] = []
        for pair in pairs {
            let name = pair.key.scalarText ?? ""
            guard let sql = string(pair.value, "the SQL of '\(name)'") else { continue }
            if result.contains(where: { SQLName.same($0.name, name) }) {
                error(pair.key.location, "'\(name)' is declared twice in '\(what)'")
                continue
            }
            result.append(SQLObject(name: name, sql: sql, location: pair.key.location))
        }
        return result
    }

    /// `my-library` → `MyLibrary`: the default namespace for a file name.
    static func databaseName(fromFileStem stem: String) -> String {
        if Identifier.isValidTypeName(stem) { return stem }
        var parts: [String] = []
        var current = ""
        for scalar in stem.unicodeScalars {
            if scalar == "_" || scalar.properties.isXIDContinue {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `Library.schema.yml` → `Library`.
    static func fileStem(_ path: String) -> String {
        var name = String(path.split(separator: "/").last ?? Substring(path))
        for suffix in [".schema.yml", ".schema.yaml", ".yml", ".yaml"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
            break
        }
        return name
    }

    // MARK: - Tables

    mutating func decodeTable(key: YAMLNode, value: YAMLNode) -> (Table, TableSource) {
        let recordName = key.scalarText ?? ""
        var table = Table(recordName: recordName, location: key.location)
        var source = TableSource(keyLocation: key.location)
        if !Identifier.isValidTypeName(recordName) {
            error(key.location, "record name '\(recordName)' is not a valid Swift type name",
                  hint: "use an UpperCamelCase name; set 'table:' for the SQL name")
        }
        let context = "table '\(recordName)'"
        let before = diagnostics.count
        guard let fields = mapping(value, allowed: Self.tableKeys, in: context) else { return (table, source) }
        let misspeltColumns = suggestedKeys.contains("columns")
        if let sqlName = string(fields["table"], "'table'") { table.sqlName = sqlName }
        table.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        table.renamedFrom = string(fields["renamedFrom"], "'renamedFrom'")
        table.strict = bool(fields["strict"], "'strict'")
        table.isWithoutRowid = bool(fields["withoutRowid"], "'withoutRowid'") ?? false
        if let node = fields["checks"], !node.isNull {
            let items = node.items ?? [node]
            table.checks = items.compactMap { string($0, "a table check") }
        }
        source.renamedFrom = fields["renamedFrom"]
        source.primaryKey = fields["primaryKey"]

        if let columnsNode = fields["columns"] {
            if let pairs = columnsNode.pairs, !pairs.isEmpty {
                for pair in pairs {
                    let (column, columnSource) = decodeColumn(key: pair.key, value: pair.value, table: recordName)
                    table.columns.append(column)
                    source.columns.append(columnSource)
                }
            } else if columnsNode.isNull || columnsNode.pairs != nil {
                error(columnsNode.location, "\(context) has no columns")
            } else {
                error(columnsNode.location, "'columns' must be a mapping of names to types, found \(columnsNode.kindDescription)")
            }
        } else if !misspeltColumns {
            error(key.location, "\(context) has no 'columns:'")
        }

        resolvePrimaryKey(&table, &source, columnsHadErrors: diagnostics.count > before)
        if let node = fields["unique"], !node.isNull { table.uniqueConstraints = uniqueConstraints(node, table: table) }

        if let indexesNode = fields["indexes"], !indexesNode.isNull {
            if let items = indexesNode.items {
                for item in items {
                    if let (index, indexSource) = decodeIndex(item, table: table) {
                        table.indexes.append(index)
                        source.indexes.append(indexSource)
                    }
                }
            } else {
                error(indexesNode.location, "'indexes' must be a list, found \(indexesNode.kindDescription)")
            }
        }

        if let queriesNode = fields["queries"], !queriesNode.isNull {
            if let pairs = queriesNode.pairs {
                for pair in pairs {
                    if let (query, querySource) = decodeQuery(key: pair.key, value: pair.value, table: table) {
                        table.queries.append(query)
                        source.queries.append(querySource)
                    }
                }
            } else {
                error(queriesNode.location, "'queries' must be a mapping of names to queries, found \(queriesNode.kindDescription)")
            }
        }
        if let node = fields["search"], !node.isNull { table.search = decodeSearch(node, table: table) }
        checkDuplicateColumns(table, source)
        return (table, source)
    }

    mutating func checkDuplicateColumns(_ table: Table, _ source: TableSource) {
        var enumTypes: [String: String] = [:]
        for (column, columnSource) in zip(table.columns, source.columns) {
            guard case .enumeration(let swiftType, _) = column.type else { continue }
            if let first = enumTypes[swiftType] {
                error(columnSource.keyLocation,
                      "enum column '\(column.name)' generates the type '\(swiftType)' that column '\(first)' already generates",
                      hint: "set a different 'swiftType'")
            } else {
                enumTypes[swiftType] = column.name
            }
        }
        var seen: [SQLName.Key: String] = [:]
        for (column, columnSource) in zip(table.columns, source.columns) {
            let key = SQLName.key(column.sqlName)
            if let first = seen[key] {
                error(columnSource.keyLocation,
                      "column '\(column.name)' has the same SQL name '\(column.sqlName)' as column '\(first)'",
                      hint: "SQL names are case-insensitive for ASCII letters; set a different 'column:'")
            } else {
                seen[key] = column.name
            }
        }
    }

    /// A column by Swift name, else by SQL name (case-insensitively, as SQLite compares).
    static func column(_ name: String, in table: Table) -> Column? {
        table.columns.first { $0.name == name }
            ?? table.columns.first { SQLName.same($0.sqlName, name) }
    }

    mutating func resolvePrimaryKey(_ table: inout Table, _ source: inout TableSource, columnsHadErrors: Bool) {
        let marked = table.columns.indices.filter { table.columns[$0].primaryKey != nil }
        if let node = source.primaryKey {
            let items: [YAMLNode]
            if let list = node.items { items = list } else { items = [node] }
            if items.isEmpty { error(node.location, "'primaryKey' must name at least one column") }
            var names: [String] = []
            for item in items {
                guard let name = string(item, "a primary key column") else { continue }
                guard let column = Self.column(name, in: table) else {
                    error(item.location, "primary key names unknown column '\(name)'",
                          hint: Suggestion.hint(for: name, in: table.columns.map(\.name)))
                    continue
                }
                if names.contains(column.name) {
                    error(item.location, "primary key names column '\(name)' twice")
                    continue
                }
                names.append(column.name)
            }
            if let first = marked.first {
                error(node.location,
                      "the primary key is declared both on the table and on column '\(table.columns[first].name)'",
                      hint: "keep one of them")
            }
            table.primaryKey = names
        } else if marked.count > 1 {
            let second = marked[1]
            error(source.columns[second].primaryKey?.location ?? source.columns[second].keyLocation,
                  "more than one column is marked 'primaryKey'",
                  hint: "declare a composite key on the table: primaryKey: [\(marked.map { table.columns[$0].name }.joined(separator: ", "))]")
            table.primaryKey = marked.map { table.columns[$0].name }
        } else if let first = marked.first {
            table.primaryKey = [table.columns[first].name]
        } else if !table.columns.isEmpty && !columnsHadErrors {
            error(source.keyLocation, "table '\(table.recordName)' has no primary key",
                  hint: "mark a column 'primaryKey: true' or add 'primaryKey: [columns]' to the table")
        }
        for name in table.primaryKey {
            guard let index = table.columns.firstIndex(where: { $0.name == name }) else { continue }
            if table.columns[index].isOptional {
                error(source.columns[index].keyLocation, "primary key column '\(name)' cannot be optional")
            }
        }
    }

    // MARK: - Columns

    mutating func decodeColumn(key: YAMLNode, value: YAMLNode, table: String) -> (Column, ColumnSource) {
        let name = key.scalarText ?? ""
        var column = Column(name: name, type: .text, location: key.location)
        var source = ColumnSource(keyLocation: key.location)
        if !Identifier.isValidSwiftIdentifier(name) {
            error(key.location, "column name '\(name)' is not a valid Swift identifier",
                  hint: "use letters, digits and '_'; set 'column:' for the SQL name")
        }
        let context = "column '\(table).\(name)'"
        if value.scalarText != nil {
            source.type = value
            guard let spec = typeSpec(value, "the type of \(context)") else { return (column, source) }
            column.isOptional = spec.isOptional
            if let simple = Self.simpleType(spec.keyword) {
                column.type = simple
            } else if spec.keyword == "enum" {
                error(value.location, "enum \(context) has no values", hint: "use the long form: { type: enum, values: [a, b] }")
            } else {
                error(value.location, "json \(context) needs a 'swiftType'", hint: "use the long form: { type: json, swiftType: \"[String]\" }")
            }
            return (column, source)
        }
        guard let fields = mapping(value, allowed: Self.columnKeys, in: context) else { return (column, source) }
        source.type = fields["type"]
        source.primaryKey = fields["primaryKey"]
        source.defaultValue = fields["default"]
        source.check = fields["check"]
        source.references = fields["references"]
        source.onDelete = fields["onDelete"]
        source.onUpdate = fields["onUpdate"]
        source.renamedFrom = fields["renamedFrom"]

        if let sqlName = string(fields["column"], "'column'") { column.sqlName = sqlName }
        column.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        column.renamedFrom = string(fields["renamedFrom"], "'renamedFrom'")
        column.check = string(fields["check"], "'check'")
        column.sqlType = string(fields["sqlType"], "'sqlType'", allowEmpty: true)
        if let unique = bool(fields["unique"], "'unique'") { column.isUnique = unique }
        let swiftType = string(fields["swiftType"], "'swiftType'")

        var keyword: String?
        if let typeNode = fields["type"] {
            if let spec = typeSpec(typeNode, "the type of \(context)") {
                keyword = spec.keyword
                column.isOptional = spec.isOptional
            }
        } else {
            error(key.location, "\(context) has no 'type'", hint: "add 'type: text' (or another type)")
        }
        if let optionalNode = fields["optional"], let optional = bool(optionalNode, "'optional'") {
            if column.isOptional && !optional {
                error(optionalNode.location, "'optional: false' contradicts the '?' of the type")
            }
            column.isOptional = column.isOptional || optional
        }

        if let node = fields["primaryKey"] {
            if let flag = node.bool {
                column.primaryKey = flag ? .plain : nil
            } else if node.string == "autoincrement" {
                column.primaryKey = .autoincrement
                if keyword != nil && keyword != "int" {
                    error(node.location, "'autoincrement' needs an int column, \(context) is \(keyword ?? "")")
                }
            } else {
                error(node.location, "'primaryKey' must be true, false or autoincrement, found \(node.kindDescription)",
                      hint: node.string.flatMap { Suggestion.hint(for: $0, in: ["autoincrement"]) })
            }
        }

        let valuesNode = fields["values"]
        switch keyword {
        case "enum":
            var values: [String] = []
            if let valuesNode {
                if let items = valuesNode.items {
                    for item in items {
                        guard let text = item.scalarText, !item.isNull else {
                            error(item.location, "enum values must be text, found \(item.kindDescription)")
                            continue
                        }
                        if values.contains(text) {
                            error(item.location, "enum value '\(text)' is listed twice")
                        } else {
                            values.append(text)
                        }
                    }
                    if items.isEmpty { error(valuesNode.location, "enum \(context) has no values") }
                } else {
                    error(valuesNode.location, "'values' must be a list, found \(valuesNode.kindDescription)")
                }
            } else {
                error(fields["type"]?.location ?? key.location, "enum \(context) has no values", hint: "add values: [a, b]")
            }
            var typeName = Identifier.upperCamelCase(name)
            if Identifier.reservedNestedTypeNames.contains(typeName) || typeName == table {
                // `type` → `TypeValue`, `date` → `DateValue`: a nested `Type` does not compile
                // and a nested `Date` would hide Foundation's inside the record.
                typeName += "Value"
            }
            if let swiftType, let node = fields["swiftType"] {
                if Identifier.reservedNestedTypeNames.contains(swiftType) {
                    error(node.location, "enum swiftType '\(swiftType)' cannot name a type nested in the record",
                          hint: "use another name, for example '\(swiftType)Value'")
                } else if swiftType == table {
                    error(node.location, "enum swiftType '\(swiftType)' has the name of its record",
                          hint: "use another name, for example '\(swiftType)Value'")
                } else if Identifier.isValidTypeName(swiftType) {
                    typeName = swiftType
                } else {
                    error(node.location, "enum swiftType '\(swiftType)' is not a valid Swift type name")
                }
            }
            column.type = .enumeration(swiftType: typeName, values: values)
        case "json":
            if let swiftType {
                column.type = .json(swiftType: swiftType)
            } else if fields["swiftType"] == nil {
                error(fields["type"]?.location ?? key.location, "json \(context) needs a 'swiftType'",
                      hint: "for example swiftType: \"[String]\"")
            }
        case let keyword?:
            column.type = Self.simpleType(keyword) ?? .text
        case nil:
            break
        }
        if keyword != nil && keyword != "enum", let valuesNode {
            error(valuesNode.location, "'values' applies only to enum columns")
        }
        if keyword != nil && keyword != "enum" && keyword != "json", let node = fields["swiftType"] {
            error(node.location, "'swiftType' applies only to json and enum columns")
        }

        let typeIsComplete = keyword != "json" || fields["swiftType"] != nil
        if let node = fields["default"], let keyword, typeIsComplete {
            column.defaultValue = decodeDefault(node, type: column.type, keyword: keyword, context: context)
        }

        if let node = fields["references"] {
            if let target = string(node, "'references'") {
                // Resolved against the other tables later; keep the raw text for now.
                column.references = ForeignKey(table: target, column: "")
            }
        }
        for (field, node) in [("onDelete", fields["onDelete"]), ("onUpdate", fields["onUpdate"])] {
            guard let node else { continue }
            let all = ForeignKey.Action.allCases.map(\.rawValue)
            guard let text = node.string, let action = ForeignKey.Action(rawValue: text) else {
                error(node.location, "'\(field)' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.string.flatMap { Suggestion.hint(for: $0, in: all) })
                continue
            }
            if fields["references"] == nil {
                error(node.location, "'\(field)' needs 'references'")
            }
            if field == "onDelete" { column.references?.onDelete = action } else { column.references?.onUpdate = action }
        }
        return (column, source)
    }

    // MARK: - Defaults

    static let dateFormatHint = "dates are text 'YYYY-MM-DD HH:MM:SS.SSS' in UTC, or now"

    mutating func decodeDefault(_ node: YAMLNode, type: ColumnType, keyword: String, context: String) -> DefaultValue? {
        if let pairs = node.pairs, pairs.count == 1, pairs[0].key.scalarText == "sql", keyword != "json" {
            return string(pairs[0].value, "'sql'").map { .sql($0) }
        }
        if node.isNull {
            error(node.location, "the default of \(context) is null", hint: "remove 'default'; optional columns default to NULL")
            return nil
        }
        func wrong(_ expected: String, hint: String? = nil) -> DefaultValue? {
            error(node.location, "the default of \(context) must be \(expected), found \(node.kindDescription)", hint: hint)
            return nil
        }
        switch type {
        case .int:
            if let value = node.int { return .integer(value) }
            return wrong("an integer")
        case .double:
            if let value = node.double { return .real(value) }
            return wrong("a number")
        case .bool:
            if let value = node.bool { return .bool(value) }
            return wrong("true or false")
        case .text:
            if let value = node.string { return .text(value) }
            if node.scalarText != nil { return wrong("text", hint: "quote it: \"\(node.scalarText ?? "")\"") }
            return wrong("text")
        case .blob:
            return wrong("{ sql: expression }", hint: "for example { sql: \"x''\" }")
        case .date:
            if let value = node.string {
                if value == "now" { return .now }
                if Self.isDateText(value) { return .text(value) }
            }
            return wrong("now or a date", hint: Self.dateFormatHint)
        case .uuid:
            if let value = node.string, Self.isUUID(value) { return .text(value.uppercased()) }
            return wrong("a UUID", hint: "for example \"3F2504E0-4F89-41D3-9A0C-0305E82C3301\"")
        case .enumeration(_, let values):
            if let value = node.scalarText, node.pairs == nil, node.items == nil {
                if values.contains(value) { return .text(value) }
                error(node.location, "the default '\(value)' of \(context) is not one of its values",
                      hint: Suggestion.hint(for: value, in: values) ?? "one of: \(values.joined(separator: ", "))")
                return nil
            }
            return wrong("one of its values")
        case .json:
            if let pairs = node.pairs, pairs.count == 1, pairs[0].key.scalarText == "sql" {
                return string(pairs[0].value, "'sql'").map { .sql($0) }
            }
            return .json(JSONText.render(node))
        }
    }

    /// `YYYY-MM-DD HH:MM:SS.SSS` (the fraction optional).
    static func isDateText(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 19 || chars.count == 23 else { return false }
        let pattern = Array("dddd-dd-dd dd:dd:dd.ddd".utf8)
        for (index, char) in chars.enumerated() {
            if pattern[index] == UInt8(ascii: "d") {
                guard char >= UInt8(ascii: "0") && char <= UInt8(ascii: "9") else { return false }
            } else if char != pattern[index] {
                return false
            }
        }
        return true
    }

    static func isUUID(_ text: String) -> Bool {
        let chars = Array(text.utf8)
        guard chars.count == 36 else { return false }
        for (index, char) in chars.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard char == UInt8(ascii: "-") else { return false }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(char)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(char) else { return false }
            }
        }
        return true
    }

    // MARK: - Indexes

    mutating func decodeIndex(_ node: YAMLNode, table: Table) -> (Index, IndexSource)? {
        let context = "an index of table '\(table.recordName)'"
        guard let fields = mapping(node, allowed: Self.indexKeys, in: context) else { return nil }
        var source = IndexSource(name: fields["name"], whereClause: fields["where"])
        guard let columnsNode = fields["columns"] else {
            error(node.location, "\(context) has no 'columns'", hint: "add columns: [name]")
            return nil
        }
        source.columns = columnsNode.items ?? [columnsNode]
        if source.columns.isEmpty { error(columnsNode.location, "\(context) has no columns") }
        var names: [String] = []
        var sqlNames: [String] = []
        for item in source.columns {
            guard let name = string(item, "an index column") else { continue }
            guard let column = Self.column(name, in: table) else {
                error(item.location, "index names unknown column '\(name)'",
                      hint: Suggestion.hint(for: name, in: table.columns.map(\.name)))
                sqlNames.append(name)
                continue
            }
            names.append(column.name)
            sqlNames.append(column.sqlName)
        }
        let name = string(fields["name"], "'name'") ?? ([table.sqlName] + sqlNames).joined(separator: "_")
        let unique = bool(fields["unique"], "'unique'") ?? false
        let whereClause = string(fields["where"], "'where'")
        return (Index(name: name, columns: names, isUnique: unique, whereClause: whereClause, location: node.location), source)
    }

    // MARK: - Queries

    mutating func decodeQuery(key: YAMLNode, value: YAMLNode, table: Table) -> (Query, QuerySource)? {
        let name = key.scalarText ?? ""
        let context = "query '\(table.recordName).\(name)'"
        if !Identifier.isValidSwiftIdentifier(name) {
            error(key.location, "query name '\(name)' is not a valid Swift identifier")
        } else if Identifier.builtInDAOMethods.contains(name) {
            error(key.location, "query '\(name)' has the name of a method every DAO has",
                  hint: "rename it, for example '\(name)By…'")
        }
        guard let fields = mapping(value, allowed: Self.queryKeys, in: context) else { return nil }
        var query = Query(name: name, location: key.location)
        var source = QuerySource(keyLocation: key.location, whereClause: fields["where"], orderBy: fields["orderBy"],
                                 limit: fields["limit"])
        query.whereClause = string(fields["where"], "'where'")
        query.orderBy = string(fields["orderBy"], "'orderBy'")
        for (field, text) in [("where", query.whereClause), ("orderBy", query.orderBy)] {
            if let text, SQLRenderer.swallowsWhatFollows(text) {
                error(fields[field]?.location ?? key.location, "'\(field)' ends inside a comment or a quoted text, which would hide the SQL after it",
                      hint: "close the /* comment with */, or the quote")
            }
        }
        query.doc = string(fields["doc"], "'doc'", allowEmpty: true)
        if let node = fields["returns"] {
            let all = Query.Returns.allCases.map(\.rawValue)
            if let text = node.string, let returns = Query.Returns(rawValue: text) {
                query.returns = returns
            } else {
                error(node.location, "'returns' must be one of \(all.joined(separator: ", ")), found \(node.kindDescription)",
                      hint: node.scalarText.flatMap { Suggestion.hint(for: $0, in: all) })
            }
        }
        if let node = fields["limit"] {
            if let number = node.int {
                if number < 0 {
                    error(node.location, "'limit' must not be negative")
                } else {
                    query.limit = .fixed(number)
                }
            } else if let text = node.string, text.hasPrefix(":"), Identifier.isValidSwiftIdentifier(String(text.dropFirst())) {
                query.limit = .parameter(String(text.dropFirst()))
            } else {
                error(node.location, "'limit' must be a number or a ':name' parameter, found \(node.kindDescription)")
            }
        }
        if let node = fields["params"], !node.isNull {
            if let pairs = node.pairs {
                for pair in pairs {
                    let paramName = pair.key.scalarText ?? ""
                    guard let spec = typeSpec(pair.value, "the type of parameter '\(paramName)'") else { continue }
                    guard let type = Self.simpleType(spec.keyword) else {
                        error(pair.value.location, "parameter '\(paramName)' cannot be declared as \(spec.keyword)",
                              hint: "compare it with a column of that type to infer it")
                        continue
                    }
                    source.params.append((pair.key, type, spec.isOptional))
                }
            } else {
                error(node.location, "'params' must be a mapping of names to types, found \(node.kindDescription)")
            }
        }
        return (query, source)
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
