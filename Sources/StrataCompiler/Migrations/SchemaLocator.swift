/// Where in the schema file the subject of a schema-difference or migration-planning sentence
/// is declared, so the error points at the line of the column or table it is about.
///
/// The sentences of ``SchemaDiff`` and ``MigrationPlanner`` start with their subject in SQL
/// names: `column customer.phone …`, `table customer …`, `table customer: CHECK …`,
/// `index customer_email …`. A column that is no longer declared points at its table; a table
/// that is no longer declared has no line (nil).
struct SchemaLocator {
    private var tables: [SQLName.Key: Table] = [:]
    private var indexes: [SQLName.Key: SourceLocation] = [:]

    init(schema: Schema) {
        for table in schema.tables {
            let key = SQLName.key(table.sqlName)
            if tables[key] == nil { tables[key] = table }
            for index in table.indexes {
                indexes[SQLName.key(index.name)] = index.location ?? table.location
            }
        }
    }

    /// The location of the table, column or index `sentence` is about, or nil.
    func locate(_ sentence: String) -> SourceLocation? {
        // `rename column t.old to new …`, `rename table old to new …`: the new name's line.
        if let rest = sentence.dropPrefix("rename column "), let to = rest.range(of: " to ") {
            let table = rest[..<to.lowerBound].split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
            return locate("column \(table).\(rest[to.upperBound...])")
        }
        if let rest = sentence.dropPrefix("rename table "), let to = rest.range(of: " to ") {
            return locate("table \(rest[to.upperBound...])")
        }
        if let rest = sentence.dropPrefix("column ") {
            // `table.column …`: both names may hold dots and spaces; try each split.
            for dot in rest.indices where rest[dot] == "." {
                guard let table = tables[SQLName.key(String(rest[..<dot]))] else { continue }
                let after = rest[rest.index(after: dot)...]
                for end in Self.ends(of: after) {
                    if let column = table.columns.first(where: { SQLName.same($0.sqlName, String(after[..<end])) }) {
                        return column.location ?? table.location
                    }
                }
                return table.location
            }
            return nil
        }
        // `table old is no longer declared and the new table new has the same columns …`: the
        // new table's line, where `renamedFrom:` would go.
        if sentence.hasPrefix("table "), let twin = sentence.range(of: " is no longer declared and the new table ") {
            return locate("table " + sentence[twin.upperBound...])
        }
        if let rest = sentence.dropPrefix("table ") {
            for end in Self.ends(of: rest) {
                if let table = tables[SQLName.key(String(rest[..<end]))] { return table.location }
            }
            return nil
        }
        if let rest = sentence.dropPrefix("index ") {
            for end in Self.ends(of: rest) {
                if let location = indexes[SQLName.key(String(rest[..<end]))] { return location }
            }
        }
        return nil
    }

    /// Where a name at the start of `text` may end: before each space or colon, and at the end.
    private static func ends(of text: Substring) -> [Substring.Index] {
        text.indices.filter { text[$0] == " " || text[$0] == ":" } + [text.endIndex]
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
