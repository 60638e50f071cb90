/// The top-level `views:` and `triggers:` run against the schema's tables in SQLite, so a typo
/// in their SQL is an error at their line, as for a table.
extension SchemaDecoder {
    mutating func checkViewsAndTriggers(_ schema: Schema, sqlite: SQLiteChecker) {
        let fileStart = SourceLocation(file: file, line: 1, column: 1)
        for view in schema.views {
            if let message = sqlite.executeDDL(SQLRenderer.createViewSQL(view)) {
                error(view.location ?? fileStart, "SQLite rejects view '\(view.name)': \(message)")
            } else if case .failure(let problem) = sqlite.prepare("SELECT * FROM \(SQLRenderer.quoteIdentifier(view.name)) LIMIT 0") {
                // CREATE VIEW does not resolve names; a SELECT from it does.
                error(view.location ?? fileStart, "SQLite rejects view '\(view.name)': \(problem.text)")
            }
        }
        for trigger in schema.triggers {
            let tokens = SQLTokenizer.tokenize(trigger.sql)
            guard tokens.first?.isKeyword("CREATE") == true, tokens.contains(where: { $0.isKeyword("TRIGGER") }) else {
                error(trigger.location ?? fileStart, "trigger '\(trigger.name)' must be a CREATE TRIGGER statement",
                      hint: "write the whole statement: CREATE TRIGGER \(trigger.name) AFTER INSERT ON … BEGIN … END")
                continue
            }
            if let message = sqlite.executeDDL(trigger.sql) {
                error(trigger.location ?? fileStart, "SQLite rejects trigger '\(trigger.name)': \(message)")
            }
        }
    }
}
