/// What a schema difference, a migration planner's refusal or a pending rename is about, in SQL
/// names: what ``SchemaLocator`` finds the line of.
enum SchemaSubject: Hashable, Sendable {
    /// A table (or one of its constraints).
    case table(String)
    /// A column of a table.
    case column(table: String, column: String)
    /// An index.
    case index(String)
    /// A view, trigger or full-text object, or the whole schema: no line of its own.
    case unlocated
}

/// Where in the schema file the subject of a schema difference or a migration-planning problem
/// is declared, so the error points at the line of the column or table it is about.
///
/// A column that is no longer declared points at its table; a table that is no longer declared
/// has no line (nil). Names are matched as SQLite matches them (``SQLName``).
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

    /// The location of the table, column or index `subject` names, or nil.
    func locate(_ subject: SchemaSubject) -> SourceLocation? {
        switch subject {
        case .table(let name):
            return tables[SQLName.key(name)]?.location
        case .column(let tableName, let columnName):
            guard let table = tables[SQLName.key(tableName)] else { return nil }
            return table.columns.first(where: { SQLName.same($0.sqlName, columnName) })?.location ?? table.location
        case .index(let name):
            return indexes[SQLName.key(name)]
        case .unlocated:
            return nil
        }
    }
}
