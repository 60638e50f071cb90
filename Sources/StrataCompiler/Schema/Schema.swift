import Strata

/// The model of one `<Name>.schema.yml` file, as the front end decodes it and the checks
/// complete it (foreign keys resolved); a checked one is part of a ``CompiledSchema``, what
/// every later stage (SQL rendering, Swift rendering, introspection and diff) works on.
package struct Schema: Hashable, Sendable {
    /// Options of the `options:` section.
    package struct Options: Hashable, Sendable {
        /// Tables are created `STRICT`.
        package var strict: Bool
        /// `PRAGMA foreign_keys = ON` on every connection.
        package var foreignKeys: Bool
        /// `dialects:`: the SQL databases code and migrations are generated for (always SQLite;
        /// `[sqlite, postgres]` adds the PostgreSQL DDL, migrations and async DAOs).
        package var dialects: [Dialect]
        /// `collations:`: the names of the collations the app registers itself
        /// (`Database.Configuration(collations:)`), which columns may then name in `collate:`
        /// beside the built-in `binary`, `nocase` and `rtrim`.
        package var collations: [String] = []

        /// Creates options; the defaults are the schema language's defaults.
        package init(strict: Bool = true, foreignKeys: Bool = true, dialects: [Dialect] = [.sqlite], collations: [String] = []) {
            self.strict = strict
            self.foreignKeys = foreignKeys
            self.dialects = dialects
            self.collations = collations
        }
    }

    /// Whether `options: { dialects: }` includes PostgreSQL.
    package var targetsPostgres: Bool { options.dialects.contains(.postgres) }

    /// The Swift namespace of the generated code (`database:`, or the file stem).
    package var name: String
    /// The schema file this model came from.
    package var sourcePath: String
    /// The `options:` section.
    package var options: Options
    /// The tables, in declaration order. Setting them rebuilds the name lookups: change them
    /// in one assignment (a local copy changed in a loop, then assigned), not element by
    /// element in a loop over many tables.
    package var tables: [Table] {
        didSet { lookups = Lookups(tables) }
    }
    /// Top-level `views:`, in declaration order: created after the tables, kept by migrations.
    package var views: [SQLObject] = []
    /// Top-level `triggers:`, in declaration order: created after the views.
    package var triggers: [SQLObject] = []
    /// The top-level `queries:`, in declaration order (typed by the checks: ``CompiledSchema/queries``).
    package var queries: [SQLQuery] = []

    /// Creates a schema.
    package init(name: String, sourcePath: String, options: Options = Options(), tables: [Table] = []) {
        self.name = name
        self.sourcePath = sourcePath
        self.options = options
        self.tables = tables
        lookups = Lookups(tables)
    }

    /// The name lookups of ``tables``, built whenever they are set: derived from them, so
    /// equal tables have equal lookups (a plain value, no cache shared between copies).
    private var lookups: Lookups

    private struct Lookups: Hashable, Sendable {
        /// The positions of the tables by record name and by SQL name (the first of each).
        var byRecordName: [String: Int]
        var bySQLName: [String: Int]
        /// The positions of the tables by SQL name lower-cased (`String.lowercased()`, the
        /// first of each), for the query typer's name resolution.
        var byLowercasedSQLName: [String: Int]
        /// For each table's record name, the positions of the tables with a foreign key to it.
        var referencing: [String: [Int]] = [:]

        init(_ tables: [Table]) {
            CompileWork.countLookupTable()
            byRecordName = firstPositions(of: tables, key: \.recordName)
            bySQLName = firstPositions(of: tables, key: \.sqlName)
            byLowercasedSQLName = firstPositions(of: tables) { $0.sqlName.lowercased() }
            for (position, child) in tables.enumerated() {
                for column in child.columns {
                    guard let reference = column.references, let parent = self.position(named: reference.table).map({ tables[$0] }) else { continue }
                    if referencing[parent.recordName]?.last != position { referencing[parent.recordName, default: []].append(position) }
                }
            }
        }

        /// The position of the table whose record name or SQL name is `name` (a record name first).
        func position(named name: String) -> Int? {
            byRecordName[name] ?? bySQLName[name]
        }
    }

    /// The table whose record name or SQL name is `name` (a record name first).
    package func table(named name: String) -> Table? {
        lookups.position(named: name).map { tables[$0] }
    }

    /// The first table whose SQL name lower-cased (`String.lowercased()`) is `name` lower-cased:
    /// `tables.first { $0.sqlName.lowercased() == name.lowercased() }` without the scan, which
    /// made the query typer quadratic in the number of tables.
    package func table(sqlNameLowercased name: String) -> Table? {
        lookups.byLowercasedSQLName[name.lowercased()].map { tables[$0] }
    }

    /// The positions in ``tables`` of the tables with a column that references `table` (the
    /// reference resolved as ``table(named:)`` resolves it; `table` itself when it refers to
    /// itself), in declaration order.
    func positionsOfTables(referencing table: Table) -> [Int] {
        lookups.referencing[table.recordName] ?? []
    }
}

/// An SQL database the schema is compiled for (`options: { dialects: [sqlite, postgres] }`).
package enum Dialect: String, Hashable, Sendable, CaseIterable {
    /// SQLite: always on; its migrations are the reference the others are planned from.
    case sqlite
    /// PostgreSQL: DDL, `<Name>.migrations/postgres/` and `<Record>PostgresDAO`s.
    case postgres
}

/// One table: a record type in Swift, a table in SQL.
package struct Table: Hashable, Sendable {
    /// The Swift record type name (the key under `tables:`).
    package var recordName: String
    /// The SQL table name (`table:`, or the record name).
    package var sqlName: String
    /// Documentation carried into the generated code.
    package var doc: String?
    /// Columns in declaration order.
    package var columns: [Column]
    /// The primary key: column names (Swift names), in key order.
    package var primaryKey: [String]
    /// Indexes in declaration order.
    package var indexes: [Index]
    /// Named queries in declaration order.
    package var queries: [Query]
    /// The previous SQL name of the table: a migration hint.
    package var renamedFrom: String?
    /// Where the table is declared.
    package var location: SourceLocation?
    /// `strict:` on the table: overrides `options: { strict: }` for this table; nil follows it.
    package var strict: Bool?
    /// `withoutRowid: true`: the table is created `WITHOUT ROWID`.
    package var isWithoutRowid: Bool = false
    /// `checks:`: CHECK constraints of the table (not of one column), as SQL expressions.
    package var checks: [String] = []
    /// `unique:`: UNIQUE constraints over several columns, each a list of Swift column names.
    package var uniqueConstraints: [[String]] = []
    /// `search:`: the full-text index of the table (an external-content FTS5 table), if any.
    package var search: FullTextSearch?
    /// `expires: true`: the table has an `expiresAt` column (see ``Expiry``) and reads leave out
    /// expired rows.
    package var expires: Bool = false

    /// Creates a table.
    package init(
        recordName: String, sqlName: String? = nil, doc: String? = nil, columns: [Column] = [],
        primaryKey: [String] = [], indexes: [Index] = [], queries: [Query] = [],
        renamedFrom: String? = nil, location: SourceLocation? = nil
    ) {
        self.recordName = recordName
        self.sqlName = sqlName ?? recordName
        self.doc = doc
        self.columns = columns
        self.primaryKey = primaryKey
        self.indexes = indexes
        self.queries = queries
        self.renamedFrom = renamedFrom
        self.location = location
    }

    /// The column whose Swift name or SQL name is `name`.
    package func column(named name: String) -> Column? {
        columns.first { $0.name == name } ?? columns.first { $0.sqlName == name }
    }

    /// The columns of the primary key, in key order.
    package var primaryKeyColumns: [Column] { primaryKey.compactMap { column(named: $0) } }

    /// The column SQLite assigns (`primaryKey: autoincrement`), if any.
    package var autoincrementColumn: Column? { columns.first { $0.primaryKey == .autoincrement } }

    /// Whether the table is created `STRICT`: its own `strict:`, else the schema's option.
    package func isStrict(in schema: Schema) -> Bool { strict ?? schema.options.strict }
}

/// One column of a table.
package struct Column: Hashable, Sendable {
    /// How a column takes part in the primary key when marked on the column itself.
    package enum PrimaryKeyKind: String, Hashable, Sendable {
        /// `primaryKey: true`.
        case plain
        /// `primaryKey: autoincrement`: an `INTEGER PRIMARY KEY AUTOINCREMENT` SQLite assigns.
        case autoincrement
    }

    /// The Swift property name (the key under `columns:`).
    package var name: String
    /// The SQL column name (`column:`, or the key).
    package var sqlName: String
    /// The declared type.
    package var type: ColumnType
    /// Nullable (`?` or `optional: true`).
    package var isOptional: Bool
    /// Set when the column itself is marked `primaryKey`.
    package var primaryKey: PrimaryKeyKind?
    /// `unique: true`.
    package var isUnique: Bool
    /// The default value, if any.
    package var defaultValue: DefaultValue?
    /// An SQL `CHECK` expression.
    package var check: String?
    /// A foreign key, if any.
    package var references: ForeignKey?
    /// The previous SQL name of the column: a migration hint.
    package var renamedFrom: String?
    /// Documentation carried into the generated code.
    package var doc: String?
    /// Where the column is declared.
    package var location: SourceLocation?
    /// `sqlType:`: the declared SQL type to use in DDL instead of the type's own (an adopted
    /// database's `VARCHAR(255)`, `DATETIME` …). With it Strata adds no CHECK of its own for
    /// `bool` columns: the column is declared exactly as the database has it.
    package var sqlType: String?
    /// `collate:`: the collation SQLite compares, sorts and indexes the column's text with
    /// (`nocase`, `rtrim`, or a collation the app registers); nil is SQLite's default, `BINARY`.
    /// Rendered `COLLATE NOCASE` in DDL and kept by every migration, table rebuilds included.
    package var collation: String?

    /// `dateFormat:` of a `date` column when it is not the default text (`iso8601`): how the
    /// column stores its instants. Nil for every other column and for the default.
    package var dateFormat: DateStorage?

    /// The SQLite type the column's values take: the date format's for a date column with
    /// `dateFormat:`, else the type's own.
    package var storageSQLType: String { codec.sqliteType }

    /// Creates a column.
    package init(
        name: String, sqlName: String? = nil, type: ColumnType, isOptional: Bool = false,
        primaryKey: PrimaryKeyKind? = nil, isUnique: Bool = false, defaultValue: DefaultValue? = nil,
        check: String? = nil, references: ForeignKey? = nil, renamedFrom: String? = nil,
        doc: String? = nil, location: SourceLocation? = nil
    ) {
        self.name = name
        self.sqlName = sqlName ?? name
        self.type = type
        self.isOptional = isOptional
        self.primaryKey = primaryKey
        self.isUnique = isUnique
        self.defaultValue = defaultValue
        self.check = check
        self.references = references
        self.renamedFrom = renamedFrom
        self.doc = doc
        self.location = location
    }
}

/// The types of the schema language.
package enum ColumnType: Hashable, Sendable {
    /// `int`: `Int`, INTEGER.
    case int
    /// `double`: `Double`, REAL.
    case double
    /// `bool`: `Bool`, INTEGER 0/1.
    case bool
    /// `text`: `String`, TEXT.
    case text
    /// `blob`: `Data`, BLOB.
    case blob
    /// `date`: `Date`, TEXT `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
    case date
    /// `uuid`: `UUID`, TEXT in canonical upper-case form.
    case uuid
    /// `enum`: a generated `String`-backed enum named `swiftType`, TEXT with a CHECK of `values`.
    case enumeration(swiftType: String, values: [String])
    /// `json`: any `Codable & Sendable` Swift type, TEXT holding JSON.
    case json(swiftType: String)

    /// The keywords of the built-in types, for diagnostics.
    package static let keywords = ["int", "double", "bool", "text", "blob", "date", "uuid", "enum", "json"]
}

/// A view or a trigger of the top-level `views:` / `triggers:`, kept as SQL.
package struct SQLObject: Hashable, Sendable {
    /// The name (the key in the schema file).
    package var name: String
    /// A view's `SELECT` (or a whole `CREATE VIEW`); a trigger's `CREATE TRIGGER` statement.
    package var sql: String
    /// Where it is declared.
    package var location: SourceLocation?

    /// Creates a view or trigger.
    package init(name: String, sql: String, location: SourceLocation? = nil) {
        self.name = name
        self.sql = sql
        self.location = location
    }
}

/// A column's default value.
package enum DefaultValue: Hashable, Sendable {
    /// An integer literal (also used for `int` columns).
    case integer(Int)
    /// A floating-point literal.
    case real(Double)
    /// A string literal (text, enum, uuid, date in the text format).
    case text(String)
    /// A boolean literal.
    case bool(Bool)
    /// `now`, for dates: the current time when the row is inserted.
    case now
    /// `{ sql: "expression" }`: an SQL expression.
    case sql(String)
    /// A list or map literal for `json` columns, rendered as compact JSON text.
    case json(String)
}

/// A foreign key from one column to a column of another (or the same) table.
package struct ForeignKey: Hashable, Sendable {
    /// What SQLite does to the child row when the parent changes.
    package enum Action: String, Hashable, Sendable, CaseIterable {
        case cascade
        case setNull
        case setDefault
        case restrict
        case noAction

        /// The SQL spelling (`ON DELETE CASCADE` …).
        package var sql: String {
            switch self {
            case .cascade: "CASCADE"
            case .setNull: "SET NULL"
            case .setDefault: "SET DEFAULT"
            case .restrict: "RESTRICT"
            case .noAction: "NO ACTION"
            }
        }
    }

    /// The referenced table's record name.
    package var table: String
    /// The referenced column's Swift name.
    package var column: String
    /// `onDelete`.
    package var onDelete: Action?
    /// `onUpdate`.
    package var onUpdate: Action?

    /// Creates a foreign key.
    package init(table: String, column: String, onDelete: Action? = nil, onUpdate: Action? = nil) {
        self.table = table
        self.column = column
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }
}

/// An index of a table.
package struct Index: Hashable, Sendable {
    /// How one key column of an index is ordered: `"name COLLATE NOCASE"`, `"due DESC"`.
    package struct KeyOptions: Hashable, Sendable {
        /// `COLLATE x` on the key; nil uses the column's own collation.
        package var collation: String?
        /// `DESC`.
        package var isDescending: Bool

        /// Creates key options; the defaults are a plain key.
        package init(collation: String? = nil, isDescending: Bool = false) {
            self.collation = collation
            self.isDescending = isDescending
        }
    }

    /// The SQL name: given, or `<table>_<col1>_<col2>…` (`_unique` is not appended).
    package var name: String
    /// Column names (Swift names), in index order; empty for an index on an ``expression``.
    package var columns: [String]
    /// The collation and order of each of ``columns`` (same count), or empty when every key is
    /// plain.
    package var keyOptions: [KeyOptions] = []
    /// `expression:`: the SQL expression the index is on (`lower(email)`), instead of columns.
    package var expression: String?
    /// `unique: true`.
    package var isUnique: Bool
    /// A partial index's `WHERE` condition.
    package var whereClause: String?
    /// Where the index is declared.
    package var location: SourceLocation?

    /// Creates an index.
    package init(name: String, columns: [String], isUnique: Bool = false, whereClause: String? = nil, location: SourceLocation? = nil) {
        self.name = name
        self.columns = columns
        self.isUnique = isUnique
        self.whereClause = whereClause
        self.location = location
    }

    /// The options of the key at `position` of ``columns``.
    package func keyOptions(at position: Int) -> KeyOptions {
        position < keyOptions.count ? keyOptions[position] : KeyOptions()
    }
}

/// A named query: one typed DAO method.
package struct Query: Hashable, Sendable {
    /// What the generated method returns.
    package enum Returns: String, Hashable, Sendable, CaseIterable {
        /// `[Record]`.
        case many
        /// `Record?`.
        case one
        /// `Int`.
        case count
        /// `Bool`.
        case exists
    }

    /// `limit:`: a number or a `:name` parameter.
    package enum Limit: Hashable, Sendable {
        case fixed(Int)
        case parameter(String)
    }

    /// The method name (the key under `queries:`).
    package var name: String
    /// The SQL condition, with `:name` parameters.
    package var whereClause: String?
    /// The SQL ordering.
    package var orderBy: String?
    /// The row limit.
    package var limit: Limit?
    /// What the method returns.
    package var returns: Returns
    /// The parameters, in order of first appearance in `where`, then `limit`, typed by the
    /// query analysis (``TableQueryParameters``).
    package var parameters: [TypedQuery.Parameter]
    /// Documentation carried into the generated code (`doc:`).
    package var doc: String?
    /// Where the query is declared.
    package var location: SourceLocation?

    /// Creates a query.
    package init(
        name: String, whereClause: String? = nil, orderBy: String? = nil, limit: Limit? = nil,
        returns: Returns = .many, parameters: [TypedQuery.Parameter] = [], doc: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.doc = doc
        self.name = name
        self.whereClause = whereClause
        self.orderBy = orderBy
        self.limit = limit
        self.returns = returns
        self.parameters = parameters
        self.location = location
    }
}
