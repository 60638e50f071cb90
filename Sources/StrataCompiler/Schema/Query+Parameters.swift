import Strata

/// The parameters of a table's named query (`tables: … queries:`), typed by the same analysis
/// as the top-level `queries:` (``QueryTyper``), over the SELECT that
/// ``SQLRenderer/selectSQL(_:on:notExpired:)`` builds and the generated code runs.
enum TableQueryParameters {
    /// What the typing found where a parameter is used.
    struct Inference: Equatable {
        /// The type of what it is compared with or used as.
        var type: ColumnType
        /// Whether it may be NULL (`col IS :p`).
        var isOptional: Bool
        /// The date format of the date column it is compared with (nil: the default text).
        var dateFormat: DateStorage?
    }

    /// The `:name` parameters of `sql` in order of first appearance (the order SQLite numbers
    /// them), and the parameters generated code cannot bind by name (`?`, `@x`, `$x`) as written.
    static func names(in sql: String) -> (names: [String], others: [String]) {
        var names: [String] = []
        var others: [String] = []
        for token in SQLTokenizer.expressionTokens(of: sql) {
            if token.kind == .otherParameter { others.append(token.text) }
            if case .parameter(let name) = token.kind, !names.contains(name) { names.append(name) }
        }
        return (names, others)
    }

    /// The parameters of `query` on `table`: their names (those of `where`, in order), what the
    /// typing found for each where it is used, and the other-style parameters of `where`.
    /// `declared` are the `params:` types, which the typing takes as given.
    static func infer(
        _ query: Query, table: Table, schema: Schema, declared: [String: ColumnType] = [:]
    ) -> (names: [String], inferred: [String: [Inference]], others: [String]) {
        let (names, others) = self.names(in: query.whereClause ?? "")
        let overrides = declared.reduce(into: [String: SQLQuery.ParameterOverride]()) { result, entry in
            result[entry.key] = SQLQuery.ParameterOverride(name: entry.key, type: entry.value)
        }
        // The result columns say nothing about the parameters: typed as one literal, not as
        // every column of the table.
        let tokens = SQLTokenizer.expressionTokens(of: SQLRenderer.selectSQL(query, on: table, resultColumns: "1"))
        let facts = QueryTyper.type(tokens, schema: schema, parameterTypes: overrides)
        let inferred = facts.uses.mapValues { uses in
            uses.map { Inference(type: $0.base, isOptional: $0.optional, dateFormat: $0.dateFormat) }
        }
        return (names, inferred, others)
    }
}
