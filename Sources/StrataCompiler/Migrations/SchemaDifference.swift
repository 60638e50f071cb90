/// One structural difference found by ``SchemaDiff/compare(from:to:viewsAndTriggers:)``
/// between a current structure and a target one: a typed value, made into a sentence in the
/// words of whoever reports it (``sentence(_:)``) only when it is printed.
///
/// Its ``subject`` (the table, column or index it is about) is what ``SchemaLocator`` finds
/// the line of; every sentence starts with that subject in SQL names (`column customer.phone …`,
/// `table customer …`, `table customer: CHECK …`, `index customer_email …`).
struct SchemaDifference: Hashable, Sendable, CustomStringConvertible {
    /// Which side has what the other lacks.
    enum Side: Hashable, Sendable {
        /// The target has it, the current structure does not (missing).
        case onlyInTarget
        /// The current structure has it, the target does not (extra).
        case onlyInCurrent
    }

    /// How one column that both sides have differs.
    enum ColumnChange: Hashable, Sendable {
        case type(current: String, target: String)
        case notNull(target: Bool)
        case defaultValue(current: String?, target: String?)
        case primaryKeyPosition(current: Int, target: Int)
        case generated
        case collation(current: String?, target: String?)
    }

    /// What differs; the subject is ``name``.
    enum Change: Hashable, Sendable {
        case table(Side)
        case column(String, Side)
        case columnChanged(String, [ColumnChange])
        case primaryKey(current: [String], target: [String])
        case foreignKey(DatabaseForeignKey, Side)
        case unique([String], Side)
        /// A CHECK: normalized (what is compared) and as written (what is shown).
        case check(String, written: String, Side)
        case strict(target: Bool)
        case withoutRowid(target: Bool)
        case autoincrement(target: Bool)
        case index(summary: String, Side)
        case indexChanged(current: String, target: String)
        /// A view, trigger, full-text index or full-text trigger (`kind`).
        case object(kind: String, Side)
        case objectChanged(kind: String)
    }

    /// The table, index, view or trigger the difference is about.
    var name: String
    var change: Change

    init(_ name: String, _ change: Change) {
        self.name = name
        self.change = change
    }

    /// What the difference is about: its column, its table or index, or nothing with a line of
    /// its own (a view, a trigger, a full-text object).
    var subject: SchemaSubject {
        switch change {
        case .column(let column, _), .columnChanged(let column, _):
            .column(table: name, column: column)
        case .table, .primaryKey, .foreignKey, .unique, .check, .strict, .withoutRowid, .autoincrement:
            .table(name)
        case .index, .indexChanged:
            .index(name)
        case .object, .objectChanged:
            .unlocated
        }
    }

    /// The sentence in the migration verifier's words (what test failures print).
    var description: String { sentence(.schema) }

    /// Whose words a sentence is in: which structures the two sides are.
    enum Wording: Sendable {
        /// The migration verifier and planner: current is what the migrations build, target
        /// what the schema declares.
        case schema
        /// Drift: current is the live database, target what its migrations build.
        case drift
        /// A baseline: current is the live database, target what the first migration creates.
        case baseline

        /// Where the target's version is (`in the schema`).
        var target: String {
            switch self {
            case .schema: "in the schema"
            case .drift: "in the migrations"
            case .baseline: "in the migration"
            }
        }

        /// Where the current version is (`in the migrations`).
        var current: String {
            switch self {
            case .schema: "in the migrations"
            case .drift, .baseline: "in the database"
            }
        }

        /// Said of something only the target has; `whole` for a table, index or view, else a
        /// column or constraint.
        func missing(whole: Bool) -> String {
            switch self {
            case .schema: whole ? "is declared but the migrations do not create it" : "is declared but missing"
            case .drift: "is missing (the migrations create it)"
            case .baseline: "is created by the migration but missing from the database"
            }
        }

        /// Said of something only the current structure has.
        func extra(whole: Bool) -> String {
            switch self {
            case .schema: whole ? "is created by the migrations but not declared" : "exists but is not declared"
            case .drift: "is in the database but no migration creates it"
            case .baseline: "is in the database but not created by the migration"
            }
        }

        func presence(_ side: Side, whole: Bool) -> String {
            side == .onlyInTarget ? missing(whole: whole) : extra(whole: whole)
        }
    }

    /// The difference as one sentence.
    func sentence(_ wording: Wording) -> String {
        let (target, current) = (wording.target, wording.current)
        switch change {
        case .table(let side):
            return "table \(name) \(wording.presence(side, whole: true))"
        case .column(let column, let side):
            return "column \(name).\(column) \(wording.presence(side, whole: false))"
        case .columnChanged(let column, let changes):
            if wording == .schema {
                return "column \(name).\(column) \(Self.phrases(changes).joined(separator: ", "))"
            }
            return "column \(name).\(column) has \(changes.map { Self.found($0, wording) }.joined(separator: ", "))"
        case .primaryKey(let old, let new):
            return "table \(name) has primary key (\(new.joined(separator: ", "))) \(target) but (\(old.joined(separator: ", "))) \(current)"
        case .foreignKey(let key, let side):
            return "table \(name): foreign key \(key.summary) \(wording.presence(side, whole: false))"
        case .unique(let columns, let side):
            return "table \(name): UNIQUE (\(columns.joined(separator: ", "))) \(wording.presence(side, whole: false))"
        case .check(_, let written, let side):
            return "table \(name): CHECK (\(written)) \(wording.presence(side, whole: false))"
        case .strict(let flag):
            return "table \(name) is \(flag ? "" : "not ")STRICT \(target) but \(flag ? "not " : "")STRICT \(current)"
        case .withoutRowid(let flag):
            return "table \(name) is \(flag ? "" : "not ")WITHOUT ROWID \(target) but \(flag ? "not " : "")WITHOUT ROWID \(current)"
        case .autoincrement(let flag):
            return "table \(name) \(flag ? "uses" : "does not use") AUTOINCREMENT \(target) but \(flag ? "does not" : "does") \(current)"
        case .index(let summary, let side):
            return "index \(name) (\(summary)) \(wording.presence(side, whole: true))"
        case .indexChanged(let old, let new):
            return "index \(name) is \(new) \(target) but \(old) \(current)"
        case .object(let kind, let side):
            return "\(kind) \(name) \(wording.presence(side, whole: true))"
        case .objectChanged(let kind):
            return "\(kind) \(name) is defined differently \(target) and \(current)"
        }
    }

    /// What happens to a column, from current to target (`changes type from INTEGER to TEXT`,
    /// `becomes NOT NULL`): the verifier's words, and the planner's reasons to rebuild.
    static func phrases(_ changes: [ColumnChange]) -> [String] {
        changes.map { change in
            switch change {
            case .type(let old, let new): "changes type from \(old) to \(new)"
            case .notNull(let flag): flag ? "becomes NOT NULL" : "becomes nullable"
            case .defaultValue(let old, let new): "changes default from \(old ?? "none") to \(new ?? "none")"
            case .primaryKeyPosition(_, let new): new > 0 ? "joins the primary key" : "leaves the primary key"
            case .generated: "changes whether it is generated"
            case .collation(let old, let new): "changes collation from \(old?.uppercased() ?? "BINARY") to \(new?.uppercased() ?? "BINARY")"
            }
        }
    }

    /// What the current column has that the target's lacks, with what the target gives
    /// (`type TEXT (the migrations give INTEGER)`): drift's and baseline's words.
    static func found(_ change: ColumnChange, _ wording: Wording) -> String {
        let (gives, leaves, makes) = wording == .baseline
            ? ("the migration gives", "the migration leaves", "the migration makes")
            : ("the migrations give", "the migrations leave", "the migrations make")
        switch change {
        case .type(let old, let new): return "type \(old) (\(gives) \(new))"
        case .notNull(let flag): return flag ? "nullable (\(makes) it NOT NULL)" : "NOT NULL (\(leaves) it nullable)"
        case .defaultValue(let old, let new): return "default \(old ?? "none") (\(gives) \(new ?? "none"))"
        case .primaryKeyPosition: return "a different place in the primary key"
        case .generated: return "a different generated-column kind"
        case .collation(let old, let new): return "collation \(old?.uppercased() ?? "BINARY") (\(gives) \(new?.uppercased() ?? "BINARY"))"
        }
    }
}
