import Strata

/// Reads the structure of a SQLite database into a ``DatabaseSchema``.
///
/// It asks SQLite rather than parsing DDL wherever SQLite can answer: `PRAGMA table_list`
/// (STRICT, WITHOUT ROWID), `table_xinfo` (columns, types, NOT NULL, defaults, key positions),
/// `foreign_key_list`, `index_list` and `index_xinfo` (indexes and UNIQUE constraints). The SQL
/// in `sqlite_master` is read only for what no pragma reports: CHECK constraints,
/// AUTOINCREMENT, a partial index's WHERE, and the text of triggers and views.
/// `sqlite_*` tables and Strata's `strata_migrations` are ignored.
///
/// ```swift
/// let db = try Database.inMemory()
/// let structure = try db.read { conn in try SchemaIntrospector.introspect(conn) }
/// ```
public enum SchemaIntrospector {
    /// The structure of the `main` database of `conn`.
    public static func introspect(_ conn: Connection) throws -> DatabaseSchema {
        var schema = DatabaseSchema()
        let objects = try conn.fetch(
            sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        let search = try searchObjectNames(conn)
        var tableOptions: [String: (strict: Bool, withoutRowid: Bool)] = [:]
        for row in try conn.fetch(sql: "SELECT name, strict, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'") {
            let name: String = try row.get(0)
            tableOptions[name] = (try row.get(1, as: Int.self) != 0, try row.get(2, as: Int.self) != 0)
        }
        for row in objects {
            let type: String = try row.get(0)
            let name: String = try row.get(1)
            let table: String = try row.get(2)
            let sql: String? = try row.get(3)
            switch type {
            case "table" where search.tables.contains(SQLName.fold(name)):
                schema.searchTables.append(DatabaseView(name: name, sql: sql ?? ""))
            case "table" where search.shadows.contains(SQLName.fold(name)):
                continue
            case "trigger" where search.triggers.contains(SQLName.fold(name)):
                schema.searchTriggers.append(DatabaseTrigger(name: name, table: table, sql: sql ?? ""))
            case "table":
                guard name != Migrator.historyTable else { continue }
                let options = tableOptions[name] ?? (false, false)
                schema.tables.append(
                    try introspectTable(conn, name: name, sql: sql ?? "", strict: options.strict, withoutRowid: options.withoutRowid))
            case "view":
                schema.views.append(DatabaseView(name: name, sql: sql ?? ""))
            case "trigger":
                schema.triggers.append(DatabaseTrigger(name: name, table: table, sql: sql ?? ""))
            default:
                break
            }
        }
        // The SQL of every index, from the one read of sqlite_master above (looking each index
        // up there would scan the whole table once per index).
        var indexSQL: [[UInt8]: String] = [:]
        for row in objects where try row.get(0, as: String.self) == "index" {
            indexSQL[Array(try row.get(1, as: String.self).utf8)] = try row.get(3, as: String?.self) ?? ""
        }
        for table in schema.tables {
            schema.indexes += try introspectIndexes(conn, table: table.name, sql: indexSQL)
        }
        return schema
    }

    static func introspectTable(_ conn: Connection, name: String, sql: String, strict: Bool, withoutRowid: Bool) throws -> DatabaseTable {
        let parsed = SQLTokenizer.parseCreateTable(sql)
        var table = DatabaseTable(name: name, isAutoincrement: parsed.hasAutoincrement, isStrict: strict, isWithoutRowid: withoutRowid, sql: sql)
        table.tableChecks = parsed.tableChecks
        var keyed: [(Int, String)] = []
        for row in try conn.fetch(sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)", arguments: [name]) {
            let columnName: String = try row.get(0)
            let parsedColumn = parsed.columns.first { SQLName.same($0.name, columnName) }
            let column = DatabaseColumn(
                name: columnName, type: (try row.get(1, as: String.self)).uppercased(), isNotNull: try row.get(2, as: Int.self) != 0,
                defaultSQL: try row.get(3), primaryKeyPosition: try row.get(4), hidden: try row.get(5),
                checks: parsedColumn?.checks ?? [], definition: parsedColumn?.definition ?? "")
            if column.primaryKeyPosition > 0 { keyed.append((column.primaryKeyPosition, columnName)) }
            table.columns.append(column)
        }
        table.primaryKey = keyed.sorted { $0.0 < $1.0 }.map(\.1)
        // An INTEGER PRIMARY KEY of a rowid table is the rowid: never NULL, whether or not
        // the DDL says NOT NULL.
        if !withoutRowid, table.primaryKey.count == 1,
            let index = table.columns.firstIndex(where: { $0.primaryKeyPosition == 1 && $0.type == "INTEGER" })
        {
            table.columns[index].isNotNull = true
        }

        var keys: [Int: DatabaseForeignKey] = [:]
        for row in try conn.fetch(
            sql: "SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
            arguments: [name])
        {
            let id: Int = try row.get(0)
            var key = try keys[id] ?? DatabaseForeignKey(
                columns: [], parentTable: try row.get(2), parentColumns: [], onDelete: try row.get(6), onUpdate: try row.get(5))
            key.columns.append(try row.get(3))
            // A key that names no parent column refers to the parent's primary key.
            let parentColumn = try row.get(4, as: String?.self)
            key.parentColumns.append(parentColumn ?? "")
            keys[id] = key
        }
        for id in keys.keys.sorted() {
            guard var key = keys[id] else { continue }
            if key.parentColumns.contains("") {
                let parentKey = try conn.fetch(sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [key.parentTable])
                key.parentColumns = try parentKey.map { try $0.get(0, as: String.self) }
            }
            table.foreignKeys.append(key)
        }

        for row in try conn.fetch(sql: "SELECT name, origin FROM pragma_index_list(?) WHERE origin = 'u' ORDER BY name", arguments: [name]) {
            table.uniqueConstraints.append(try indexColumns(conn, index: try row.get(0)))
        }
        table.uniqueConstraints.sort { $0.joined(separator: ",") < $1.joined(separator: ",") }
        return table
    }

    /// The explicit indexes of `table`; `sql` holds each index's `CREATE INDEX` by the bytes of its name.
    static func introspectIndexes(_ conn: Connection, table: String, sql indexSQL: [[UInt8]: String]) throws -> [DatabaseIndex] {
        var result: [DatabaseIndex] = []
        for row in try conn.fetch(sql: "SELECT name, \"unique\" FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name", arguments: [table]) {
            let name: String = try row.get(0)
            let sql = indexSQL[Array(name.utf8)] ?? ""
            result.append(
                DatabaseIndex(
                    name: name, table: table, columns: try indexColumns(conn, index: name), isUnique: try row.get(1, as: Int.self) != 0,
                    whereClause: SQLTokenizer.indexWhereClause(sql), sql: sql))
        }
        return result
    }

    static func indexColumns(_ conn: Connection, index: String) throws -> [String] {
        try conn.fetch(sql: "SELECT name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", arguments: [index]).map { row in
            var text = try row.get(0, as: String?.self) ?? "<expression>"
            if try row.get(1, as: Int.self) != 0 { text += " DESC" }
            let collation = try row.get(2, as: String?.self) ?? "BINARY"
            if collation.uppercased() != "BINARY" { text += " COLLATE \(collation)" }
            return text
        }
    }

    /// The (ASCII case folded) names of the full-text search objects Strata owns: FTS5 virtual
    /// tables named `<name>_fts`, their shadow tables, and the triggers named
    /// `<name>_fts_insert`, `_fts_delete` and `_fts_update`.
    static func searchObjectNames(_ conn: Connection) throws -> (tables: Set<String>, shadows: Set<String>, triggers: Set<String>) {
        var tables: Set<String> = []
        for row in try conn.fetch(sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'") {
            let name: String = try row.get(0)
            let sql = try row.get(1, as: String?.self) ?? ""
            let usesFTS5 = SQLTokenizer.tokenize(sql).contains { $0.text.lowercased() == "fts5" }
            if usesFTS5, SQLName.fold(name).hasSuffix(FullTextSearch.tableSuffix) { tables.insert(SQLName.fold(name)) }
        }
        guard !tables.isEmpty else { return ([], [], []) }
        var shadows: Set<String> = []
        for row in try conn.fetch(sql: "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'") {
            let name = SQLName.fold(try row.get(0, as: String.self))
            if tables.contains(where: { name.hasPrefix($0 + "_") }) { shadows.insert(name) }
        }
        var triggers: Set<String> = []
        for row in try conn.fetch(sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'") {
            let name = SQLName.fold(try row.get(0, as: String.self))
            for suffix in FullTextSearch.triggerSuffixes where name.hasSuffix(suffix) {
                if tables.contains(String(name.dropLast(suffix.count)) + FullTextSearch.tableSuffix) { triggers.insert(name) }
            }
        }
        return (tables, shadows, triggers)
    }
}
