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
package enum SchemaIntrospector {
    /// The structure of the `main` database of `conn`.
    package static func introspect(_ conn: Connection) throws -> DatabaseSchema {
        try introspect(conn, cache: nil)
    }

    /// The structure of the `main` database of `conn`, reusing from `cache` every table (with
    /// its indexes) whose SQL, and its indexes' SQL, `cache` has introspected already
    /// (``IntrospectionCache``): only the other tables are asked to SQLite, and they are
    /// added to `cache`. The result is the one ``introspect(_:)`` gives.
    static func introspect(_ conn: Connection, cache: IntrospectionCache?) throws -> DatabaseSchema {
        var schema = DatabaseSchema()
        let objects = try conn.fetch(
            sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
        let search = try searchObjectNames(conn)
        // By the bytes of each name (Swift's `==` takes canonically equivalent names for equal).
        var tableOptions: [[UInt8]: (strict: Bool, withoutRowid: Bool)] = [:]
        for row in try conn.fetch(sql: "SELECT name, strict, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'") {
            let name: String = try row.get(0)
            tableOptions[Array(name.utf8)] = (try row.get(1, as: Int.self) != 0, try row.get(2, as: Int.self) != 0)
        }
        // The SQL of every index, from the one read of sqlite_master above (looking each index
        // up there would scan the whole table once per index); with a cache, each table's
        // indexes (name and SQL), which its cache key holds.
        var indexSQL: [[UInt8]: String] = [:]
        var indexesOfTable: [SQLName.Key: [(name: String, sql: String)]] = [:]
        for row in objects where try row.get(0, as: String.self) == "index" {
            let name: String = try row.get(1)
            let sql = try row.get(3, as: String?.self) ?? ""
            indexSQL[Array(name.utf8)] = sql
            if cache != nil { indexesOfTable[SQLName.key(try row.get(2, as: String.self)), default: []].append((name, sql)) }
        }
        // The tables in order, each one found in the cache or to be asked to SQLite.
        enum Found {
            case cached(IntrospectionCache.Entry)
            case missing(name: String, sql: String, strict: Bool, withoutRowid: Bool, key: IntrospectionCache.Key?)
        }
        var found: [Found] = []
        var missing = 0
        // The SQL of every table and view by name, for the parents of the cached foreign keys.
        var parentSQL: [SQLName.Key: String]?
        func currentParentSQL() throws -> [SQLName.Key: String] {
            if let parentSQL { return parentSQL }
            var result: [SQLName.Key: String] = [:]
            for row in objects {
                let type: String = try row.get(0)
                guard type == "table" || type == "view" else { continue }
                result[SQLName.key(try row.get(1, as: String.self))] = try row.get(3, as: String?.self) ?? ""
            }
            parentSQL = result
            return result
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
                let options = tableOptions[Array(name.utf8)] ?? (false, false)
                let sql = sql ?? ""
                var key: IntrospectionCache.Key?
                if let cache, !sql.hasPrefix("CREATE VIRTUAL TABLE") {
                    var texts = [name, sql]
                    if let indexes = indexesOfTable[SQLName.key(name)] {
                        for index in indexes.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                            texts += [index.name, index.sql]
                        }
                    }
                    let tableKey = IntrospectionCache.Key(texts: texts, isStrict: options.strict, isWithoutRowid: options.withoutRowid)
                    if let entry = cache.entries[tableKey] {
                        let parents = entry.parents.isEmpty ? [:] : try currentParentSQL()
                        if entry.parents.allSatisfy({ IntrospectionCache.same(parents[$0.name], $0.sql) }) {
                            CompileWork.countReusedTable()
                            found.append(.cached(entry))
                            continue
                        }
                    }
                    key = tableKey
                }
                missing += 1
                found.append(.missing(name: name, sql: sql, strict: options.strict, withoutRowid: options.withoutRowid, key: key))
            case "view":
                schema.views.append(DatabaseView(name: name, sql: sql ?? ""))
            case "trigger":
                schema.triggers.append(DatabaseTrigger(name: name, table: table, sql: sql ?? ""))
            default:
                break
            }
        }
        // Every table's pragma rows at once (on any error, each table is asked alone); with a
        // cache, only when many tables miss it (the bulk queries read every table).
        let bulk = cache == nil || missing > IntrospectionCache.bulkThreshold ? try? PragmaRows.read(conn) : nil
        var tables: [DatabaseTable] = []  // assigned once: setting them builds the name lookups
        var indexes: [DatabaseIndex] = []
        tables.reserveCapacity(found.count)
        for entry in found {
            switch entry {
            case .cached(let entry):
                tables.append(entry.table)
                indexes += entry.indexes
            case .missing(let name, let sql, let strict, let withoutRowid, let key):
                var parents: [String] = []
                let table = try introspectTable(
                    conn, name: name, sql: sql, strict: strict, withoutRowid: withoutRowid, bulk: bulk, parentsRead: &parents)
                let tableIndexes = try introspectIndexes(conn, table: table, sql: indexSQL, bulk: bulk)
                tables.append(table)
                indexes += tableIndexes
                CompileWork.countIntrospectedTable()
                guard let cache, let key else { continue }
                let current = parents.isEmpty ? [:] : try currentParentSQL()
                let keys = parents.map(SQLName.key)
                cache.entries[key] = IntrospectionCache.Entry(
                    table: table, indexes: tableIndexes, parents: keys.map { (name: $0, sql: current[$0]) })
            }
        }
        schema.tables = tables
        schema.indexes = indexes
        return schema
    }

    /// The rows of the schema pragmas for every (non-virtual) table, each pragma read for all
    /// of them in one query (`sqlite_master` joined with the table-valued pragma) instead of
    /// one query a table: by table name, the rows the per-table queries of
    /// ``introspectTable(_:name:sql:strict:withoutRowid:bulk:)`` and
    /// ``introspectIndexes(_:table:sql:bulk:)`` read, in their order. A table without an
    /// entry (a virtual table) is asked alone, as before. Tables are keyed by the bytes of
    /// their names: Swift's `==` would take `café` spelled with a precomposed `é` and with a
    /// combining accent, two tables to SQLite, for one.
    struct PragmaRows {
        /// `table_xinfo`: name, type, notnull, dflt_value, pk, hidden (by cid).
        var columns: [[UInt8]: [Row]] = [:]
        /// `foreign_key_list`: id, seq, table, from, to, on_update, on_delete (by id, seq).
        var foreignKeys: [[UInt8]: [Row]] = [:]
        /// `index_list` (by index name) with each index's `index_xinfo` key rows: cid, name,
        /// desc, coll (by seqno).
        var indexes: [[UInt8]: [(name: String, isUnique: Bool, origin: String, keys: [Row])]] = [:]

        static func read(_ conn: Connection) throws -> PragmaRows {
            var rows = PragmaRows()
            // The arguments of a table-valued function refer to the tables left of it.
            let tables = "m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%'"
            for row in try conn.fetch(
                sql: "SELECT x.name, x.type, x.\"notnull\", x.dflt_value, x.pk, x.hidden, m.name FROM sqlite_master m, pragma_table_xinfo(m.name) x WHERE \(tables) ORDER BY m.rowid, x.cid")
            {
                rows.columns[Array(try row.get(6, as: String.self).utf8), default: []].append(row)
            }
            for row in try conn.fetch(
                sql: "SELECT f.id, f.seq, f.\"table\", f.\"from\", f.\"to\", f.on_update, f.on_delete, m.name FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE \(tables) ORDER BY m.rowid, f.id, f.seq")
            {
                rows.foreignKeys[Array(try row.get(7, as: String.self).utf8), default: []].append(row)
            }
            var last: (table: [UInt8], index: String)?
            for row in try conn.fetch(
                sql: "SELECT k.cid, k.name, k.\"desc\", k.coll, i.name, i.\"unique\", i.origin, m.name FROM sqlite_master m, pragma_index_list(m.name) i, pragma_index_xinfo(i.name) k WHERE \(tables) AND i.origin IN ('u', 'c') AND k.key = 1 ORDER BY m.rowid, i.name, k.seqno")
            {
                let table = Array(try row.get(7, as: String.self).utf8)
                let index: String = try row.get(4)
                if let last, last.table == table, SQLName.identical(last.index, index), let position = rows.indexes[table]?.indices.last {
                    rows.indexes[table]?[position].keys.append(row)
                } else {
                    rows.indexes[table, default: []].append((index, try row.get(5, as: Int.self) != 0, try row.get(6), [row]))
                }
                last = (table, index)
            }
            return rows
        }
    }

    /// The table `name`; `parentsRead` gets the name of each table whose primary key a foreign
    /// key that names no parent column refers to (read from that table).
    static func introspectTable(
        _ conn: Connection, name: String, sql: String, strict: Bool, withoutRowid: Bool, bulk: PragmaRows? = nil,
        parentsRead: inout [String]
    ) throws -> DatabaseTable {
        // The rows read for every table at once, when they cover this one.
        let key = Array(name.utf8)
        let read = bulk?.columns[key].map { columns in
            (columns: columns, foreignKeys: bulk?.foreignKeys[key] ?? [], indexes: bulk?.indexes[key] ?? [])
        }
        let parsed = SQLTokenizer.parseCreateTable(sql)
        var table = DatabaseTable(name: name, isAutoincrement: parsed.hasAutoincrement, isStrict: strict, isWithoutRowid: withoutRowid, sql: sql)
        table.tableChecks = parsed.tableChecks
        var keyed: [(Int, String)] = []
        let columnRows = try read?.columns
            ?? conn.fetch(sql: "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?)", arguments: [name])
        for row in columnRows {
            let columnName: String = try row.get(0)
            let parsedColumn = parsed.columns.first { SQLName.same($0.name, columnName) }
            let column = DatabaseColumn(
                name: columnName, type: (try row.get(1, as: String.self)).uppercased(), isNotNull: try row.get(2, as: Int.self) != 0,
                defaultSQL: try row.get(3), primaryKeyPosition: try row.get(4), hidden: try row.get(5),
                checks: parsedColumn?.checks ?? [], definition: parsedColumn?.definition ?? "", collation: parsedColumn?.collation)
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
        let foreignKeyRows = try read?.foreignKeys
            ?? conn.fetch(
                sql: "SELECT id, seq, \"table\", \"from\", \"to\", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq",
                arguments: [name])
        for row in foreignKeyRows {
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
                parentsRead.append(key.parentTable)
                let parentKey = try conn.fetch(sql: "SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [key.parentTable])
                key.parentColumns = try parentKey.map { try $0.get(0, as: String.self) }
            }
            table.foreignKeys.append(key)
        }

        if let read {
            for index in read.indexes where index.origin == "u" {
                table.uniqueConstraints.append(try indexKeys(index.keys, table: table, sql: "").map(\.text))
            }
        } else {
            for row in try conn.fetch(sql: "SELECT name, origin FROM pragma_index_list(?) WHERE origin = 'u' ORDER BY name", arguments: [name]) {
                table.uniqueConstraints.append(try indexKeys(conn, index: try row.get(0), table: table, sql: "").map(\.text))
            }
        }
        table.uniqueConstraints.sort { $0.joined(separator: ",") < $1.joined(separator: ",") }
        return table
    }

    /// The explicit indexes of `table`; `sql` holds each index's `CREATE INDEX` by the bytes of its name.
    /// `bulk` holds the pragmas' rows for every table (``PragmaRows``) when it covers this one.
    static func introspectIndexes(
        _ conn: Connection, table: DatabaseTable, sql indexSQL: [[UInt8]: String], bulk: PragmaRows? = nil
    ) throws -> [DatabaseIndex] {
        var listed: [(name: String, isUnique: Bool, keys: [Row]?)] = []
        if let bulk, bulk.columns[Array(table.name.utf8)] != nil {
            listed = (bulk.indexes[Array(table.name.utf8)] ?? []).filter { $0.origin == "c" }.map { ($0.name, $0.isUnique, $0.keys) }
        } else {
            for row in try conn.fetch(sql: "SELECT name, \"unique\" FROM pragma_index_list(?) WHERE origin = 'c' ORDER BY name", arguments: [table.name]) {
                listed.append((try row.get(0), try row.get(1, as: Int.self) != 0, nil))
            }
        }
        var result: [DatabaseIndex] = []
        for entry in listed {
            let name = entry.name
            let sql = indexSQL[Array(name.utf8)] ?? ""
            let keys = try entry.keys.map { try indexKeys($0, table: table, sql: sql) } ?? indexKeys(conn, index: name, table: table, sql: sql)
            var index = DatabaseIndex(
                name: name, table: table.name, columns: keys.map(\.text), isUnique: entry.isUnique,
                whereClause: SQLTokenizer.indexWhereClause(sql), sql: sql)
            index.keys = keys.map(\.key)
            result.append(index)
        }
        return result
    }

    /// The keys of the index `index` on `table` (`PRAGMA index_xinfo`: column, `desc`, `coll`;
    /// cid -2 for an expression, whose text comes from the index's `sql`), each with its text
    /// as ``DatabaseIndex/columns`` writes it. A key's collation is written only when it is
    /// not what the column (or, for an expression, `BINARY`) gives anyway: an index on a
    /// NOCASE column is a plain index on that column.
    static func indexKeys(_ conn: Connection, index: String, table: DatabaseTable, sql: String) throws -> [(text: String, key: DatabaseIndex.Key)] {
        let rows = try conn.fetch(sql: "SELECT cid, name, \"desc\", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno", arguments: [index])
        return try indexKeys(rows, table: table, sql: sql)
    }

    /// ``indexKeys(_:index:table:sql:)`` from the index's `index_xinfo` rows (cid, name, desc,
    /// coll: its keys, by seqno).
    static func indexKeys(_ rows: [Row], table: DatabaseTable, sql: String) throws -> [(text: String, key: DatabaseIndex.Key)] {
        let terms = rows.contains { (try? $0.get(0, as: Int.self)) == -2 } ? SQLTokenizer.indexTerms(sql) : []
        return try rows.enumerated().map { position, row in
            var key = DatabaseIndex.Key()
            let collation = try row.get(3, as: String?.self) ?? "BINARY"
            key.isDescending = try row.get(2, as: Int.self) != 0
            var text: String
            if let column = try row.get(1, as: String?.self) {
                key.column = column
                text = column
                let own = table.column(named: column)?.collation ?? "BINARY"
                if !SQLName.same(collation, own) { key.collation = collation }
            } else {
                key.expression = position < terms.count ? terms[position] : ""
                text = "(" + (key.expression ?? "") + ")"
                if !SQLName.same(collation, "BINARY") { key.collation = collation }
            }
            if let collation = key.collation { text += " COLLATE \(collation.uppercased())" }
            if key.isDescending { text += " DESC" }
            return (text, key)
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

/// Introspected tables, each with its explicit indexes, for ``SchemaIntrospector/introspect(_:cache:)``
/// to reuse across the introspections of one plan (the declared database, the replayed one, the
/// plan applied to it): their unchanged tables have the same SQL in each.
///
/// What the introspection of a table gives is a function of what its key holds: the table's
/// name, its SQL in `sqlite_master`, its STRICT and WITHOUT ROWID options, and the names and
/// SQL of its indexes (every pragma it reads, `table_xinfo`, `foreign_key_list`, `index_list`
/// and `index_xinfo`, reports what these statements declare). One thing comes from another
/// table: a foreign key that names no parent column refers to the parent's primary key, read
/// from the parent; an entry records the SQL of those parents and is reused only while they
/// still have that SQL (in `main`: the planner's databases have no temporary tables to shadow
/// it). SQL and names are compared byte for byte (never by Swift's `==`, which takes
/// canonically equivalent Unicode for equal). Virtual tables are not cached. An entry is right
/// for any database, so one cache serves the declared database and the replayed one alike.
final class IntrospectionCache {
    /// Everything the introspection of a table reads, from its database's `sqlite_master` and
    /// `pragma_table_list`.
    struct Key: Hashable {
        /// The table's name and SQL, then the name and SQL of each of its explicit indexes, by
        /// name (byte order).
        var texts: [String]
        var isStrict: Bool
        var isWithoutRowid: Bool

        static func == (a: Key, b: Key) -> Bool {
            a.isStrict == b.isStrict && a.isWithoutRowid == b.isWithoutRowid && a.texts.count == b.texts.count
                && zip(a.texts, b.texts).allSatisfy { same($0, $1) }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(isStrict)
            hasher.combine(isWithoutRowid)
            hasher.combine(texts.count)
            for text in texts {
                var text = text
                // The bytes at once (an array of bytes would be hashed byte by byte).
                text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(text.utf8.count)
            }
        }
    }

    /// Whether `a` and `b` are spelled alike byte for byte (both `nil`, or both text).
    static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.utf8.count == b.utf8.count && SQLName.identical(a, b)
    }

    /// A table introspected, with its explicit indexes, and the parents it read.
    struct Entry {
        var table: DatabaseTable
        var indexes: [DatabaseIndex]
        /// The tables (or views) whose primary key a foreign key of the table refers to
        /// without naming its columns, with their SQL (`nil`: no such table) when read.
        var parents: [(name: SQLName.Key, sql: String?)]
    }

    /// Above this many tables to introspect, their pragmas are read for every table at once
    /// (``SchemaIntrospector/PragmaRows``); else table by table.
    static let bulkThreshold = 64

    var entries: [Key: Entry] = [:]

    init() {}
}
