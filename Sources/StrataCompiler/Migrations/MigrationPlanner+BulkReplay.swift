import Strata

/// The database the existing migrations build, for the planner, in time linear in the number
/// of tables they create.
///
/// The runtime's ``Migrator`` executes every `CREATE TABLE` and `CREATE INDEX`; SQLite 3.40
/// re-reads the whole `sqlite_master` and walks every table's foreign keys for each one, so
/// replaying a first migration of n tables costs n² (25 s of CPU at 10,000 tables). This replay
/// does what validation does (``SQLiteChecker/load(_:recording:)``): each `CREATE TABLE`, and
/// each `CREATE INDEX` on a table created so (a first migration creates every table, then
/// every index), is executed alone in a scratch database, the index with its table (SQLite
/// checks them there as it would in the full one, at a constant cost), and what SQLite stored
/// for them is entered into the replayed database's `sqlite_master` at once
/// (``SQLiteChecker/enter(_:into:indexCounts:)``), in the order the migrations create them.
/// Every other statement is executed, in order, after the tables created before it are
/// entered. SQLite's own entries (`sqlite_sequence`, the automatic indexes of UNIQUE and
/// PRIMARY KEY constraints) may sit elsewhere in `sqlite_master` than the Migrator's replay
/// puts them; introspection does not read them.
///
/// An entered table has no b-tree: statements prepare against it and introspection describes
/// it, but reading or writing its rows fails (and its indexes sit on made-up root pages).
/// So before a statement that may touch rows or b-trees (anything but `CREATE`/`DROP` of a
/// view or trigger) runs, every entered table it mentions — by its name or by one of its
/// indexes' names — is *materialized*: its entries are removed and its SQL, as
/// `sqlite_master` holds it now, executed, and the entries are given their places
/// (`rowid`) back, so the database is the one executing every statement gives. The
/// statements that need it are few (an `ALTER TABLE`, a rebuild, a `DROP INDEX` of the
/// tables a migration changes), each costs one `CREATE` of SQLite's.
///
/// What this replay cannot vouch for, it refuses (``Refused``), and the planner replays with
/// the ``Migrator`` instead: statements that act on the whole database or on the connection
/// (`PRAGMA`, `VACUUM`, `REINDEX`, `ANALYZE`, `ATTACH`, transactions), a statement that
/// writes rows (the replayed database is empty, so the runtime's foreign-key check after each
/// migration has nothing to find until one does), a statement that reads or writes rows while
/// a trigger exists (a trigger can reach tables its statement does not mention), and any
/// error. Errors are the Migrator's to report, with its messages.
final class BulkReplay {
    /// The replay cannot build this database exactly; replay with the ``Migrator``.
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The replayed database.
    let db: Database
    /// The scratch database a table and its indexes are executed in before they are entered.
    private let scratch: SQLiteChecker
    /// The table in `scratch`, if any (its folded name).
    private var scratchTable: SQLName.Key?
    /// Entries executed in `scratch`, in order, waiting to be entered into `db`.
    private var pending: [SQLiteChecker.SchemaObject] = []
    /// The names of `pending` (folded).
    private var pendingNames: Set<SQLName.Key> = []
    /// The SQL of the pending and entered tables, to check an index on one of them in the
    /// scratch database (an entered table has no rows, so the index is all its SQL).
    private var tableSQL: [SQLName.Key: String] = [:]
    /// The root pages given to the entered indexes of each table (``SQLiteChecker/enter(_:into:indexCounts:)``).
    private var indexCounts: [String: Int] = [:]
    /// Entered tables without a b-tree, by folded name.
    private var entered: Set<SQLName.Key> = []
    /// The entered tables' indexes (folded name → folded table name).
    private var enteredIndexes: [SQLName.Key: SQLName.Key] = [:]
    /// Whether a trigger was created.
    private var hasTriggers = false
    /// The entered tables materialized so far (the work beyond linear: each costs one
    /// `CREATE` of SQLite's, proportional to the database).
    private(set) var materializedTables = 0
    /// Of those, the ones materialized under temporary names (one reading of the schema).
    private(set) var materializedUnderTemporaryNames = 0
    /// The tables and indexes the schema's checks executed (``ValidatedDatabase``), by their
    /// SQL, which is the statement SQLite accepted and what it stored for it: a `CREATE` of
    /// the replay with exactly that SQL is entered as that entry without executing it again
    /// in the scratch database (an index only on a table whose SQL is the checked one too).
    private var checked: [String: SQLiteChecker.SchemaObject] = [:]
    /// The SQL of the checked tables, by folded name.
    private var checkedTableSQL: [SQLName.Key: String] = [:]

    private init(db: Database, scratch: SQLiteChecker) {
        self.db = db
        self.scratch = scratch
    }

    /// Whether tables without a b-tree remain.
    var hasEnteredTables: Bool { !entered.isEmpty }

    /// A new in-memory database with `migrations` applied. Throws ``Refused`` when it cannot
    /// build it exactly (and on any error of the migrations).
    /// `catalog` is the database the schema's checks built (``CompiledSchema/catalog``):
    /// the `CREATE TABLE` and `CREATE INDEX` statements it executed need no second check.
    static func replay(_ migrations: [Migration], checked catalog: ValidatedDatabase = ValidatedDatabase()) throws -> BulkReplay {
        CompileWork.countReplay()
        guard let scratch = SQLiteChecker() else { throw Refused(description: "no scratch database") }
        let replay = BulkReplay(db: try Database.inMemory(configuration: .compilerChecks), scratch: scratch)
        replay.learnChecked(catalog)
        do {
            try replay.db.writeWithoutTransaction { conn in
                // As the Migrator runs a migration.
                try conn.execute(sql: "PRAGMA foreign_keys = OFF")
                // Free pages for the made-up root pages of entered indexes: SQLite refuses a
                // root page past the end of the database (one CREATE, in an empty database).
                try conn.execute(
                    sql: "CREATE TABLE strata_pages (x); INSERT INTO strata_pages VALUES (zeroblob(256 * 1024)); DROP TABLE strata_pages")
                for migration in migrations {
                    for statement in Self.statements(of: migration.sql) {
                        try replay.run(statement, on: conn)
                    }
                }
                try replay.flush(on: conn)
            }
        } catch let error as Refused {
            throw error
        } catch {
            throw Refused(description: "\(error)")
        }
        return replay
    }

    /// Reads the tables and indexes of `catalog` whose SQL is a statement it executed.
    private func learnChecked(_ catalog: ValidatedDatabase) {
        guard let db = catalog.database, !catalog.ddl.isEmpty else { return }
        let executed = Set(catalog.ddl)
        let rows = (try? db.read { conn in
            try conn.fetch(sql: "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL")
        }) ?? []
        for row in rows {
            guard let type = try? row.get(0, as: String.self), let name = try? row.get(1, as: String.self),
                let table = try? row.get(2, as: String.self), let sql = try? row.get(3, as: String.self), executed.contains(sql)
            else { continue }
            checked[sql] = SQLiteChecker.SchemaObject(type: type, name: name, tableName: table, sql: sql)
            if type == "table" { checkedTableSQL[SQLName.key(name)] = sql }
        }
    }

    /// Executes `sql` (one statement) on `conn`, the replayed database, as executing it in a
    /// database where every `CREATE` was executed would: the entered tables it may touch
    /// are materialized first. For the planner's own statements (renames, the check).
    func execute(_ sql: String, on conn: Connection) throws {
        let tokens = SQLTokenizer.tokenize(sql)
        try flush(on: conn)
        try executeAlone(ReplayStatement(text: sql, tokens: tokens[...]), on: conn)
    }

    /// One statement of a migration: its text (from its first token to its last, without
    /// the `;`) and its tokens.
    struct ReplayStatement {
        var text: String
        var tokens: ArraySlice<SQLToken>
    }

    /// The statements of `sql`, split at each `;` that ends one (not those inside a
    /// trigger's `BEGIN … END`).
    static func statements(of sql: String) -> [ReplayStatement] {
        let tokens = SQLTokenizer.tokenize(sql)
        var result: [ReplayStatement] = []
        var start = 0
        var depth = 0
        var isTrigger = false
        func close(_ end: Int) {
            if end > start {
                let text = String(sql[tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound])
                result.append(ReplayStatement(text: text, tokens: tokens[start..<end]))
            }
            start = end + 1
            depth = 0
            isTrigger = false
        }
        for (position, token) in tokens.enumerated() {
            if position == start + 1 || position == start + 2, token.isKeyword("TRIGGER"), tokens[start].isKeyword("CREATE") {
                isTrigger = true
            }
            if token.kind == .word {
                switch token.text.uppercased() {
                case "CASE": depth += 1
                case "BEGIN" where isTrigger: depth += 1
                case "END": depth = max(0, depth - 1)
                default: break
                }
            } else if token.kind == .symbol, token.text == ";", depth == 0 {
                close(position)
            }
        }
        close(tokens.count)
        return result
    }

    /// What a statement is, for the replay.
    private enum Kind {
        /// `CREATE TABLE name (…)`: executed in the scratch database.
        case createTable(String)
        /// `CREATE [UNIQUE] INDEX name ON table (…)` of the table in the scratch database.
        case createIndex(name: String, table: SQLName.Key)
        /// `CREATE`/`DROP` of a view or a trigger: no b-tree is touched.
        case schemaOnly(createsTrigger: Bool)
        /// Reads or writes rows.
        case rows
        /// Acts on the whole database or the connection: refused.
        case refused
        /// Anything else (`ALTER`, `DROP TABLE`/`INDEX`, another `CREATE`): executed.
        case other
    }

    private static let refusedKeywords: Set<String> = [
        "PRAGMA", "VACUUM", "REINDEX", "ANALYZE", "ATTACH", "DETACH", "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE",
    ]
    private static let rowKeywords: Set<String> = ["INSERT", "REPLACE", "UPDATE", "DELETE", "SELECT", "WITH", "VALUES"]

    /// A name as a statement spells it: a bare word or a quoted identifier (SQLite also takes
    /// a string there); nil for anything else.
    private static func name(_ token: SQLToken?) -> String? {
        guard let token else { return nil }
        switch token.kind {
        case .word, .identifier: return token.value
        case .string: return unquoted(token.text)
        default: return nil
        }
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") else { return text }
        return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    private func kind(of statement: ReplayStatement) -> Kind {
        let tokens = Array(statement.tokens)
        guard let first = tokens.first, first.kind == .word else { return .other }
        let keyword = first.text.uppercased()
        if Self.refusedKeywords.contains(keyword) { return .refused }
        if Self.rowKeywords.contains(keyword) { return .rows }
        func at(_ index: Int) -> SQLToken? { index < tokens.count ? tokens[index] : nil }
        func isKeyword(_ index: Int, _ word: String) -> Bool { at(index)?.isKeyword(word) ?? false }
        if keyword == "DROP" {
            return isKeyword(1, "VIEW") || isKeyword(1, "TRIGGER") ? .schemaOnly(createsTrigger: false) : .other
        }
        guard keyword == "CREATE" else { return .other }
        var index = 1
        if isKeyword(index, "TEMP") || isKeyword(index, "TEMPORARY") { return .other }
        if isKeyword(index, "VIEW") { return .schemaOnly(createsTrigger: false) }
        if isKeyword(index, "TRIGGER") { return .schemaOnly(createsTrigger: true) }
        if isKeyword(index, "TABLE") {
            // Not IF NOT EXISTS, not schema-qualified, not AS SELECT: a column list.
            guard let name = Self.name(at(2)), !isKeyword(2, "IF"), at(3)?.text == "(" else { return .other }
            return .createTable(name)
        }
        if isKeyword(index, "UNIQUE") { index += 1 }
        guard isKeyword(index, "INDEX"), let name = Self.name(at(index + 1)), !isKeyword(index + 1, "IF"),
            isKeyword(index + 2, "ON"), let table = Self.name(at(index + 3)), at(index + 4)?.text == "("
        else { return .other }
        return .createIndex(name: name, table: SQLName.key(table))
    }

    private func run(_ statement: ReplayStatement, on conn: Connection) throws {
        switch kind(of: statement) {
        case .createTable(let name):
            let key = SQLName.key(name)
            guard try !exists(name, on: conn) else { return try executeAfterFlush(statement, on: conn) }
            try moveScratchToPending()
            if let object = checked[statement.text], object.type == "table", SQLName.key(object.name) == key {
                // What executing it in the scratch database would give, known from the checks.
                pending.append(object)
                pendingNames.insert(key)
                tableSQL[key] = object.sql
                return
            }
            if let message = scratch.execute(statement.text) { throw Refused(description: message) }
            scratchTable = key
        case .createIndex(let name, let table) where table == scratchTable:
            guard try !exists(name, on: conn) else { return try executeAfterFlush(statement, on: conn) }
            if let message = scratch.execute(statement.text) { throw Refused(description: message) }
        case .createIndex(let name, let table) where tableSQL[table] != nil && (entered.contains(table) || pendingNames.contains(table)):
            // An index on a table created earlier (a first migration creates every table,
            // then every index): checked on that table alone in the scratch database.
            guard try !exists(name, on: conn), let sql = tableSQL[table] else { return try executeAfterFlush(statement, on: conn) }
            try moveScratchToPending()
            if let object = checked[statement.text], object.type == "index", SQLName.key(object.name) == SQLName.key(name),
                SQLName.key(object.tableName) == table, checkedTableSQL[table] == sql
            {
                // Checked on this very table by the checks.
                pending.append(object)
                pendingNames.insert(SQLName.key(object.name))
                return
            }
            if let message = scratch.execute(sql) { throw Refused(description: message) }
            if let message = scratch.execute(statement.text) { throw Refused(description: message) }
            guard let objects = scratch.schemaObjects() else { throw Refused(description: "cannot read the scratch database") }
            for object in objects where object.type == "index" {
                pending.append(object)
                pendingNames.insert(SQLName.key(object.name))
            }
            for object in objects where object.type == "table" && object.name != "sqlite_sequence" {
                if let message = scratch.execute("DROP TABLE \(SQLRenderer.quoteIdentifier(object.name))") { throw Refused(description: message) }
            }
        default:
            try executeAfterFlush(statement, on: conn)
        }
    }

    private func executeAfterFlush(_ statement: ReplayStatement, on conn: Connection) throws {
        try flush(on: conn)
        try executeAlone(statement, on: conn)
    }

    /// Executes one statement, the pending entries entered.
    private func executeAlone(_ statement: ReplayStatement, on conn: Connection) throws {
        let kind = kind(of: statement)
        switch kind {
        case .refused:
            throw Refused(description: "a statement this replay does not make: \(statement.text.prefix(40))")
        case .rows where hasTriggers:
            throw Refused(description: "rows read or written while a trigger exists")
        case .schemaOnly(let createsTrigger):
            if createsTrigger { hasTriggers = true }
        case .createTable:
            // A column list: it reads no table's rows (its REFERENCES are checked when rows are
            // written), so the tables it names stay entered.
            break
        default:
            try materialize(mentionedBy: statement, on: conn)
        }
        try conn.execute(sql: statement.text)
        // Rows of AUTOINCREMENT's own table (a rebuild hands its counter on) have no foreign
        // keys for the Migrator's check to find.
        if case .rows = kind, conn.changes > 0, Self.writtenTable(statement).map({ SQLName.key($0) }) != SQLName.key("sqlite_sequence") {
            throw Refused(description: "a statement wrote rows")
        }
    }

    /// The table an `INSERT`, `REPLACE`, `UPDATE` or `DELETE` writes (nil for anything else,
    /// or a statement that starts with `WITH`).
    static func writtenTable(_ statement: ReplayStatement) -> String? {
        let tokens = Array(statement.tokens)
        guard let first = tokens.first else { return nil }
        var index: Int
        if first.isKeyword("INSERT") || first.isKeyword("REPLACE") {
            guard let into = tokens.firstIndex(where: { $0.isKeyword("INTO") }) else { return nil }
            index = into + 1
        } else if first.isKeyword("UPDATE") {
            index = tokens.count > 2 && tokens[1].isKeyword("OR") ? 3 : 1
        } else if first.isKeyword("DELETE"), tokens.count > 1, tokens[1].isKeyword("FROM") {
            index = 2
        } else {
            return nil
        }
        guard index < tokens.count, index + 1 >= tokens.count || tokens[index + 1].text != "." else { return nil }
        return name(tokens[index])
    }

    /// Whether a table, view or index named `name` exists in the replayed database or waits
    /// to be entered (SQLite's own lookups, not a scan of `sqlite_master`).
    private func exists(_ name: String, on conn: Connection) throws -> Bool {
        let key = SQLName.key(name)
        if entered.contains(key) || enteredIndexes[key] != nil || key == scratchTable { return true }
        if pendingNames.contains(key) { return true }
        for sql in ["SELECT count(*) FROM pragma_table_info(?)", "SELECT count(*) FROM pragma_index_info(?)"] {
            let statement = try conn.cachedStatement(sql: sql)
            defer { statement.reset() }
            try statement.bind(name, at: 1)
            if try statement.step(), statement.int(at: 0) > 0 { return true }
        }
        return false
    }

    /// Moves what the scratch database holds (a table and its indexes) to `pending` and
    /// empties it.
    private func moveScratchToPending() throws {
        guard scratchTable != nil else { return }
        guard let objects = scratch.schemaObjects() else { throw Refused(description: "cannot read the scratch database") }
        for object in objects where object.name != "sqlite_sequence" {
            pending.append(object)
            pendingNames.insert(SQLName.key(object.name))
            if object.type == "table" { tableSQL[SQLName.key(object.name)] = object.sql }
            if object.type == "table", let message = scratch.execute("DROP TABLE \(SQLRenderer.quoteIdentifier(object.name))") {
                throw Refused(description: message)
            }
        }
        scratchTable = nil
    }

    /// Enters the pending tables and indexes into the replayed database.
    private func flush(on conn: Connection) throws {
        try moveScratchToPending()
        guard !pending.isEmpty else { return }
        // AUTOINCREMENT's table: created for real, as executing the first such table would.
        if pending.contains(where: { $0.type == "table" && SQLTokenizer.parseCreateTable($0.sql).hasAutoincrement }),
            try conn.fetchValue(Int.self, sql: "SELECT count(*) FROM pragma_table_info('sqlite_sequence')") ?? 0 == 0
        {
            try conn.execute(sql: "CREATE TABLE strata_sequence_probe (id INTEGER PRIMARY KEY AUTOINCREMENT); DROP TABLE strata_sequence_probe")
        }
        guard SQLiteChecker.enter(pending, into: conn, indexCounts: &indexCounts) else { throw Refused(description: "SQLite refused the entries") }
        for object in pending {
            if object.type == "table" {
                entered.insert(SQLName.key(object.name))
            } else {
                enteredIndexes[SQLName.key(object.name)] = SQLName.key(object.tableName)
            }
        }
        pending = []
        pendingNames = []
    }

    /// Materializes the entered tables that `statement` mentions (by their names or their
    /// indexes' names, quoted or not, or as strings).
    private func materialize(mentionedBy statement: ReplayStatement, on conn: Connection) throws {
        guard !entered.isEmpty else { return }
        var tables: [SQLName.Key] = []
        for token in statement.tokens {
            guard let name = Self.name(token) else { continue }
            let key = SQLName.key(name)
            if entered.contains(key) {
                tables.append(key)
            } else if let table = enteredIndexes[key], entered.contains(table) {
                tables.append(table)
            }
        }
        var seen: Set<SQLName.Key> = []
        for table in tables where seen.insert(table).inserted {
            try materialize(table, on: conn)
        }
    }

    /// Materializes every entered table (for tests: the database is then the Migrator's
    /// through and through).
    func materializeEverything(on conn: Connection) throws {
        for key in entered { try materialize(key, on: conn) }
    }

    /// Gives the entered table `key` and its indexes real b-trees, with one reading of the
    /// schema by SQLite (``materializeUnderTemporaryNames(_:on:)``), or, when its SQL does not
    /// allow that, by removing their entries, executing their SQL (as `sqlite_master` holds it
    /// now: a rename of another table rewrites it) and moving the new entries back to the old
    /// ones' places (`rowid`), so the order of `sqlite_master` is the one executing every
    /// statement gives.
    private func materialize(_ key: SQLName.Key, on conn: Connection) throws {
        guard entered.remove(key) != nil else { return }
        materializedTables += 1
        tableSQL[key] = nil
        let rows = try conn.fetch(
            sql: "SELECT rowid, type, name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL ORDER BY rowid")
        var objects: [MaterializedObject] = []
        for row in rows {
            let type: String = try row.get(1)
            let objectName: String = try row.get(2)
            let belongs = type == "table" ? SQLName.key(objectName) == key : enteredIndexes[SQLName.key(objectName)] == key
            if belongs { objects.append(MaterializedObject(rowid: try row.get(0), type: type, name: objectName, sql: try row.get(3))) }
        }
        guard objects.contains(where: { $0.type == "table" }) else { throw Refused(description: "an entered table is gone") }
        for object in objects where object.type == "index" { enteredIndexes[SQLName.key(object.name)] = nil }
        if try materializeUnderTemporaryNames(objects, on: conn) { return }
        try SQLiteChecker.editingSchema(of: conn) {
            for object in objects {
                try conn.execute(sql: "DELETE FROM sqlite_master WHERE rowid = ?", arguments: [object.rowid])
            }
        }
        // The new entries may take the freed rowids (when the removed ones were the last), in
        // another order (an automatic index after its table): moved past every rowid first.
        let lastKept = try conn.fetchValue(Int.self, sql: "SELECT coalesce(max(rowid), 0) FROM sqlite_master") ?? 0
        for object in objects {
            try conn.execute(sql: object.sql)
        }
        try SQLiteChecker.editingSchema(of: conn) {
            try conn.execute(
                sql: "UPDATE sqlite_master SET rowid = rowid + (SELECT max(rowid) FROM sqlite_master) WHERE rowid > ?", arguments: [lastKept])
            for object in objects {
                try conn.execute(
                    sql: "UPDATE sqlite_master SET rowid = ? WHERE type = ? AND name = ?", arguments: [object.rowid, object.type, object.name])
            }
        }
    }

    /// An entry of `sqlite_master` that ``materialize(_:on:)`` gives a b-tree.
    struct MaterializedObject {
        var rowid: Int
        var type: String
        var name: String
        var sql: String
    }

    /// Materializes `objects` (an entered table first, then its indexes, as `sqlite_master`
    /// holds them) with one reading of the schema instead of two: their SQL is executed under
    /// fresh names (the table's and the indexes' names replaced; nothing else in it), which
    /// creates b-trees; then, under `writable_schema`, each entry takes its twin's root page,
    /// the twin's automatic indexes (UNIQUE, PRIMARY KEY) are renamed to be the table's —
    /// SQLite numbers them by their place in the same SQL — and the twins' entries are removed.
    /// The entries keep their places (`rowid`); the automatic indexes come last, where
    /// executing the table's SQL again would put them too. Returns false, with nothing changed,
    /// when SQLite refuses the renamed SQL (e.g. a CHECK that names its table).
    private func materializeUnderTemporaryNames(_ objects: [MaterializedObject], on conn: Connection) throws -> Bool {
        guard let table = objects.first, table.type == "table" else { return false }
        var taken = Set(try conn.fetch(sql: "SELECT name FROM sqlite_master").map { SQLName.key(try $0.get(0, as: String.self)) })
        func fresh(_ base: String) -> String { MigrationPlanner.freshName(base, avoiding: &taken) }
        let twinTable = fresh("strata_materialized")
        var twins: [(object: MaterializedObject, twin: String, sql: String)] = []
        for object in objects {
            let tokens = SQLTokenizer.tokenize(object.sql)
            func isKeyword(_ index: Int, _ word: String) -> Bool { index < tokens.count && tokens[index].isKeyword(word) }
            guard isKeyword(0, "CREATE") else { return false }
            var replaced: [(Range<String.Index>, String)] = []
            let twin: String
            if object.type == "table" {
                // SQLite stores `CREATE TABLE <name>…` (no IF NOT EXISTS, no schema).
                guard isKeyword(1, "TABLE"), tokens.count > 2, [.word, .identifier, .string].contains(tokens[2].kind) else { return false }
                twin = twinTable
                replaced.append((tokens[2].range, SQLRenderer.quoteIdentifier(twin)))
            } else {
                let nameAt = isKeyword(1, "UNIQUE") ? 3 : 2
                guard isKeyword(nameAt - 1, "INDEX"), isKeyword(nameAt + 1, "ON"), nameAt + 2 < tokens.count,
                    [.word, .identifier, .string].contains(tokens[nameAt].kind), [.word, .identifier, .string].contains(tokens[nameAt + 2].kind)
                else { return false }
                twin = fresh("strata_materialized_index")
                replaced.append((tokens[nameAt].range, SQLRenderer.quoteIdentifier(twin)))
                replaced.append((tokens[nameAt + 2].range, SQLRenderer.quoteIdentifier(twinTable)))
            }
            var sql = object.sql
            for (range, text) in replaced.reversed() { sql.replaceSubrange(range, with: text) }
            twins.append((object, twin, sql))
        }
        do {
            for twin in twins { try conn.execute(sql: twin.sql) }
        } catch {
            try? conn.execute(sql: "DROP TABLE IF EXISTS \(SQLRenderer.quoteIdentifier(twinTable))")
            return false
        }
        try SQLiteChecker.editingSchema(of: conn) {
            for twin in twins {
                try conn.execute(
                    sql: "UPDATE sqlite_master SET rootpage = (SELECT rootpage FROM sqlite_master WHERE name = ?) WHERE rowid = ?",
                    arguments: [twin.twin, twin.object.rowid])
                try conn.execute(sql: "DELETE FROM sqlite_master WHERE name = ?", arguments: [twin.twin])
            }
            let prefix = "sqlite_autoindex_\(twinTable)_"
            for row in try conn.fetch(
                sql: "SELECT rowid, name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NULL ORDER BY rowid",
                arguments: [twinTable])
            {
                let name: String = try row.get(1)
                guard name.hasPrefix(prefix) else { throw Refused(description: "an unexpected automatic index \(name)") }
                try conn.execute(
                    sql: "UPDATE sqlite_master SET name = ?, tbl_name = ? WHERE rowid = ?",
                    arguments: ["sqlite_autoindex_\(table.name)_" + name.dropFirst(prefix.count), table.name, try row.get(0, as: Int.self)])
            }
        }
        materializedUnderTemporaryNames += 1
        return true
    }
}
