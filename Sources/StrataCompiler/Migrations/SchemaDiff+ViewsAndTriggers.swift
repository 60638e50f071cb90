/// Views and triggers in the structural comparison.
///
/// A schema that declares top-level `views:` (or `triggers:`) manages all of them: a view of the
/// database that is not declared, or one whose SQL differs, is a difference. A schema that
/// declares none leaves them alone, so triggers and views added by hand-written migrations keep
/// working. SQL is compared after the object's name, token by token: case, quoting, whitespace
/// and comments do not count.
extension SchemaDiff {
    /// The differences in views and triggers.
    static func viewAndTriggerDifferences(from current: DatabaseSchema, to declared: DatabaseSchema) -> [SchemaDifference] {
        var result: [SchemaDifference] = []
        if !declared.views.isEmpty {
            result += objectDifferences(
                kind: "view", current: current.views.map { ($0.name, $0.sql) }, declared: declared.views.map { ($0.name, $0.sql) })
        }
        if !declared.triggers.isEmpty {
            result += objectDifferences(
                kind: "trigger", current: current.triggers.map { ($0.name, $0.sql) },
                declared: declared.triggers.map { ($0.name, $0.sql) })
        }
        return result
    }

    /// Named SQL objects (views, triggers, full-text indexes) compared by their definitions.
    static func objectDifferences(
        kind: String, current: [(name: String, sql: String)], declared: [(name: String, sql: String)]
    ) -> [SchemaDifference] {
        var result: [SchemaDifference] = []
        for object in declared {
            guard let old = current.first(where: { SQLName.same($0.name, object.name) }) else {
                result.append(SchemaDifference(object.name, .object(kind: kind, .onlyInTarget)))
                continue
            }
            if definition(of: old.sql) != definition(of: object.sql) {
                result.append(SchemaDifference(object.name, .objectChanged(kind: kind)))
            }
        }
        for object in current where !declared.contains(where: { SQLName.same($0.name, object.name) }) {
            result.append(SchemaDifference(object.name, .object(kind: kind, .onlyInCurrent)))
        }
        return result
    }

    /// The normalized tokens of a `CREATE VIEW` / `CREATE TRIGGER` / `CREATE VIRTUAL TABLE`
    /// statement after the object's name (`CREATE [TEMP] VIEW [IF NOT EXISTS] [schema.]name`).
    static func definition(of sql: String) -> String {
        let tokens = SQLTokenizer.tokenize(sql)
        var index = 0
        let skipped: Set<String> = ["CREATE", "TEMP", "TEMPORARY", "VIEW", "TRIGGER", "VIRTUAL", "TABLE", "IF", "NOT", "EXISTS"]
        while index < tokens.count, tokens[index].kind == .word, skipped.contains(tokens[index].text.uppercased()) { index += 1 }
        index += 1  // the name
        if index + 1 < tokens.count, tokens[index].text == "." { index += 2 }  // schema.name
        return SQLTokenizer.normalize(tokens[min(index, tokens.count)...])
    }
}
