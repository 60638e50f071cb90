// Tables: their keys, duplicate columns, the primary key, and indexes.
extension SchemaDecoder {
    mutating func decodeTable(key: YAMLNode, value: YAMLNode) -> (Table, TableSource) {
        let recordName = key.scalarText ?? ""
        var table = Table(recordName: recordName, location: key.location)
        var source = TableSource(keyLocation: key.location)
        if !SwiftNames.isValidTypeName(recordName) {
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
        if let node = fields["expires"], !node.isNull { addExpiry(node, to: &table, &source) }
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
        if table.expires {
            table.indexes.append(Expiry.index(on: table, location: fields["expires"]?.location))
            source.indexes.append(IndexSource())
        }
        return (table, source)
    }

    mutating func checkDuplicateColumns(_ table: Table, _ source: TableSource) {
        rejectRepeated(in: table, source) { column -> String? in
            guard case .enumeration(let swiftType, _) = column.type else { return nil }
            return swiftType
        } problem: { column, swiftType, first in
            ("enum column '\(column.name)' generates the type '\(swiftType)' that column '\(first)' already generates",
             "set a different 'swiftType'")
        }
        rejectRepeated(in: table, source) { SQLName.key($0.sqlName) } problem: { column, _, first in
            ("column '\(column.name)' has the same SQL name '\(column.sqlName)' as column '\(first)'",
             "SQL names are case-insensitive for ASCII letters; set a different 'column:'")
        }
    }

    /// Reports each column whose `key` an earlier column of `table` already has (a column whose
    /// key is nil is skipped); `problem(column, key, earlier column's name)` gives the message and hint.
    private mutating func rejectRepeated<Key: Hashable>(
        in table: Table, _ source: TableSource, key: (Column) -> Key?,
        problem: (Column, Key, String) -> (message: String, hint: String)
    ) {
        var first: [Key: String] = [:]
        for (column, columnSource) in zip(table.columns, source.columns) {
            guard let key = key(column) else { continue }
            if let earlier = first[key] {
                let (message, hint) = problem(column, key, earlier)
                error(columnSource.keyLocation, message, hint: hint)
            } else {
                first[key] = column.name
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
            // SQLite lets a primary key column of a rowid table that is not STRICT hold NULL unless
            // it says NOT NULL (a legacy quirk: sqlite.org/lang_createtable.html#the_primary_key);
            // an adopted database that has such a key declares it optional, as it is.
            // (A schema whose `options` make the table STRICT is refused with the tables.)
            // (`INTEGER PRIMARY KEY` is the rowid, never NULL.)
            let column = table.columns[index]
            let legacyNullable = !table.isWithoutRowid && table.strict != true && table.primaryKey.count == 1
                && (column.sqlType ?? column.storageSQLType).uppercased() != "INTEGER"
            if table.columns[index].isOptional && !legacyNullable {
                error(source.columns[index].keyLocation, "primary key column '\(name)' cannot be optional")
            }
        }
    }



    mutating func decodeIndex(_ node: YAMLNode, table: Table) -> (Index, IndexSource)? {
        let context = "an index of table '\(table.recordName)'"
        guard let fields = mapping(node, allowed: Self.indexKeys, in: context) else { return nil }
        var source = IndexSource(name: fields["name"], whereClause: fields["where"])
        let unique = bool(fields["unique"], "'unique'") ?? false
        let whereClause = string(fields["where"], "'where'")
        if let expressionNode = fields["expression"] {
            if let columnsNode = fields["columns"] {
                error(columnsNode.location, "\(context) has both 'columns' and 'expression'", hint: "keep one of them")
                return nil
            }
            guard let expression = string(expressionNode, "'expression'") else { return nil }
            let name = string(fields["name"], "'name'") ?? Self.expressionIndexName(table: table, expression: expression)
            var index = Index(name: name, columns: [], isUnique: unique, whereClause: whereClause, location: node.location)
            index.expression = expression
            return (index, source)
        }
        guard let columnsNode = fields["columns"] else {
            error(node.location, "\(context) has no 'columns'", hint: "add columns: [name], or expression: \"lower(name)\"")
            return nil
        }
        source.columns = columnsNode.items ?? [columnsNode]
        if source.columns.isEmpty { error(columnsNode.location, "\(context) has no columns") }
        var names: [String] = []
        var sqlNames: [String] = []
        var keyOptions: [Index.KeyOptions] = []
        for item in source.columns {
            guard let text = string(item, "an index column") else { continue }
            if let column = Self.column(text, in: table) {
                names.append(column.name)
                sqlNames.append(column.sqlName)
                keyOptions.append(Index.KeyOptions())
                continue
            }
            guard let (column, options) = indexKey(text, at: item.location, table: table) else {
                sqlNames.append(text)
                continue
            }
            names.append(column.name)
            sqlNames.append(column.sqlName)
            keyOptions.append(options)
        }
        let name = string(fields["name"], "'name'") ?? ([table.sqlName] + sqlNames).joined(separator: "_")
        var index = Index(name: name, columns: names, isUnique: unique, whereClause: whereClause, location: node.location)
        if keyOptions.contains(where: { $0 != Index.KeyOptions() }) { index.keyOptions = keyOptions }
        return (index, source)
    }
}
