// Collations: `collate:` on columns, `options: { collations: }`, and the keys of indexes
// (`"name COLLATE NOCASE"`, `"due DESC"`, `expression:`).
extension SchemaDecoder {
    /// `options: { collations: [unicase] }`: names the app registers with
    /// `Database.Configuration(collations:)`.
    mutating func declaredCollations(_ node: YAMLNode) -> [String] {
        if node.isNull { return [] }
        guard let items = node.items else {
            error(node.location, "'collations' must be a list of collation names, found \(node.kindDescription)",
                  hint: "for example collations: [unicase]")
            return []
        }
        var names: [String] = []
        for item in items {
            guard let name = string(item, "a collation name") else { continue }
            if Collation.isBuiltIn(name) {
                error(item.location, "'\(name)' is one of SQLite's built-in collations, which need no declaration",
                      hint: "remove it from 'collations'")
            } else if !Self.isCollationName(name) {
                error(item.location, "collation name '\(name)' must be a plain identifier (letters, digits and '_')")
            } else if names.contains(where: { SQLName.same($0, name) }) {
                error(item.location, "collation '\(name)' is declared twice")
            } else {
                names.append(name)
            }
        }
        return names
    }

    /// Whether `name` is a plain identifier (ASCII letters, digits and `_`, not starting with a
    /// digit): the names a schema may declare, and the ones DDL writes unquoted.
    static func isCollationName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ($0.value >= 48 && $0.value <= 57))) }
    }

    /// The collation `name` of `context` as the model keeps it (built-in names lower-cased),
    /// or nil after an error at `location` when the schema does not know it.
    mutating func collation(_ name: String, at location: SourceLocation, of context: String) -> String? {
        if Collation.isBuiltIn(name) { return SQLName.fold(name) }
        if let declared = declaredCollations.first(where: { SQLName.same($0, name) }) { return declared }
        let known = Collation.builtIn + declaredCollations
        let register = "an app's own collation: register it with Database.Configuration(collations: [\"\(name)\": …]) and declare it here: options: { collations: [\(name)] }"
        var hint = Self.isCollationName(name) ? register : nil
        if let suggestion = Suggestion.hint(for: name, in: known) { hint = hint.map { "\(suggestion) Or, for \($0)" } ?? suggestion }
        error(location, "\(context) names the collation '\(name)', which is neither built in (binary, nocase, rtrim) nor declared in 'options: { collations: }'",
              hint: hint)
        return nil
    }

    /// One key of `indexes: - columns:`: `name`, `name COLLATE NOCASE`, `due DESC`.
    mutating func indexKey(_ text: String, at location: SourceLocation, table: Table) -> (column: Column, options: Index.KeyOptions)? {
        let tokens = SQLTokenizer.tokenize(text)
        guard let first = tokens.first, first.kind == .word || first.kind == .identifier else {
            error(location, "index key '\(text)' does not start with a column name",
                  hint: "for an index on an expression, use { expression: \"\(text)\" }")
            return nil
        }
        var options = Index.KeyOptions()
        var position = 1
        if position < tokens.count, tokens[position].isKeyword("COLLATE") {
            guard position + 1 < tokens.count, tokens[position + 1].kind == .word || tokens[position + 1].kind == .identifier else {
                error(location, "index key '\(text)' has COLLATE without a collation name", hint: "for example \"\(first.text) COLLATE NOCASE\"")
                return nil
            }
            options.collation = collation(tokens[position + 1].value, at: location, of: "index key '\(text)'")
            if options.collation == nil { return nil }
            position += 2
        }
        if position < tokens.count, tokens[position].isKeyword("ASC") || tokens[position].isKeyword("DESC") {
            options.isDescending = tokens[position].isKeyword("DESC")
            position += 1
        }
        guard position == tokens.count else {
            error(location, "index key '\(text)' must be a column name, optionally followed by COLLATE <collation> and ASC or DESC",
                  hint: "for an index on an expression, use { expression: \"\(text)\" }")
            return nil
        }
        guard let column = Self.column(first.value, in: table) else {
            error(location, "index names unknown column '\(first.value)'",
                  hint: Suggestion.hint(for: first.value, in: table.columns.map(\.name)))
            return nil
        }
        return (column, options)
    }

    /// The default name of an index on `expression`: the table's SQL name and the words of the
    /// expression (`users_lower_email`).
    static func expressionIndexName(table: Table, expression: String) -> String {
        let words = SQLTokenizer.tokenize(expression).filter { $0.kind == .word || $0.kind == .identifier }.map(\.value)
        return ([table.sqlName] + (words.isEmpty ? ["expression"] : words)).joined(separator: "_")
    }
}
