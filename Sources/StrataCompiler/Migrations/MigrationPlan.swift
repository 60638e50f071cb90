import Strata

/// What a migration does: one summary line per change (for the file's header) and the SQL
/// statements, in the order they run.
package struct MigrationPlan: Hashable, Sendable {
    /// Human-readable lines: `add column customer.phone (TEXT NOT NULL DEFAULT '')`.
    package var changes: [String] = []
    /// The statements, without trailing semicolons.
    package var statements: [String] = []

    /// Creates a plan.
    package init(changes: [String] = [], statements: [String] = []) {
        self.changes = changes
        self.statements = statements
    }

    /// True when the schema did not change.
    package var isEmpty: Bool { statements.isEmpty }
}

/// A migration the planner will not write, with what to do about each problem.
package struct MigrationPlanningError: Error, Sendable, CustomStringConvertible {
    /// One sentence per problem, each saying what to do.
    package var problems: [String]
    /// Where in the schema file each problem is, when it is at one line (parallel to
    /// ``problems``; nil for a problem of the whole schema).
    package var locations: [SourceLocation?]

    /// Creates the error.
    package init(_ problems: [String], locations: [SourceLocation?] = []) {
        self.problems = problems
        self.locations = problems.indices.map { $0 < locations.count ? locations[$0] : nil }
    }

    package var description: String { problems.joined(separator: "\n") }
}

/// A migration the planner refuses to write for one reason: what it is about (for the line of
/// the error) and the sentence saying what to do.
struct PlanningProblem: Hashable, Sendable {
    var subject: SchemaSubject
    var sentence: String

    init(_ subject: SchemaSubject, _ sentence: String) {
        self.subject = subject
        self.sentence = sentence
    }
}

/// A `renamedFrom` rename the database still lacks: of a table (`table` nil) or of a column
/// of `table` (by its name after the table renames).
struct PendingRename: Hashable, Sendable {
    var table: String?
    var from: String
    var to: String

    /// The migration's summary line: `rename column customer.mail to email`.
    var summary: String {
        if let table { return "rename column \(table).\(from) to \(to)" }
        return "rename table \(from) to \(to)"
    }

    /// The renamed table or column, at its new name (where `renamedFrom:` is written).
    var subject: SchemaSubject {
        if let table { return .column(table: table, column: to) }
        return .table(to)
    }
}
