import Strata

/// Renames planned as a permutation of names.
///
/// `renamedFrom` hints stay in the schema file after the migration that applied them, so the
/// planner decides from the database which hints are still to do:
///
/// - a hint whose old name is not in the database was applied long ago (or names nothing);
/// - a hint whose new name is not in the database is to do;
/// - a hint whose new name is in the database is to do only when that name is itself moved
///   away by a hint that is to do (a chain `a → b`, `b → c`, or an old name reused for a new
///   column);
/// - hints that form a cycle (`first` ↔ `last`) leave the same names before and after, so the
///   existing migrations decide: the cycle is done when one of them performed exactly these
///   renames;
/// - a case-only rename (`Items` → `items`, `café` → `CAFÉ`) is to do while the database's
///   spelling differs.
///
/// The moves run in an order that never renames onto a name still in use, through temporary
/// names for cycles (and for case-only table renames, which SQLite refuses directly).
extension MigrationPlanner {
    /// One rename hint: the declared name and the name it was renamed from.
    struct RenameHint: Hashable {
        var to: String
        var from: String
    }

    /// One rename: a name in the database and the name it gets.
    struct Move: Hashable {
        var from: String
        var to: String
    }

    /// The hints of `hints` still to do against the names `existing` (database spellings),
    /// each with its old name spelled as in the database.
    static func pendingHints(_ hints: [RenameHint], existing: [String], done: [[Move]]?) -> [RenameHint] {
        func spelling(_ name: String) -> String? { existing.first { SQLName.same($0, name) } }
        var caseOnly: [RenameHint] = []
        var moves: [RenameHint] = []
        for hint in hints {
            guard let source = spelling(hint.from), !SQLName.identical(source, hint.to) else { continue }
            if SQLName.same(source, hint.to) {
                caseOnly.append(RenameHint(to: hint.to, from: source))
            } else {
                moves.append(RenameHint(to: hint.to, from: source))
            }
        }
        var pending = Set(moves.indices.filter { spelling(moves[$0].to) == nil })
        func settle() {
            var changed = true
            while changed {
                changed = false
                for index in moves.indices where !pending.contains(index) {
                    if pending.contains(where: { SQLName.same(moves[$0].from, moves[index].to) }) {
                        pending.insert(index)
                        changed = true
                    }
                }
            }
        }
        settle()
        // Cycles: follow each hint to the hint that moves its new name away, back to itself.
        var seen: Set<Int> = pending
        for start in moves.indices where !seen.contains(start) {
            var cycle = [start]
            var current = start
            while let next = moves.indices.first(where: { SQLName.same(moves[$0].from, moves[current].to) }), next != start,
                !cycle.contains(next)
            {
                cycle.append(next)
                current = next
            }
            seen.formUnion(cycle)
            let closes = moves.indices.contains { SQLName.same(moves[$0].from, moves[current].to) && $0 == start }
            guard closes else { continue }
            let applied = done?.contains { migration in
                cycle.allSatisfy { index in
                    migration.contains { SQLName.same($0.from, moves[index].from) && SQLName.same($0.to, moves[index].to) }
                }
            } ?? false
            if !applied { pending.formUnion(cycle) }
        }
        settle()
        return caseOnly + moves.indices.filter { pending.contains($0) }.map { moves[$0] }
    }

    /// Why a hint `from → name` that is not to do cannot be planned, or nil: both names are in
    /// the database, `name` stays, and `from` is declared nowhere (so it would be dropped).
    /// Either an earlier migration did this rename and `from` is an old column to drop now, or
    /// `name` is to be dropped and `from` renamed into its place: the database looks the same
    /// both ways, so the planner does not guess.
    static func ambiguousHint(
        kind: String, name: String, target: String, from: String, existing: [String], declared: [String], pending: [RenameHint]
    ) -> String? {
        guard let source = existing.first(where: { SQLName.same($0, from) }), !SQLName.same(source, target),
            existing.contains(where: { SQLName.same($0, target) }),
            !declared.contains(where: { SQLName.same($0, source) }),
            !pending.contains(where: { SQLName.same($0.to, target) })
        else { return nil }
        return "\(kind) \(name) has `renamedFrom: \(from)`, but the database has both \(source) and \(target) and \(source) is no longer declared: "
            + "if an earlier migration already did this rename, remove `renamedFrom: \(from)` (\(source) is then dropped, with --allow-destructive); "
            + "if the old \(target) is to be replaced by \(source), drop \(target) in a migration of its own first"
    }

    /// `pending` as an order of single renames, through temporary names where a name is still
    /// taken. `temporary` returns a fresh name each time it is called; `direct` says whether a
    /// case-only rename can be done in one step (columns yes, tables no).
    static func orderedMoves(_ pending: [RenameHint], direct caseOnlyIsDirect: Bool, temporary: () -> String) -> [Move] {
        var result: [Move] = []
        var remaining: [Move] = []
        for hint in pending {
            if SQLName.same(hint.from, hint.to) {
                if caseOnlyIsDirect {
                    result.append(Move(from: hint.from, to: hint.to))
                } else {
                    let name = temporary()
                    result += [Move(from: hint.from, to: name), Move(from: name, to: hint.to)]
                }
            } else {
                remaining.append(Move(from: hint.from, to: hint.to))
            }
        }
        while !remaining.isEmpty {
            if let free = remaining.firstIndex(where: { move in !remaining.contains { SQLName.same($0.from, move.to) } }) {
                result.append(remaining.remove(at: free))
            } else {
                // Every new name is still taken: a cycle. Park one name under a temporary one.
                let name = temporary()
                result.append(Move(from: remaining[0].from, to: name))
                remaining[0].from = name
            }
        }
        return result
    }

    /// The renames each migration performed, as net moves (old name → name after that
    /// migration) of tables, and of columns with the name their table has after the last
    /// migration, read from the `ALTER TABLE … RENAME` statements.
    static func renameHistory(_ migrations: [Migration]) -> RenameHistory {
        var history = RenameHistory()
        for migration in migrations {
            var tableMoves: [Move] = []
            var columnMoves: [(table: String, move: Move)] = []
            func renameTable(from: String, to: String) {
                if let index = tableMoves.firstIndex(where: { SQLName.same($0.to, from) }) {
                    tableMoves[index].to = to
                } else {
                    tableMoves.append(Move(from: from, to: to))
                }
                for index in columnMoves.indices where SQLName.same(columnMoves[index].table, from) { columnMoves[index].table = to }
                for step in history.columns.indices {
                    for index in history.columns[step].indices where SQLName.same(history.columns[step][index].table, from) {
                        history.columns[step][index].table = to
                    }
                }
            }
            func renameColumn(in table: String, from: String, to: String) {
                if let index = columnMoves.firstIndex(where: { SQLName.same($0.table, table) && SQLName.same($0.move.to, from) }) {
                    columnMoves[index].move.to = to
                } else {
                    columnMoves.append((table, Move(from: from, to: to)))
                }
            }
            // Only `ALTER TABLE … RENAME` renames: a migration without the word is not tokenized.
            let tokens = Self.mentionsRename(migration.sql) ? SQLTokenizer.tokenize(migration.sql) : []
            var index = 0
            while index + 5 < tokens.count {
                defer { index += 1 }
                guard tokens[index].isKeyword("ALTER"), tokens[index + 1].isKeyword("TABLE"), tokens[index + 3].isKeyword("RENAME")
                else { continue }
                var at = index + 4
                if tokens[at].isKeyword("TO") {
                    renameTable(from: tokens[index + 2].value, to: tokens[at + 1].value)
                    continue
                }
                if tokens[at].isKeyword("COLUMN") { at += 1 }
                if at + 2 < tokens.count, tokens[at + 1].isKeyword("TO") {
                    renameColumn(in: tokens[index + 2].value, from: tokens[at].value, to: tokens[at + 2].value)
                }
            }
            history.tables.append(tableMoves.filter { !SQLName.identical($0.from, $0.to) })
            history.columns.append(columnMoves.filter { !SQLName.identical($0.move.from, $0.move.to) }.map { ColumnMove(table: $0.table, move: $0.move) })
        }
        return history
    }

    /// Whether `sql` holds `rename` in any ASCII case (no other characters upper-case to
    /// those letters, so a token that is the keyword `RENAME` is such a run).
    static func mentionsRename(_ sql: String) -> Bool {
        let word = Array("rename".utf8)
        var matched = 0
        for byte in sql.utf8 {
            // `| 0x20` lowers an ASCII capital; only R, E, N, A, M (and the lower-case letters
            // themselves) give these letters.
            let lower = byte | 0x20
            if lower == word[matched] {
                matched += 1
                if matched == word.count { return true }
            } else {
                matched = lower == word[0] ? 1 : 0  // no proper prefix of "rename" is a suffix of it
            }
        }
        return false
    }

    /// A column rename of the history, with its table's latest name.
    struct ColumnMove: Hashable {
        var table: String
        var move: Move
    }

    /// The renames done by each existing migration.
    struct RenameHistory: Hashable {
        var tables: [[Move]] = []
        var columns: [[ColumnMove]] = []

        /// The column renames of each migration in the table named `table` now.
        func columns(of table: String) -> [[Move]] {
            columns.map { $0.filter { SQLName.same($0.table, table) }.map(\.move) }
        }
    }

    /// A name that is none of `taken` (compared as SQLite compares names); `taken` gets it.
    static func freshName(_ base: String, avoiding taken: inout Set<SQLName.Key>) -> String {
        var name = base
        var number = 1
        while taken.contains(SQLName.key(name)) {
            number += 1
            name = "\(base)_\(number)"
        }
        taken.insert(SQLName.key(name))
        return name
    }

    /// Every name in the database's namespace of tables, indexes and views, and every declared
    /// table and index name: what a temporary table must not be called.
    static func takenTableNames(_ current: DatabaseSchema, declared: DatabaseSchema, schema: Schema) -> Set<SQLName.Key> {
        var names = current.tables.map(\.name) + current.indexes.map(\.name) + current.views.map(\.name) + current.triggers.map(\.name)
        names += declared.tables.map(\.name) + declared.indexes.map(\.name)
        names += schema.tables.flatMap { [$0.sqlName] + ($0.renamedFrom.map { [$0] } ?? []) }
        names += [Migrator.historyTable]
        return Set(names.map(SQLName.key))
    }
}
