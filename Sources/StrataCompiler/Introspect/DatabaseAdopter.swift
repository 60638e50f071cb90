import Foundation
import Strata

/// `strata introspect`: reads an existing SQLite database and writes a schema file that
/// reproduces it (tables, columns, keys, constraints, indexes, views, triggers).
///
/// The structure comes from the migration engine's ``SchemaIntrospector``; the Swift types come
/// from each column's declared type *and* a census of the values it holds (`typeof()` counts,
/// date and UUID format checks), so that the generated code can read every row: a `DATETIME`
/// column holding `'yesterday'` becomes `text`, with a warning naming the value. Whatever the
/// schema language cannot express (generated columns, composite foreign keys …) is written
/// as a comment and reported as a warning, never dropped silently.
///
/// ```swift
/// let result = try DatabaseAdopter.introspect(databasePath: "chinook.sqlite", databaseName: "Chinook")
/// try result.yaml.write(toFile: "Chinook.schema.yml", atomically: true, encoding: .utf8)
/// result.warnings.forEach { print("warning: \($0)") }
/// ```
package enum DatabaseAdopter {
    /// The schema file text and the warnings.
    package struct Result: Hashable, Sendable {
        /// The `<Name>.schema.yml` text.
        package var yaml: String
        /// What the YAML could not express or had to change, one sentence each.
        package var warnings: [String]
    }

    /// Introspects the database file at `databasePath` without changing it.
    ///
    /// The file is opened read-only (`SQLITE_OPEN_READONLY`). When no `-wal` file is beside it,
    /// it is opened `immutable=1` as well, so SQLite creates no `-journal`, `-wal` or `-shm`
    /// file (a read-only open of a WAL database would otherwise create and leave `-wal` and
    /// `-shm`). When a `-wal` file exists it holds committed data, so the file is read through
    /// it with a plain read-only open.
    package static func introspect(databasePath: String, databaseName: String) throws -> Result {
        guard FileManager.default.fileExists(atPath: databasePath) else {
            throw StrataError(kind: .sqlite, resultCode: SQLiteResultCode.cantOpen, message: "no such file")
        }
        var configuration = Database.Configuration.readOnly
        configuration.maximumReaderCount = 1
        // Reading the structure compares no text: a collation the app registers is not needed.
        configuration.placeholderCollations = true
        // A `-journal` beside the file may be a hot journal to roll back first: then the plain
        // read-only open refuses rather than read a half-written state.
        configuration.immutable =
            !FileManager.default.fileExists(atPath: databasePath + "-wal") && !FileManager.default.fileExists(atPath: databasePath + "-journal")
        let db = try Database(path: databasePath, configuration: configuration)
        let source = URL(fileURLWithPath: databasePath).lastPathComponent
        return try db.read { conn in try introspect(conn, databaseName: databaseName, sourceName: source) }
    }

    /// Introspects the `main` database of `conn`.
    package static func introspect(_ conn: Connection, databaseName: String, sourceName: String) throws -> Result {
        let adopted = try adopt(conn, databaseName: databaseName, sourceName: sourceName)
        guard !adopted.tables.isEmpty else {
            let skipped = adopted.warnings.isEmpty ? "" : ": " + adopted.warnings.joined(separator: "; ")
            throw StrataError(kind: .misuse, message: "it has no table a schema file can describe\(skipped)")
        }
        return Result(yaml: SchemaYAMLWriter.render(adopted), warnings: adopted.warnings)
    }

    // MARK: - Structure to schema terms

    static func adopt(_ conn: Connection, databaseName: String, sourceName: String) throws -> AdoptedSchema {
        let structure = try SchemaIntrospector.introspect(conn)
        var result = AdoptedSchema(databaseName: databaseName, sourceName: sourceName)

        var kinds: [String: String] = [:]
        for row in try conn.fetch(sql: "SELECT name, type FROM pragma_table_list WHERE schema = 'main'") {
            kinds[SQLName.fold(try row.get(0, as: String.self))] = try row.get(1)
        }

        // Tables Strata can describe, with their record names.
        var names = RecordNames(databaseName: databaseName)
        var adoptable: [DatabaseTable] = []
        // Virtual tables and their shadow tables wait until `search:` has claimed its own.
        var virtualTables: [(table: DatabaseTable, kind: String)] = []
        for table in structure.tables {
            let kind = kinds[SQLName.fold(table.name)] ?? "table"
            if kind == "virtual" || kind == "shadow" || table.sql.uppercased().hasPrefix("CREATE VIRTUAL") {
                virtualTables.append((table, kind))
                continue
            }
            if table.primaryKey.isEmpty {
                result.skip(
                    "table \(table.name) has no primary key, which every Strata table needs", sql: table.sql,
                    fix: "rebuild the table with one (an INTEGER PRIMARY KEY keeps its rowids)")
                continue
            }
            adoptable.append(table)
        }
        let recordNames = adoptable.map { names.make(for: $0.name) }
        // A Core Data or SwiftData store: its dates are seconds since 2001-01-01.
        let tableNames = Set(structure.tables.map { SQLName.fold($0.name) })
        let isCoreData = tableNames.contains("z_primarykey") && tableNames.contains("z_metadata")
        result.nonStrict = adoptable.contains { !$0.isStrict }

        var tables: [AdoptedTable] = []
        for (table, recordName) in zip(adoptable, recordNames) {
            tables.append(
                try adoptTable(
                    table, recordName: recordName, conn: conn, nonStrictSchema: result.nonStrict, isCoreData: isCoreData, warnings: &result.warnings))
        }
        // Foreign keys need every table's names and types, the same type at both ends.
        unifyForeignKeyTypes(&tables, adoptable: adoptable)
        for index in tables.indices {
            resolveForeignKeys(of: &tables[index], table: adoptable[index], tables: tables, adoptable: adoptable, warnings: &result.warnings)
        }
        for index in tables.indices {
            adoptIndexes(of: &tables[index], structure: structure, table: adoptable[index], warnings: &result.warnings)
            // Only in a database Strata's migrations made: elsewhere a column that happens to be
            // named `expiresAt` must not start hiding rows.
            if kinds[SQLName.fold(Migrator.historyTable)] != nil { StrataTypes.recognizeExpiry(&tables[index]) }
        }
        // `search:`: an FTS5 table and triggers exactly as Strata's DDL makes them.
        // (The structure lists FTS5 tables named `<table>_fts`, and their triggers, apart.)
        var claimed = Set<String>()
        for index in tables.indices {
            if let (search, objects) = StrataTypes.recognizeSearch(
                of: tables[index], virtualTables: structure.searchTables, triggers: structure.searchTriggers)
            {
                tables[index].search = search
                claimed.formUnion(objects.map(SQLName.fold))
            }
        }
        for table in structure.searchTables where !claimed.contains(SQLName.fold(table.name)) {
            result.skip(
                "virtual table \(table.name), which is not what `search:` makes of a table", sql: table.sql,
                fix: "drop it (and its triggers) and declare `search:` on the table it indexes, or keep it in another database file")
        }
        for trigger in structure.searchTriggers where !claimed.contains(SQLName.fold(trigger.name)) {
            result.skip("trigger \(trigger.name) of a virtual table the schema does not describe", sql: trigger.sql, fix: "drop it with its virtual table")
        }
        for (table, kind) in virtualTables {
            result.skip(
                "\(kind == "shadow" ? "shadow table of a virtual table" : "virtual table") \(table.name)", sql: table.sql,
                fix: kind == "shadow" ? "it goes when its virtual table is dropped" : "keep it in another database file, or drop it")
        }
        result.tables = tables
        for table in adoptable {
            let names = table.columns.compactMap(\.collation)
                + structure.indexes(on: table.name).flatMap { $0.keys.compactMap(\.collation) }
            for name in names where !Collation.isBuiltIn(name) && !result.collations.contains(where: { SQLName.same($0, name) }) {
                result.collations.append(name)
                if !SchemaDecoder.isCollationName(name) {
                    result.warnings.append(
                        "table \(table.name) uses the collation \(name), whose name a schema file cannot declare (letters, digits and '_' only): register it under such a name and change the database's DDL, or adopt the table by hand")
                }
            }
        }

        for view in structure.views {
            result.views.append(SQLObject(name: view.name, sql: viewBody(view.sql) ?? view.sql))
        }
        for trigger in structure.triggers {
            result.triggers.append(SQLObject(name: trigger.name, sql: trigger.sql))
        }
        return result
    }

    static func adoptTable(
        _ table: DatabaseTable, recordName: String, conn: Connection, nonStrictSchema: Bool, isCoreData: Bool = false,
        warnings: inout [String]
    ) throws -> AdoptedTable {
        var adopted = AdoptedTable(recordName: recordName, sqlName: table.name)
        if nonStrictSchema && table.isStrict { adopted.strict = true }
        adopted.withoutRowid = table.isWithoutRowid
        // Tokenizing is the costly part: only tables that have a CHECK need it.
        let raw = table.allChecks.isEmpty ? RawConstraints() : RawConstraints(createTableSQL: table.sql)
        let census = try ValueCensus.take(conn, table: table)

        var propertyNames = Set<String>()
        for column in table.columns {
            if column.hidden != 0 {
                let what = column.hidden == 1 ? "hidden column" : "generated column"
                adopted.comments.append("\(what) \(column.name) \(column.definition)")
                warnings.append(
                    "table \(table.name): \(what) \(column.name) cannot be written in a schema file; it is kept as a comment"
                        + AdoptedSchema.refusal("make it an ordinary column (filled by the app or a trigger), or compute it in a view"))
                continue
            }
            let name = SwiftNames.unique(SwiftNames.propertyName(forColumn: column.name), among: &propertyNames)
            var adoptedColumn = AdoptedColumn(name: name, sqlName: column.name, type: "text")
            adoptedColumn.isOptional = !column.isNotNull
            var choice = TypeChoice.choose(declared: column.type, census: census[SQLName.fold(column.name)])
            if isCoreData, choice.keyword == "date" {
                // A Core Data store (Z_PRIMARYKEY and Z_METADATA) keeps dates as seconds since 2001-01-01.
                choice = TypeChoice(keyword: "date", dateFormat: .referenceDate)
            }
            adoptedColumn.type = choice.keyword
            adoptedColumn.dateFormat = choice.dateFormat?.rawValue
            adoptedColumn.declaredType = column.type
            adoptedColumn.census = census[SQLName.fold(column.name)] ?? ColumnCensus()
            if column.normalizedDefault != nil { adoptedColumn.defaultSQL = column.defaultSQL }
            if let warning = choice.warning ?? (isCoreData ? nil : TypeChoice.unsettledDateWarning(
                column: column.name, declared: column.type, choice: choice, census: census[SQLName.fold(column.name)]))
            {
                warnings.append("\(table.name).\(column.name): \(warning)")
                adoptedColumn.comments.append(warning)
            }
            let rendered = choice.dateFormat?.sqlType ?? ColumnType.sqlType(ofKeyword: choice.keyword)
            if column.type != rendered { adoptedColumn.sqlType = column.type }
            if let defaultSQL = column.defaultSQL, column.normalizedDefault != nil {
                adoptedColumn.defaultYAML = defaultYAML(defaultSQL, keyword: choice.keyword)
            }
            if let collation = column.collation {
                adoptedColumn.collation = Collation.isBuiltIn(collation) ? SQLName.fold(collation) : collation
            }
            var checks = raw.columnChecks[SQLName.fold(column.name)] ?? []
            // The CHECK Strata's DDL adds to a bool or an enum: the type, not a check.
            if let first = checks.first,
                let implied = StrataTypes.implied(byCheck: first, column: column.name, declared: column.type, keyword: adoptedColumn.type)
            {
                checks.removeFirst()
                adoptedColumn.type = implied.keyword
                adoptedColumn.values = implied.values
                if let sql = adoptedColumn.defaultSQL { adoptedColumn.defaultYAML = defaultYAML(sql, keyword: implied.keyword) }
            }
            // `default: now` is a date's.
            if adoptedColumn.type == "text", column.type.uppercased() == "TEXT", adoptedColumn.defaultSQL.map(StrataTypes.isNowDefault) == true {
                adoptedColumn.type = "date"
                adoptedColumn.defaultYAML = "now"
            }
            // `default: now` of a date stored as a number (`dateFormat:`), in its column type.
            if adoptedColumn.type == "int" || adoptedColumn.type == "double", let sql = adoptedColumn.defaultSQL,
                let format = StrataTypes.nowDefaultFormat(sql), column.type.uppercased() == format.sqlType
            {
                adoptedColumn.type = "date"
                adoptedColumn.dateFormat = format.rawValue
                adoptedColumn.defaultYAML = "now"
            }
            if let first = checks.first {
                adoptedColumn.check = first
                adopted.checks += checks.dropFirst()
            }
            adopted.columns.append(adoptedColumn)
        }
        adopted.checks += raw.tableChecks

        // Primary key.
        let keyColumns = table.primaryKey.compactMap { key in adopted.columns.firstIndex { SQLName.fold($0.sqlName) == SQLName.fold(key) } }
        if keyColumns.count == 1, let index = keyColumns.first {
            let isAutoincrement = table.isAutoincrement && adopted.columns[index].type == "int"
            adopted.columns[index].primaryKey = isAutoincrement ? "autoincrement" : "true"
        } else {
            adopted.compositeKey = keyColumns.map { adopted.columns[$0].name }
        }
        // SQLite lets a key of a rowid table that is not STRICT hold NULL unless it says NOT NULL
        // (but `INTEGER PRIMARY KEY`, the rowid): such a key is declared optional, as it is.
        let legacyNullable = keyColumns.count == 1 && !table.isStrict && !table.isWithoutRowid
            && keyColumns.allSatisfy { (adopted.columns[$0].sqlType ?? ColumnType.sqlType(ofKeyword: adopted.columns[$0].type)).uppercased() != "INTEGER" }
        for index in keyColumns where adopted.columns[index].isOptional {
            if legacyNullable {
                warnings.append(
                    "\(table.name).\(adopted.columns[index].sqlName): a primary key column that allows NULL (SQLite allows it in a table that is not STRICT); declared optional, as it is")
                continue
            }
            adopted.columns[index].isOptional = false
            warnings.append(
                "\(table.name).\(adopted.columns[index].sqlName): a primary key column that allows NULL; the schema declares it NOT NULL"
                    + ", as a key of several columns must be, so `migrate --baseline` refuses the database until the column is NOT NULL: rebuild the table with NOT NULL on it (after fixing rows where it is NULL), then introspect again")
        }

        // UNIQUE constraints.
        for unique in table.uniqueConstraints {
            if unique.count == 1, let index = adopted.columns.firstIndex(where: { SQLName.fold($0.sqlName) == SQLName.fold(unique[0]) }) {
                if table.primaryKey.map({ SQLName.fold($0) }) != [SQLName.fold(unique[0])] { adopted.columns[index].isUnique = true }
            } else {
                let names = unique.map { name in adopted.columns.first { SQLName.fold($0.sqlName) == SQLName.fold(name) }?.name }
                if names.allSatisfy({ $0 != nil }) {
                    adopted.uniques.append(names.compactMap { $0 })
                } else {
                    adopted.comments.append("UNIQUE (\(unique.joined(separator: ", ")))")
                    warnings.append(
                        "table \(table.name): the UNIQUE constraint on (\(unique.joined(separator: ", "))) names a column the schema cannot express; it is kept as a comment"
                            + AdoptedSchema.refusal("drop it, or make it a unique index on an expression"))
                }
            }
        }
        return adopted
    }

    static func adoptIndexes(of adopted: inout AdoptedTable, structure: DatabaseSchema, table: DatabaseTable, warnings: inout [String]) {
        for index in structure.indexes(on: table.name) {
            let whereClause = RawConstraints.indexWhere(index.sql)
            if index.keys.contains(where: { $0.column == nil }) {
                // A key on an expression: the key list exactly as the database has it.
                guard let keyList = SQLTokenizer.indexKeyList(index.sql) else {
                    adopted.comments.append(index.sql)
                    warnings.append(
                        "index \(index.name): its CREATE INDEX could not be read; it is kept as a comment"
                            + AdoptedSchema.refusal("drop it, or create it again on columns or an expression"))
                    continue
                }
                let defaultName = SchemaDecoder.expressionIndexName(table: Table(recordName: adopted.recordName, sqlName: table.name), expression: keyList)
                adopted.indexes.append(
                    AdoptedIndex(
                        name: index.name == defaultName ? nil : index.name, columns: [], expression: keyList,
                        isUnique: index.isUnique, whereClause: whereClause))
                continue
            }
            var keys: [String] = []
            var sqlNames: [String] = []
            for key in index.keys {
                guard let name = key.column, let column = adopted.columns.first(where: { SQLName.fold($0.sqlName) == SQLName.fold(name) }) else { break }
                var text = column.name
                if let collation = key.collation { text += " COLLATE " + Collation.sql(collation) }
                if key.isDescending { text += " DESC" }
                keys.append(text)
                sqlNames.append(column.sqlName)
            }
            guard keys.count == index.keys.count, !keys.isEmpty else {
                adopted.comments.append(index.sql)
                warnings.append(
                    "index \(index.name) indexes a column the schema cannot express; it is kept as a comment"
                        + AdoptedSchema.refusal("drop it, or create it again on columns or an expression the schema declares"))
                continue
            }
            let defaultName = ([table.name] + sqlNames).joined(separator: "_")
            adopted.indexes.append(
                AdoptedIndex(name: index.name == defaultName ? nil : index.name, columns: keys, isUnique: index.isUnique, whereClause: whereClause))
        }
    }

    /// The `SELECT` of `CREATE VIEW name AS SELECT …`, or nil when the view has a column list
    /// or anything else the short form would lose.
    static func viewBody(_ sql: String) -> String? {
        let tokens = SQLTokenizer.tokenize(sql)
        var index = 0
        while index < tokens.count, ["CREATE", "VIEW", "IF", "NOT", "EXISTS"].contains(tokens[index].text.uppercased()),
            tokens[index].kind == .word
        {
            index += 1
        }
        index += 1
        guard index < tokens.count, tokens[index].isKeyword("AS"), index + 1 < tokens.count,
            tokens[0].isKeyword("CREATE"), tokens.count > 1, tokens[1].isKeyword("VIEW")
        else { return nil }
        return String(sql[tokens[index + 1].range.lowerBound...])
    }

    /// The YAML for a column default, typed when it is a plain literal of the column's type,
    /// `{ sql: … }` otherwise (both render to the same structure).
    static func defaultYAML(_ sql: String, keyword: String) -> String {
        let tokens = SQLTokenizer.tokenize(sql)
        if tokens.count == 1, let token = tokens.first {
            switch (keyword, token.kind) {
            case ("int", .word):
                if let value = Int(token.text), String(value) == token.text { return token.text }
            case ("bool", .word):
                if token.text == "0" { return "false" }
                if token.text == "1" { return "true" }
            case ("double", .word):
                if let value = Double(token.text), "\(value)" == token.text { return token.text }
            case ("text", .string), ("enum", .string):
                let text = SQLTokenizer.unquotedString(token.text)
                return SchemaYAMLWriter.scalar(text, forceQuotes: true)
            default:
                break
            }
        }
        if tokens.count == 2, tokens[0].text == "-", keyword == "int", let value = Int("-" + tokens[1].text) {
            return String(value)
        }
        // `DEFAULT (expression)` reads back with its parentheses; `{ sql: }` adds them again.
        var expression = sql
        if tokens.count >= 2, tokens.first?.text == "(", SQLTokenizer.matchingClose(in: tokens, from: 0) == tokens.count - 1,
            let open = tokens.first, let close = tokens.last
        {
            expression = String(sql[open.range.upperBound..<close.range.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        return "{ sql: \(SchemaYAMLWriter.scalar(expression, forceQuotes: true)) }"
    }
}

extension DatabaseAdopter {
    /// The namespace for a schema written to `path`: its file stem made a type name
    /// (`chinook.schema.yml` → `Chinook`), with `Schema` appended when the generated code
    /// would not compile with it.
    package static func defaultDatabaseName(forSchemaPath path: String) -> String {
        var name = SwiftNames.recordName(forTable: SchemaDecoder.fileStem(path))
        if !SwiftNames.isValidTypeName(name) || SwiftNames.typesUsedByGeneratedCode.contains(name) { name += "Schema" }
        return name
    }
}
