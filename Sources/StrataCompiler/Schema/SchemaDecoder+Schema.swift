// The top level of a schema file: database name, options, tables, unique constraints, SQL objects.
extension SchemaDecoder {
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
                if !SwiftNames.isValidTypeName(name) {
                    error(node.location, "database name '\(name)' is not a valid Swift type name",
                          hint: "use letters, digits and '_', starting with a letter")
                } else if SwiftNames.typesUsedByGeneratedCode.contains(name) {
                    error(node.location, "database name '\(name)' would hide the type '\(name)' the generated code uses",
                          hint: "choose another name for the namespace, for example '\(name)Schema'")
                } else {
                    schema.name = name
                }
            }
        } else if !SwiftNames.isValidTypeName(stem) {
            error(start, "the file name '\(stem)' is not a valid Swift type name",
                  hint: "set 'database:' to name the generated namespace")
        } else if SwiftNames.typesUsedByGeneratedCode.contains(stem) {
            error(start, "the namespace '\(stem)' named after the file would hide the type '\(stem)' the generated code uses",
                  hint: "rename the file or use 'database:' to name the namespace, for example 'database: \(stem)Schema'")
        }
        if let node = top["options"], !node.isNull,
           let options = mapping(node, allowed: Self.optionKeys, in: "'options'") {
            if let strict = bool(options["strict"], "'strict'") { schema.options.strict = strict }
            if let keys = bool(options["foreignKeys"], "'foreignKeys'") { schema.options.foreignKeys = keys }
            if let node = options["dialects"] { schema.options.dialects = dialects(node) }
            if let node = options["collations"] { schema.options.collations = declaredCollations(node) }
        }
        declaredCollations = schema.options.collations
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
        var tables: [Table] = []
        for pair in pairs {
            let before = diagnostics.count
            var (table, source) = decodeTable(key: pair.key, value: pair.value)
            source.hasErrors = diagnostics.count > before
            tables.append(table)
            sources.append(source)
        }
        schema.tables = tables  // one assignment: it builds the name lookups
        // An optional primary key (SQLite's legacy NULL-able key) only in a table that is not STRICT.
        for (table, source) in zip(schema.tables, sources) where table.isStrict(in: schema) {
            for name in table.primaryKey {
                guard let index = table.columns.firstIndex(where: { $0.name == name }), table.columns[index].isOptional,
                    index < source.columns.count
                else { continue }
                error(source.columns[index].keyLocation, "primary key column '\(name)' cannot be optional")
            }
        }
        if schema.targetsPostgres { checkPostgres(schema, tables: pairs) }
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
        if SwiftNames.isValidTypeName(stem) { return stem }
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
}
