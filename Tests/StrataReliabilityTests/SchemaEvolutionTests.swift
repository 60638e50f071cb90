import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Randomized schema evolution: a seeded random schema v1 with rows, then a chain of
/// migrations, each made of random edits of every kind the planner supports — add, drop,
/// rename (with reused names, swaps, rotations, case-only and non-ASCII case changes), retype
/// and reorder columns; rename, add and drop tables; defaults, CHECKs, NOT NULL, foreign keys
/// and their actions, indexes, UNIQUE, AUTOINCREMENT and STRICT. Each migration is written by
/// the planner as `strata migration new` writes it and applied by the runtime's `Migrator`.
///
/// The test keeps its own model of every row. After each migration every row is compared by
/// key with the model; before each one the highest row of every AUTOINCREMENT table is deleted
/// and after it one row is inserted, whose id must be the next counter value. At the end of the
/// chain the database is compared with a fresh one built from the final schema with the model's
/// rows: same structure, same rows, the verifier agrees and planning again changes nothing.
///
/// `swift test` runs 200 trials; `STRATA_LONG_TESTS=1` (scripts/reliability.sh) runs 3,000;
/// `STRATA_EVOLUTION_TRIALS`, `STRATA_EVOLUTION_CHAIN` (migrations after v1, 3 by default) and
/// `STRATA_EVOLUTION_SEED` override.
@Suite struct SchemaEvolutionTests {
    enum Kind: String { case int, text, double }

    struct Column {
        var uid: Int
        var name: String
        var kind: Kind
        var optional: Bool
        var defaultValue: DatabaseValue?
        var unique = false
        var check = false
        var hint: String?
        /// The parent table's uid and the ON DELETE action.
        var reference: (table: Int, onDelete: String)?
    }

    struct Table {
        var uid: Int
        var name: String
        var hint: String?
        var autoincrement: Bool
        var columns: [Column]
        var indexes: [(columns: [Int], unique: Bool)] = []
        /// id → column uid → value.
        var rows: [Int64: [Int: DatabaseValue]] = [:]
        /// The AUTOINCREMENT counter: the highest id ever given.
        var counter: Int64 = 0
        /// Renames done so far, as (old, new) folded names: a cycle of hints that repeats an
        /// earlier one is indistinguishable from it, so the generator does not make one.
        var pastRenames: Set<[SQLName.Key]> = []
    }

    struct Model {
        var tables: [Table] = []
        var strict = true
        var nextUID = 1
        var pastTableRenames: Set<[SQLName.Key]> = []

        mutating func uid() -> Int {
            defer { nextUID += 1 }
            return nextUID
        }

        func table(_ uid: Int) -> Table? { tables.first { $0.uid == uid } }
    }

    /// Counts of what the trials did.
    struct Figures {
        var trials = 0
        var migrations = 0
        var emptyMigrations = 0
        var rowsChecked = 0
        var edits: [String: Int] = [:]
        var failures: [String] = []
    }

    static let tableNames = ["t1", "t2", "T1", "t3", "new_t1", "é", "É", "strata_rename", "Items", "items"]
    static let columnNames = ["a", "b", "c", "A", "B", "d", "é", "É", "new_a", "x y", "q\"t"]

    // MARK: - YAML

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func sqlQuoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    static func literal(_ value: DatabaseValue) -> String {
        switch value {
        case .integer(let number): String(number)
        case .real(let number): "\(number)"
        case .text(let text): quoted(text)
        default: "null"
        }
    }

    static func yaml(_ model: Model) -> String {
        var text = "database: Evolve\n"
        if !model.strict { text += "options: { strict: false }\n" }
        text += "tables:\n"
        for table in model.tables {
            text += "  T\(table.uid):\n    table: \(quoted(table.name))\n"
            if let hint = table.hint { text += "    renamedFrom: \(quoted(hint))\n" }
            text += "    columns:\n      id: { type: int, primaryKey: \(table.autoincrement ? "autoincrement" : "true") }\n"
            for column in table.columns {
                var fields = ["type: \(column.kind.rawValue)\(column.optional ? "?" : "")", "column: \(quoted(column.name))"]
                if let value = column.defaultValue { fields.append("default: \(literal(value))") }
                if column.unique { fields.append("unique: true") }
                if column.check {
                    let name = sqlQuoted(column.name)
                    fields.append("check: \(quoted(column.kind == .text ? "length(\(name)) > 0" : "\(name) > -1000"))")
                }
                if let hint = column.hint { fields.append("renamedFrom: \(quoted(hint))") }
                if let reference = column.reference {
                    fields.append("references: T\(reference.table).id")
                    fields.append("onDelete: \(reference.onDelete)")
                }
                text += "      f\(column.uid): { \(fields.joined(separator: ", ")) }\n"
            }
            if !table.indexes.isEmpty {
                text += "    indexes:\n"
                for index in table.indexes {
                    text += "      - { columns: [\(index.columns.map { "f\($0)" }.joined(separator: ", "))]\(index.unique ? ", unique: true" : "") }\n"
                }
            }
        }
        return text
    }

    // MARK: - Values

    static func value(_ kind: Kind, row: Int64, column: Int) -> DatabaseValue {
        switch kind {
        case .int: .integer(row * 100 + Int64(column % 100))
        case .text: .text("v\(row)_\(column)")
        case .double: .real(Double(row) + 0.5)
        }
    }

    static func defaultValue(_ kind: Kind, _ rng: inout SeededGenerator) -> DatabaseValue {
        switch kind {
        case .int: .integer(Int64.random(in: 0...9, using: &rng))
        case .text: .text(["d", "é", "it's"].randomElement(using: &rng) ?? "d")
        case .double: .real(1.5)
        }
    }

    static func converted(_ value: DatabaseValue, to kind: Kind) -> DatabaseValue {
        switch (value, kind) {
        case (.integer(let number), .double): .real(Double(number))
        case (.integer(let number), .text): .text(String(number))
        case (.real(let number), .text): .text("\(number)")
        default: value
        }
    }

    // MARK: - Edits

    /// Names in use in the database now (before this migration), and names of things dropped
    /// in this migration: a new name must be neither, or the planner could not tell a new
    /// column from the old one.
    struct Step {
        var databaseTables: Set<SQLName.Key>
        var databaseColumns: [Int: Set<SQLName.Key>]
        /// The names of the tables and columns (by uid) in the database now: only they get a
        /// `renamedFrom`, and it names what the database has.
        var databaseNames: [Int: String] = [:]
        /// Columns retyped in this migration (SQLite converts once, from the stored value).
        var retyped: Set<Int> = []
        /// Columns whose NULLs are filled with the default in this migration (the migration
        /// fills them with the final default, once).
        var filled: Set<Int> = []
        var retiredTables: Set<SQLName.Key> = []
        var retiredColumns: [Int: Set<SQLName.Key>] = [:]
    }

    static func isReferenced(_ uid: Int, in model: Model) -> Bool {
        model.tables.contains { $0.columns.contains { $0.reference?.table == uid } }
    }

    static func distinct(_ values: [DatabaseValue]) -> Bool {
        let present = values.filter { $0 != .null }
        return Set(present.map { "\($0)" }).count == present.count
    }

    /// One random edit applied to the model; returns its kind, or nil when it did not apply.
    static func edit(_ model: inout Model, _ step: inout Step, _ rng: inout SeededGenerator, kind chosen: String? = nil) -> String? {
        let kinds = [
            "add column", "drop column", "rename columns", "retype column", "reorder columns", "rename tables", "add table",
            "drop table", "toggle key autoincrement", "change default", "toggle check", "toggle not null", "add foreign key",
            "drop foreign key", "change foreign key action", "add index", "drop index", "toggle unique", "toggle strict",
        ]
        let kind = chosen ?? kinds.randomElement(using: &rng) ?? "add column"
        guard !model.tables.isEmpty || kind == "add table" else { return nil }
        let t = Int.random(in: 0..<max(model.tables.count, 1), using: &rng)
        func freeColumnName(_ table: Table) -> String? {
            let used = Set(table.columns.map { SQLName.key($0.name) } + [SQLName.key("id")])
                .union(step.databaseColumns[table.uid] ?? []).union(step.retiredColumns[table.uid] ?? [])
            return columnNames.shuffled(using: &rng).first { !used.contains(SQLName.key($0)) }
        }
        switch kind {
        case "add column":
            guard let name = freeColumnName(model.tables[t]) else { return nil }
            let type = [Kind.int, .text, .double].randomElement(using: &rng) ?? .int
            let optional = Bool.random(using: &rng)
            var column = Column(uid: model.uid(), name: name, kind: type, optional: optional, defaultValue: nil)
            if !optional || Bool.random(using: &rng) { column.defaultValue = defaultValue(type, &rng) }
            if Int.random(in: 0..<4, using: &rng) == 0 { column.check = true }
            if optional, column.defaultValue == nil, Int.random(in: 0..<4, using: &rng) == 0 { column.unique = true }
            for id in model.tables[t].rows.keys { model.tables[t].rows[id]?[column.uid] = column.defaultValue ?? .null }
            model.tables[t].columns.insert(column, at: Int.random(in: 0...model.tables[t].columns.count, using: &rng))
        case "drop column":
            // Not one renamed in this migration: "rename a to b, drop b" leaves b's old name
            // free in the schema but not in the database.
            guard let c = model.tables[t].columns.indices.randomElement(using: &rng),
                step.databaseNames[model.tables[t].columns[c].uid].map({ SQLName.identical($0, model.tables[t].columns[c].name) }) ?? true
            else { return nil }
            let column = model.tables[t].columns.remove(at: c)
            model.tables[t].indexes.removeAll { $0.columns.contains(column.uid) }
            for id in model.tables[t].rows.keys { model.tables[t].rows[id]?[column.uid] = nil }
            // A name that leaves is no longer anyone's old name.
            let gone = step.databaseNames[column.uid] ?? column.name
            for index in model.tables[t].columns.indices where model.tables[t].columns[index].hint.map({ SQLName.same($0, gone) }) == true {
                model.tables[t].columns[index].hint = nil
            }
            step.retiredColumns[model.tables[t].uid, default: []].formUnion([SQLName.key(gone), SQLName.key(column.name)])
        case "rename columns":
            var table = model.tables[t]
            guard !table.columns.isEmpty else { return nil }
            let count = min(Int.random(in: 1...3, using: &rng), table.columns.count)
            let chosen = Array(table.columns.indices.shuffled(using: &rng).prefix(count))
            var candidates = columnNames + chosen.map { table.columns[$0].name }
            candidates += chosen.map { SQLName.fold(table.columns[$0].name).uppercased() }
            let others = Set(table.columns.indices.filter { !chosen.contains($0) }.map { SQLName.key(table.columns[$0].name) })
            let blocked = others.union(step.retiredColumns[table.uid] ?? []).union([SQLName.key("id")])
                .union((step.databaseColumns[table.uid] ?? []).subtracting(chosen.map { SQLName.key(table.columns[$0].name) }))
            var assigned: [Int: String] = [:]
            var used: Set<SQLName.Key> = []
            for index in chosen {
                let old = table.columns[index].name
                guard let name = candidates.shuffled(using: &rng).first(where: {
                    !SQLName.identical($0, old) && !used.contains(SQLName.key($0)) && !blocked.contains(SQLName.key($0))
                }) else { return nil }
                assigned[index] = name
                used.insert(SQLName.key(name))
            }
            let pairs = assigned.compactMap { index, name in
                step.databaseNames[table.columns[index].uid].map { [SQLName.key($0), SQLName.key(name)] }
            }
            guard !pairs.contains(where: { table.pastRenames.contains($0) }) else { return nil }
            // Hints of other columns from the names that move are stale now.
            let moving = Set(chosen.compactMap { step.databaseNames[table.columns[$0].uid].map(SQLName.key) })
            for index in table.columns.indices where !chosen.contains(index) {
                if let hint = table.columns[index].hint, moving.contains(SQLName.key(hint)) { table.columns[index].hint = nil }
            }
            for (index, name) in assigned {
                let old = step.databaseNames[table.columns[index].uid]
                table.columns[index].hint = old.flatMap { SQLName.identical($0, name) ? nil : $0 }
                table.columns[index].name = name
            }
            table.pastRenames.formUnion(pairs)
            model.tables[t] = table
        case "retype column":
            let eligible = model.tables[t].columns.indices.filter {
                model.tables[t].columns[$0].kind != .text && model.tables[t].columns[$0].reference == nil
            }
            guard let c = eligible.randomElement(using: &rng), !step.retyped.contains(model.tables[t].columns[c].uid) else { return nil }
            let column = model.tables[t].columns[c]
            step.retyped.insert(column.uid)
            let to: Kind = column.kind == .int && Bool.random(using: &rng) ? .double : .text
            model.tables[t].columns[c].kind = to
            model.tables[t].columns[c].defaultValue = column.defaultValue.map { converted($0, to: to) }
            for id in model.tables[t].rows.keys {
                if let value = model.tables[t].rows[id]?[column.uid] { model.tables[t].rows[id]?[column.uid] = converted(value, to: to) }
            }
        case "reorder columns":
            guard model.tables[t].columns.count > 1 else { return nil }
            model.tables[t].columns.shuffle(using: &rng)
        case "rename tables":
            let count = min(Int.random(in: 1...3, using: &rng), model.tables.count)
            let chosen = Array(model.tables.indices.shuffled(using: &rng).prefix(count))
            let chosenKeys = Set(chosen.map { SQLName.key(model.tables[$0].name) })
            let others = Set(model.tables.indices.filter { !chosen.contains($0) }.map { SQLName.key(model.tables[$0].name) })
            let blocked = others.union(step.retiredTables).union(step.databaseTables.subtracting(chosenKeys))
            var candidates = tableNames + chosen.map { model.tables[$0].name }
            candidates += chosen.map { SQLName.fold(model.tables[$0].name).uppercased() }
            var assigned: [Int: String] = [:]
            var used: Set<SQLName.Key> = []
            for index in chosen {
                let old = model.tables[index].name
                guard let name = candidates.shuffled(using: &rng).first(where: {
                    !SQLName.identical($0, old) && !used.contains(SQLName.key($0)) && !blocked.contains(SQLName.key($0))
                        && !$0.lowercased().hasPrefix("sqlite_")
                }) else { return nil }
                assigned[index] = name
                used.insert(SQLName.key(name))
            }
            let pairs = assigned.compactMap { index, name in
                step.databaseNames[model.tables[index].uid].map { [SQLName.key($0), SQLName.key(name)] }
            }
            guard !pairs.contains(where: { model.pastTableRenames.contains($0) }) else { return nil }
            let moving = Set(chosen.compactMap { step.databaseNames[model.tables[$0].uid].map(SQLName.key) })
            for index in model.tables.indices where !chosen.contains(index) {
                if let hint = model.tables[index].hint, moving.contains(SQLName.key(hint)) { model.tables[index].hint = nil }
            }
            for (index, name) in assigned {
                let old = step.databaseNames[model.tables[index].uid]
                model.tables[index].hint = old.flatMap { SQLName.identical($0, name) ? nil : $0 }
                model.tables[index].name = name
            }
            model.pastTableRenames.formUnion(pairs)
        case "add table":
            let used = Set(model.tables.map { SQLName.key($0.name) }).union(step.databaseTables).union(step.retiredTables)
            guard let name = tableNames.shuffled(using: &rng).first(where: { !used.contains(SQLName.key($0)) }) else { return nil }
            var table = Table(uid: model.uid(), name: name, autoincrement: Bool.random(using: &rng), columns: [])
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                guard let columnName = columnNames.shuffled(using: &rng).first(where: { n in !table.columns.contains { SQLName.same($0.name, n) } })
                else { break }
                let type = [Kind.int, .text, .double].randomElement(using: &rng) ?? .int
                table.columns.append(Column(uid: model.uid(), name: columnName, kind: type, optional: Bool.random(using: &rng), defaultValue: nil))
            }
            model.tables.append(table)
        case "drop table":
            guard model.tables.count > 1, !isReferenced(model.tables[t].uid, in: model),
                step.databaseNames[model.tables[t].uid].map({ SQLName.identical($0, model.tables[t].name) }) ?? true
            else { return nil }
            let table = model.tables.remove(at: t)
            let gone = step.databaseNames[table.uid] ?? table.name
            for index in model.tables.indices where model.tables[index].hint.map({ SQLName.same($0, gone) }) == true {
                model.tables[index].hint = nil
            }
            step.retiredTables.formUnion([SQLName.key(gone), SQLName.key(table.name)])
        case "toggle key autoincrement":
            model.tables[t].autoincrement.toggle()
            model.tables[t].counter = model.tables[t].autoincrement ? (model.tables[t].rows.keys.max() ?? 0) : 0
        case "change default":
            guard let c = model.tables[t].columns.indices.randomElement(using: &rng) else { return nil }
            let column = model.tables[t].columns[c]
            // A column added in this migration takes its default into the existing rows.
            guard step.databaseNames[column.uid] != nil, !step.filled.contains(column.uid) else { return nil }
            if column.defaultValue != nil, column.optional, Bool.random(using: &rng) {
                model.tables[t].columns[c].defaultValue = nil
            } else {
                model.tables[t].columns[c].defaultValue = defaultValue(column.kind, &rng)
            }
        case "toggle check":
            guard let c = model.tables[t].columns.indices.randomElement(using: &rng) else { return nil }
            // The generated values and defaults all pass the checks.
            model.tables[t].columns[c].check.toggle()
        case "toggle not null":
            guard let c = model.tables[t].columns.indices.randomElement(using: &rng),
                !step.filled.contains(model.tables[t].columns[c].uid)
            else { return nil }
            let column = model.tables[t].columns[c]
            if !column.optional {
                model.tables[t].columns[c].optional = true
                return kind
            }
            let fill = column.defaultValue ?? defaultValue(column.kind, &rng)
            if column.reference != nil { return nil }
            var rows = model.tables[t].rows
            for id in rows.keys where rows[id]?[column.uid] == .null { rows[id]?[column.uid] = fill }
            if column.unique, !distinct(rows.values.compactMap { $0[column.uid] }) { return nil }
            model.tables[t].rows = rows
            step.filled.insert(column.uid)
            model.tables[t].columns[c].optional = false
            model.tables[t].columns[c].defaultValue = fill
        case "add foreign key":
            let parents = model.tables.filter { $0.rows[1] != nil }
            guard let parent = parents.randomElement(using: &rng), let name = freeColumnName(model.tables[t]) else { return nil }
            let column = Column(
                uid: model.uid(), name: name, kind: .int, optional: true, defaultValue: nil,
                reference: (parent.uid, ["cascade", "setNull", "restrict", "noAction"].randomElement(using: &rng) ?? "cascade"))
            for id in model.tables[t].rows.keys { model.tables[t].rows[id]?[column.uid] = .null }
            model.tables[t].columns.append(column)
        case "drop foreign key":
            guard let c = model.tables[t].columns.indices.filter({ model.tables[t].columns[$0].reference != nil }).randomElement(using: &rng)
            else { return nil }
            model.tables[t].columns[c].reference = nil
        case "change foreign key action":
            guard let c = model.tables[t].columns.indices.filter({ model.tables[t].columns[$0].reference != nil }).randomElement(using: &rng)
            else { return nil }
            let action = ["cascade", "setNull", "restrict", "noAction"].randomElement(using: &rng) ?? "cascade"
            model.tables[t].columns[c].reference?.onDelete = action
        case "add index":
            let columns = Array(model.tables[t].columns.shuffled(using: &rng).prefix(Int.random(in: 1...2, using: &rng)))
            guard !columns.isEmpty else { return nil }
            let uids = columns.map(\.uid)
            guard !model.tables[t].indexes.contains(where: { $0.columns == uids }) else { return nil }
            var unique = Int.random(in: 0..<3, using: &rng) == 0
            if unique, !distinct(model.tables[t].rows.values.map { row in .text(uids.map { "\(row[$0] ?? .null)" }.joined(separator: "|")) }) {
                unique = false
            }
            model.tables[t].indexes.append((uids, unique))
        case "drop index":
            guard let i = model.tables[t].indexes.indices.randomElement(using: &rng) else { return nil }
            model.tables[t].indexes.remove(at: i)
        case "toggle unique":
            guard let c = model.tables[t].columns.indices.randomElement(using: &rng) else { return nil }
            let column = model.tables[t].columns[c]
            if !column.unique, !distinct(model.tables[t].rows.values.compactMap { $0[column.uid] }) { return nil }
            model.tables[t].columns[c].unique.toggle()
        case "toggle strict":
            model.strict.toggle()
        default:
            return nil
        }
        return kind
    }

    /// Edits of one migration can combine into a UNIQUE the rows violate (a unique index, then
    /// NULLs filled with one default): such a UNIQUE is left out, as a user would.
    static func keepUniqueSatisfiable(_ model: inout Model) {
        for t in model.tables.indices {
            let rows = Array(model.tables[t].rows.values)
            for c in model.tables[t].columns.indices where model.tables[t].columns[c].unique {
                let uid = model.tables[t].columns[c].uid
                if !distinct(rows.map { $0[uid] ?? .null }) { model.tables[t].columns[c].unique = false }
            }
            for i in model.tables[t].indexes.indices where model.tables[t].indexes[i].unique {
                let uids = model.tables[t].indexes[i].columns
                let keys = rows.filter { row in uids.allSatisfy { row[$0] != nil && row[$0] != .null } }
                    .map { row in DatabaseValue.text(uids.map { "\(row[$0] ?? .null)" }.joined(separator: "|")) }
                if !distinct(keys) { model.tables[t].indexes[i].unique = false }
            }
        }
    }

    // MARK: - Rows

    /// Values for a new row of `table` with id `id`.
    static func newRow(_ table: Table, id: Int64, model: Model, _ rng: inout SeededGenerator) -> [Int: DatabaseValue] {
        var row: [Int: DatabaseValue] = [:]
        for column in table.columns {
            if let reference = column.reference {
                // Only row 1 is referenced, so a unique foreign key column stays NULL.
                let unique = column.unique || table.indexes.contains { $0.unique && $0.columns == [column.uid] }
                row[column.uid] = !unique && model.table(reference.table)?.rows[1] != nil && Bool.random(using: &rng) ? .integer(1) : .null
            } else if column.optional && Int.random(in: 0..<4, using: &rng) == 0 {
                row[column.uid] = .null
            } else {
                row[column.uid] = value(column.kind, row: id, column: column.uid)
            }
        }
        return row
    }

    static func insert(_ table: Table, id: Int64?, row: [Int: DatabaseValue], into conn: Connection) throws {
        var names = table.columns.map { sqlQuoted($0.name) }
        var values = table.columns.map { row[$0.uid] ?? .null }
        if let id {
            names.insert("\"id\"", at: 0)
            values.insert(.integer(id), at: 0)
        }
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        let sql = names.isEmpty
            ? "INSERT INTO \(sqlQuoted(table.name)) DEFAULT VALUES"
            : "INSERT INTO \(sqlQuoted(table.name)) (\(names.joined(separator: ", "))) VALUES (\(placeholders))"
        try conn.execute(sql: sql, arguments: StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? }))
    }

    /// Every row of every table, compared by key with the model; the number of rows checked.
    static func compare(_ conn: Connection, with model: Model, context: String) throws -> (Int, [String]) {
        var problems: [String] = []
        var checked = 0
        for table in model.tables {
            let columns = ["\"id\""] + table.columns.map { sqlQuoted($0.name) }
            let rows = try conn.fetch(sql: "SELECT \(columns.joined(separator: ", ")) FROM \(sqlQuoted(table.name)) ORDER BY \"id\"")
            let actual = rows.map(\.values)
            let expected = table.rows.keys.sorted().map { id in [.integer(id)] + table.columns.map { table.rows[id]?[$0.uid] ?? .null } }
            if actual != expected {
                problems.append("\(context): table \(table.name) rows differ:\n  expected \(expected)\n  actual   \(actual)")
            }
            checked += actual.count
        }
        return (checked, problems)
    }

    // MARK: - A trial

    static func trial(seed: UInt64, migrationsPerTrial: Int, figures: inout Figures) {
        var rng = SeededGenerator(state: seed)
        var model = Model()
        var migrations: [Migration] = []
        var history: [String] = []
        let failuresBefore = figures.failures.count
        func fail(_ text: String) {
            figures.failures.append("seed \(seed): \(text)\n--- schemas:\n\(history.joined(separator: "\n---\n"))")
        }
        do {
            let db = try Database.inMemory()
            // v1: one to three tables.
            var step = Step(databaseTables: [], databaseColumns: [:])
            for _ in 0..<Int.random(in: 1...3, using: &rng) { _ = edit(&model, &step, &rng, kind: "add table") }
            for version in 0...migrationsPerTrial {
                if version > 0 {
                    // Hints stay in the model's schema, as in a real schema file.
                    step = Step(
                        databaseTables: Set(model.tables.map { SQLName.key($0.name) }),
                        databaseColumns: Dictionary(uniqueKeysWithValues: model.tables.map { ($0.uid, Set($0.columns.map { SQLName.key($0.name) })) }),
                        databaseNames: Dictionary(
                            uniqueKeysWithValues: model.tables.flatMap { table in [(table.uid, table.name)] + table.columns.map { ($0.uid, $0.name) } }))
                    for _ in 0..<Int.random(in: 1...3, using: &rng) {
                        if let kind = edit(&model, &step, &rng) { figures.edits[kind, default: 0] += 1 }
                    }
                    keepUniqueSatisfiable(&model)
                }
                let yaml = yaml(model)
                history.append(yaml)
                let schema = try SchemaLoader.load(contents: yaml, path: "Evolve.schema.yml")
                let plan = try MigrationPlanner.plan(schema: schema, migrations: migrations, options: .init(allowDestructive: true))
                figures.migrations += 1
                if plan.isEmpty {
                    figures.emptyMigrations += 1
                } else {
                    let number = migrations.count + 1
                    let migration = Migration(
                        version: number, name: "step_\(number)",
                        sql: MigrationRenderer.render(plan, version: number, name: "step_\(number)", schemaFile: "Evolve.schema.yml"))
                    migrations.append(migration)
                    try Migrator(migrations: migrations).migrate(db)
                }
                // After: compare every row, then — for the next migration — delete the highest
                // row of each AUTOINCREMENT table and insert rows into every table (ids continue
                // the counter; the first rows of a new table at version 1).
                let (checked, problems) = try db.read { conn in try compare(conn, with: model, context: "after migration \(version + 1)") }
                figures.rowsChecked += checked
                if !problems.isEmpty {
                    fail(problems.joined(separator: "\n"))
                    return
                }
                try db.write { conn in
                    for index in model.tables.indices {
                        var table = model.tables[index]
                        // Row 1 stays: it is the one foreign keys point at.
                        if table.autoincrement, let highest = table.rows.keys.max(), highest > 1 {
                            try conn.execute(sql: "DELETE FROM \(sqlQuoted(table.name)) WHERE \"id\" = ?", arguments: [highest])
                            table.rows[highest] = nil
                        }
                        for _ in 0..<(version == 0 ? Int.random(in: 2...5, using: &rng) : 1) {
                            let id = table.autoincrement ? table.counter + 1 : (table.rows.keys.max() ?? 0) + 1
                            let row = newRow(table, id: id, model: model, &rng)
                            try insert(table, id: nil, row: row, into: conn)
                            let given = Int64(conn.lastInsertedRowID)
                            if given != id {
                                fail("after migration \(version + 1): the new row of \(table.name) got id \(given), expected \(id)")
                            }
                            table.rows[given] = row
                            table.counter = max(table.counter, given)
                        }
                        model.tables[index] = table
                    }
                }
                if figures.failures.count > failuresBefore { return }
            }
            // The end of the chain against a fresh database built from the final schema.
            let final = try SchemaLoader.load(contents: yaml(model), path: "Evolve.schema.yml")
            let fresh = try Database.inMemory()
            try fresh.writeWithoutTransaction { conn in
                for statement in MigrationReplay.declaredStatements(of: final) { try conn.execute(sql: statement) }
                try conn.execute(sql: "PRAGMA foreign_keys = OFF")
                for table in model.tables {
                    for id in table.rows.keys.sorted() { try insert(table, id: id, row: table.rows[id] ?? [:], into: conn) }
                }
            }
            let chained = try db.read { conn in try SchemaIntrospector.introspect(conn) }
            let built = try fresh.read { conn in try SchemaIntrospector.introspect(conn) }
            let differences = SchemaDiff.compare(from: chained, to: built)
            if !differences.isEmpty { fail("chain and fresh database differ: \(differences)") }
            for table in model.tables {
                let columns = ["\"id\""] + table.columns.map { sqlQuoted($0.name) }
                let select = "SELECT \(columns.joined(separator: ", ")) FROM \(sqlQuoted(table.name)) ORDER BY \"id\""
                let a = try db.read { conn in try conn.fetch(sql: select).map(\.values) }
                let b = try fresh.read { conn in try conn.fetch(sql: select).map(\.values) }
                if a != b { fail("table \(table.name): chain \(a) but fresh \(b)") }
                figures.rowsChecked += a.count
            }
            let (integrity, violations) = try db.read { conn in
                (try conn.fetchValue(String.self, sql: "PRAGMA integrity_check"), try conn.fetch(sql: "PRAGMA foreign_key_check").count)
            }
            if integrity != "ok" || violations != 0 { fail("integrity \(integrity ?? "nil"), \(violations) foreign key violations") }
            let verified = try MigrationVerifier.differences(schema: final, migrations: migrations)
            if !verified.isEmpty { fail("the verifier disagrees: \(verified)") }
            let again = try MigrationPlanner.plan(schema: final, migrations: migrations, options: .init(allowDestructive: true))
            if !again.isEmpty { fail("planning the final schema again is not empty: \(again.statements)") }
        } catch {
            fail("\(error)")
        }
    }

    @Test(.timeLimit(.minutes(30))) func randomEvolutionsKeepEveryRow() throws {
        let trials = Reliability.size("STRATA_EVOLUTION_TRIALS", fast: 200, long: 3000)
        let chain = Reliability.size("STRATA_EVOLUTION_CHAIN", fast: 3, long: 3)
        let base = UInt64(Reliability.environment["STRATA_EVOLUTION_SEED"] ?? "") ?? 21
        var figures = Figures()
        for trial in 0..<trials {
            figures.trials += 1
            Self.trial(seed: base &* 1_000_003 &+ UInt64(trial), migrationsPerTrial: chain, figures: &figures)
            if figures.failures.count >= 3 { break }
        }
        let edits = figures.edits.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        Reliability.figure(
            "schema evolution: \(figures.trials) trials, \(figures.migrations) migrations (\(figures.emptyMigrations) empty), "
                + "\(figures.rowsChecked) rows checked, \(figures.failures.count) failures; edits: \(edits)")
        #expect(figures.failures.isEmpty, "\(figures.failures.first ?? "")")
        #expect(figures.trials == trials)
    }
}
