/// The structure of a SQLite database as SQLite itself reports it: what introspection reads
/// and what the schema diff compares.
///
/// Both sides of a comparison are normalized into this model the same way (the declared schema
/// by executing its DDL in an in-memory database and introspecting that), so a difference is a
/// difference of structure, never of spelling, quoting or column order of constraints.
/// Names are compared as SQLite compares them (``SQLName``: ASCII letters case-insensitively,
/// everything else exactly).
package struct DatabaseSchema: Hashable, Sendable {
    /// Tables in `sqlite_master` order (excluding `sqlite_*` and `strata_migrations`).
    /// Setting them (or ``indexes``) rebuilds the name lookups: assign whole arrays.
    package var tables: [DatabaseTable] {
        didSet { lookup = Names(tables: tables, indexes: indexes) }
    }
    /// Explicit indexes (`CREATE INDEX`); the automatic ones of UNIQUE and PRIMARY KEY
    /// constraints are part of their table instead.
    package var indexes: [DatabaseIndex] {
        didSet { lookup = Names(tables: tables, indexes: indexes) }
    }
    /// Triggers, with their SQL.
    package var triggers: [DatabaseTrigger]
    /// Views, with their SQL.
    package var views: [DatabaseView]
    /// Full-text search tables Strata owns (`search:`): FTS5 virtual tables named `<table>_fts`;
    /// their shadow tables are not listed anywhere.
    package var searchTables: [DatabaseView] = []
    /// The triggers that keep the search tables in sync (`<table>_fts_insert`, `_delete`,
    /// `_update`); they are not in ``triggers``.
    package var searchTriggers: [DatabaseTrigger] = []

    /// Creates a database schema.
    package init(tables: [DatabaseTable] = [], indexes: [DatabaseIndex] = [], triggers: [DatabaseTrigger] = [], views: [DatabaseView] = []) {
        self.tables = tables
        self.indexes = indexes
        self.triggers = triggers
        self.views = views
        lookup = Names(tables: tables, indexes: indexes)
    }

    /// Where each table and index is, by name and (for indexes) by table, so comparing two
    /// structures is linear in their size: built whenever ``tables`` or ``indexes`` are set,
    /// a plain value derived from them (equal structures have equal lookups).
    private var lookup: Names

    private struct Names: Hashable, Sendable {
        var tables: [SQLName.Key: Int]
        var indexes: [SQLName.Key: Int]
        var indexesByTable: [SQLName.Key: [Int]] = [:]

        init(tables: [DatabaseTable], indexes: [DatabaseIndex]) {
            CompileWork.countLookupTable()
            self.tables = firstPositions(of: tables) { SQLName.key($0.name) }
            self.indexes = firstPositions(of: indexes) { SQLName.key($0.name) }
            for (position, index) in indexes.enumerated() { indexesByTable[SQLName.key(index.table), default: []].append(position) }
        }
    }

    /// The table named `name` (as SQLite compares names).
    package func table(named name: String) -> DatabaseTable? {
        lookup.tables[SQLName.key(name)].map { tables[$0] }
    }

    /// The explicit indexes of the table named `table`.
    package func indexes(on table: String) -> [DatabaseIndex] {
        (lookup.indexesByTable[SQLName.key(table)] ?? []).map { indexes[$0] }
    }

    /// The index named `name` (as SQLite compares names).
    package func index(named name: String) -> DatabaseIndex? {
        lookup.indexes[SQLName.key(name)].map { indexes[$0] }
    }
}

/// One table as SQLite reports it.
package struct DatabaseTable: Hashable, Sendable {
    /// The SQL name.
    package var name: String
    /// Columns in table order.
    package var columns: [DatabaseColumn] = []
    /// Primary key columns, in key order (empty for a rowid table without a declared key).
    package var primaryKey: [String] = []
    /// `INTEGER PRIMARY KEY AUTOINCREMENT`.
    package var isAutoincrement: Bool = false
    /// `STRICT`.
    package var isStrict: Bool = false
    /// `WITHOUT ROWID`.
    package var isWithoutRowid: Bool = false
    /// Foreign keys, in SQLite's order.
    package var foreignKeys: [DatabaseForeignKey] = []
    /// UNIQUE constraints (column or table constraints), each as its column list.
    package var uniqueConstraints: [[String]] = []
    /// Normalized CHECK expressions of table constraints.
    package var tableChecks: [String] = []
    /// The `CREATE TABLE` statement as stored in `sqlite_master`.
    package var sql: String = ""

    /// The column named `name` (as SQLite compares names).
    package func column(named name: String) -> DatabaseColumn? {
        columns.first { SQLName.same($0.name, name) }
    }

    /// Every CHECK expression, of columns and of the table, normalized.
    package var allChecks: Set<String> { Set(tableChecks + columns.flatMap(\.checks)) }

    /// The UNIQUE constraints as lists of comparable column names.
    var uniqueKeys: Set<[SQLName.Key]> { Set(uniqueConstraints.map { $0.map(SQLName.key) }) }

    /// The foreign keys in comparable form.
    var foreignKeyKeys: Set<DatabaseForeignKey> { Set(foreignKeys.map(\.normalized)) }
}

/// One column as SQLite reports it (`PRAGMA table_xinfo`).
package struct DatabaseColumn: Hashable, Sendable {
    /// The SQL name.
    package var name: String
    /// The declared type, upper-cased (`INTEGER`, `TEXT` …).
    package var type: String
    /// `NOT NULL`.
    package var isNotNull: Bool
    /// The default expression as written in the DDL, or nil.
    package var defaultSQL: String?
    /// 1-based position in the primary key, 0 when not part of it.
    package var primaryKeyPosition: Int
    /// `table_xinfo.hidden`: 0 for an ordinary column, 2/3 for generated ones.
    package var hidden: Int
    /// Normalized CHECK expressions written on this column.
    package var checks: [String]
    /// The column's definition in the `CREATE TABLE` text, after its name (for `ADD COLUMN`).
    package var definition: String
    /// The column's collation as the DDL names it (`COLLATE nocase`); nil for the default,
    /// `BINARY`, whether or not it is written.
    package var collation: String?

    /// Creates a column.
    package init(
        name: String, type: String, isNotNull: Bool = false, defaultSQL: String? = nil, primaryKeyPosition: Int = 0,
        hidden: Int = 0, checks: [String] = [], definition: String = "", collation: String? = nil
    ) {
        self.collation = collation.flatMap { SQLName.same($0, "BINARY") ? nil : $0 }
        self.name = name
        self.type = type
        self.isNotNull = isNotNull
        self.defaultSQL = defaultSQL
        self.primaryKeyPosition = primaryKeyPosition
        self.hidden = hidden
        self.checks = checks
        self.definition = definition
    }

    /// The collation in comparable form (collation names are case-insensitive).
    var collationKey: String? { collation.map(SQLName.fold) }

    /// The default in comparable form.
    var normalizedDefault: String? {
        guard let defaultSQL else { return nil }
        let normalized = SQLTokenizer.normalize(defaultSQL)
        return normalized == "null" ? nil : normalized
    }

    /// A default that `ALTER TABLE ADD COLUMN` cannot take on a table with rows: anything but
    /// a literal (an expression, `CURRENT_TIME` / `CURRENT_DATE` / `CURRENT_TIMESTAMP`).
    var hasNonConstantDefault: Bool {
        guard let defaultSQL else { return false }
        var tokens = SQLTokenizer.tokenize(defaultSQL)[...]
        while tokens.count >= 2, tokens.first?.text == "(", tokens.last?.text == ")" {
            tokens = tokens.dropFirst().dropLast()
        }
        if let sign = tokens.first, sign.text == "-" || sign.text == "+" { tokens = tokens.dropFirst() }
        guard tokens.count == 1, let token = tokens.first else {
            // X'00' is a blob literal: a word followed by a string.
            return !(tokens.count == 2 && tokens.first?.text.uppercased() == "X" && tokens.last?.kind == .string)
        }
        switch token.kind {
        case .string, .number, .blob: return false
        case .word:
            let word = token.text.uppercased()
            if ["NULL", "TRUE", "FALSE"].contains(word) { return false }
            return !(word.first?.isNumber ?? false)
        case .identifier, .symbol, .parameter, .otherParameter: return true
        }
    }
}

/// One foreign key (`PRAGMA foreign_key_list`).
package struct DatabaseForeignKey: Hashable, Sendable {
    /// The child columns.
    package var columns: [String]
    /// The parent table.
    package var parentTable: String
    /// The parent columns.
    package var parentColumns: [String]
    /// `ON DELETE` action as SQLite spells it (`NO ACTION`, `CASCADE` …).
    package var onDelete: String
    /// `ON UPDATE` action.
    package var onUpdate: String

    /// Creates a foreign key.
    package init(columns: [String], parentTable: String, parentColumns: [String], onDelete: String = "NO ACTION", onUpdate: String = "NO ACTION") {
        self.columns = columns
        self.parentTable = parentTable
        self.parentColumns = parentColumns
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }

    var normalized: DatabaseForeignKey {
        DatabaseForeignKey(
            columns: columns.map(SQLName.fold), parentTable: SQLName.fold(parentTable),
            parentColumns: parentColumns.map(SQLName.fold), onDelete: onDelete.uppercased(), onUpdate: onUpdate.uppercased())
    }

    /// `(author_id) → author(id) ON DELETE CASCADE`.
    package var summary: String {
        var text = "(\(columns.joined(separator: ", "))) → \(parentTable)(\(parentColumns.joined(separator: ", ")))"
        if onDelete != "NO ACTION" { text += " ON DELETE \(onDelete)" }
        if onUpdate != "NO ACTION" { text += " ON UPDATE \(onUpdate)" }
        return text
    }
}

/// One explicit index (`PRAGMA index_list` / `index_xinfo`, WHERE from `sqlite_master`).
package struct DatabaseIndex: Hashable, Sendable {
    /// The index name.
    package var name: String
    /// The indexed table.
    package var table: String
    /// Key terms: a column's name, with ` COLLATE x` when the key's collation is not the
    /// column's own and ` DESC` when descending (`name COLLATE NOCASE DESC`); an expression as
    /// `(expression)` as written, with its ` COLLATE x` when not `BINARY` and ` DESC`. A key on a column that already collates NOCASE is the
    /// plain column name, as `CREATE INDEX … (name)` declares it.
    package var columns: [String]
    /// `UNIQUE`.
    package var isUnique: Bool
    /// A partial index's normalized condition.
    package var whereClause: String?
    /// The `CREATE INDEX` statement.
    package var sql: String

    /// Creates an index.
    package init(name: String, table: String, columns: [String], isUnique: Bool = false, whereClause: String? = nil, sql: String = "") {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
        self.whereClause = whereClause
        self.sql = sql
    }

    /// Whether two indexes index the same thing the same way (names aside).
    func isStructurallyEqual(to other: DatabaseIndex) -> Bool {
        SQLName.same(table, other.table) && comparableKeys == other.comparableKeys
            && isUnique == other.isUnique && whereClause == other.whereClause
    }

    /// The keys in comparable form: a column key's text ASCII case folded; an expression
    /// normalized (``SQLTokenizer/normalize(_:)``: its string literals exact).
    var comparableKeys: [String] {
        guard keys.count == columns.count else { return columns.map(SQLName.fold) }
        return keys.map { key in
            var text = key.expression.map { "(" + SQLTokenizer.normalize($0) + ")" } ?? SQLName.fold(key.column ?? "")
            if let collation = key.collation { text += " collate " + SQLName.fold(collation) }
            if key.isDescending { text += " desc" }
            return text
        }
    }

    /// One key of an index, as ``columns`` writes it in text.
    package struct Key: Hashable, Sendable {
        /// The indexed column; nil for an expression.
        package var column: String?
        /// The indexed expression as written in the `CREATE INDEX` (not normalized); nil for a column.
        package var expression: String?
        /// The key's collation when it is not the column's own (for an expression: when it is
        /// not `BINARY`).
        package var collation: String?
        /// `DESC`.
        package var isDescending: Bool

        /// Creates a key.
        package init(column: String? = nil, expression: String? = nil, collation: String? = nil, isDescending: Bool = false) {
            self.column = column
            self.expression = expression
            self.collation = collation
            self.isDescending = isDescending
        }
    }

    /// The keys, one for each of ``columns`` (empty when made without introspection).
    package var keys: [Key] = []

    /// `book (title) WHERE price IS NOT NULL`.
    package var summary: String {
        var text = "\(isUnique ? "unique " : "")on \(table) (\(columns.joined(separator: ", ")))"
        if let whereClause { text += " where \(whereClause)" }
        return text
    }
}

/// A trigger, kept as SQL.
package struct DatabaseTrigger: Hashable, Sendable {
    /// The trigger name.
    package var name: String
    /// The table it fires on.
    package var table: String
    /// Its `CREATE TRIGGER` statement.
    package var sql: String
}

/// A view, kept as SQL.
package struct DatabaseView: Hashable, Sendable {
    /// The view name.
    package var name: String
    /// Its `CREATE VIEW` statement.
    package var sql: String
}
