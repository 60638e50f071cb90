import Testing
@testable import StrataCompiler

/// The expression tree: parsed once from ``SQLToken``s by SQLite's precedence, then walked by the
/// typer, the migration planner's mentions and the PostgreSQL rewriting.
@Suite struct SQLExpressionTreeTests {
    /// The tree as a bracketed string: operators with their operands, names as written.
    func shape(_ expression: SQLExpression, _ tokens: [SQLToken]) -> String {
        let text = { (range: Range<Int>) in range.map { tokens[$0].text }.joined(separator: " ") }
        switch expression.node {
        case .binary(let op, _, let left, let right): return "(\(shape(left, tokens)) \(op) \(shape(right, tokens)))"
        case .equality(let left, let right): return "(\(shape(left, tokens)) = \(shape(right, tokens)))"
        case .not(let operand): return "(NOT \(shape(operand, tokens)))"
        case .prefix(let op, let operand): return "(\(op)\(shape(operand, tokens)))"
        case .between(let value, let low, let high):
            return "(\(shape(value, tokens)) BETWEEN \(shape(low, tokens)) AND \(shape(high, tokens)))"
        case .inList(let left, let elements, _):
            return "(\(shape(left, tokens)) IN [\(elements.map { shape($0, tokens) }.joined(separator: ", "))])"
        case .function(let call):
            return "\(tokens[call.name].text)[\(call.arguments.map { shape($0.value, tokens) }.joined(separator: ", "))]"
        case .parenthesized(let inner): return shape(inner, tokens)
        case .column(let parts): return parts.map { tokens[$0].value }.joined(separator: ".")
        default: return text(expression.tokens)
        }
    }

    func parse(_ sql: String) -> (SQLExpression, end: Int, count: Int, shape: String) {
        let tokens = SQLTokenizer.expressionTokens(of: sql)
        var parser = SQLExpressionParser(tokens: tokens)
        let expression = parser.expression()
        return (expression, parser.position, tokens.count, shape(expression, tokens))
    }

    @Test func operatorsNestBySQLitePrecedence() {
        #expect(parse("a OR b AND NOT c = 1").shape == "(a OR (b AND (NOT (c = 1))))")
        #expect(parse("1 + 2 * -x || 'y' < 3").shape == "((1 + (2 * ((-x) || 'y'))) < 3)")
        #expect(parse("a - b - c").shape == "((a - b) - c)")
        #expect(parse("x NOT BETWEEN 1 AND 2 AND y IN (1, :p)").shape == "((x BETWEEN 1 AND 2) AND (y IN [1, :p]))")
        #expect(parse("coalesce(t.a, max(b)) >= 2").shape == "(coalesce[t.a, max[b]] >= 2)")
        #expect(parse("j -> '$.a'").shape == "(j -> '$.a')")
    }

    /// The parser stops where an expression ends, and reads no token where none starts.
    @Test func parserStopsAtTheEndOfTheExpression() {
        let whole = parse("CASE WHEN a THEN (SELECT max(b) FROM t) ELSE CAST(c AS INTEGER) END AS x")
        #expect(whole.end == whole.count - 2)
        let missing = parse("FROM t")
        #expect(missing.end == 0)
        if case .missing(let reason) = missing.0.node { #expect(reason == "'FROM'") } else { Issue.record("not missing: \(missing.0.node)") }
    }

    /// Names a statement mentions: expressions' columns, the tables of its FROM and a trigger's
    /// target; not literals, parameters, or the keywords and CAST types an expression reads.
    @Test func mentionsWalkTheTree() {
        let view = SQLExpressionTree(parsing: "SELECT d.title, count(*) AS cards FROM deck d JOIN card c USING (deckId) WHERE c.due < :now GROUP BY d.id")
        #expect(Set(view.mentionedNames.map { $0.lowercased() }).isSuperset(of: ["deck", "card", "deckid", "d", "title", "c", "due", "id", "count", "cards"]))
        #expect(!view.mentions("now"))
        let trigger = SQLExpressionTree(parsing: "CREATE TRIGGER t AFTER UPDATE ON deck BEGIN INSERT INTO log(deckId, at) VALUES (NEW.id, CURRENT_TIMESTAMP); END")
        #expect(trigger.mentions("log") && trigger.mentions("DECKID") && trigger.mentions("at") && trigger.mentions("id"))
        let check = SQLExpressionTree(parsing: "CASE WHEN length(y) > 0 THEN CAST(y AS text) ELSE x'00' END <> @x")
        #expect(check.mentions("y"))
        #expect(!check.mentions("x") && !check.mentions("text") && !check.mentions("case") && !check.mentions("end"))
        #expect(SQLTokenizer.mentions("length(\"X\") > 0", name: "x"))
        #expect(SQLTokenizer.mentions("a IN (SELECT max(b) OVER w FROM t)", name: "w"))
    }

    /// The tree's rewriting quotes the names `PostgresRenderer.quotingNames` quotes, where they
    /// are names, and keeps everything else byte for byte.
    @Test func renderingQuotesNamesAsQuotingNamesDoes() {
        let names = ["authorId", "title", "X", "deck", "due", "count"]
        let corpus = [
            "authorId = :authorId AND length(title) > 0 AND AUTHORID > 1",
            "X = x'00' AND x <> X'ff' AND x = @x AND x = ?x AND x = $x AND x = :x",
            "-- x\nx = 'x' /* x */",
            "SELECT deck.title, count(*) AS count FROM deck WHERE due < strftime('%s', 'now') ORDER BY title COLLATE NOCASE DESC",
            "title IS NOT NULL AND (authorId BETWEEN 1 AND 9 OR authorId IN (SELECT authorId FROM deck))",
            "CASE WHEN due ISNULL THEN -authorId ELSE coalesce(due, 0) END >= 1e-3",
            "EXISTS (SELECT 1 FROM deck d WHERE d.due = deck.due LIMIT 1)",
            "sum(authorId) FILTER (WHERE title GLOB 'a*') OVER (PARTITION BY deck ORDER BY due)",
            "(authorId, title) = (1, 'a')",
            "title LIKE '%' || :q || '%' ESCAPE '\\' AND NOT EXISTS (SELECT * FROM \"deck\")",
        ]
        for sql in corpus {
            let quoted = SQLExpressionTree(parsing: sql).rendered(
                quotingName: { name in names.first { SQLName.same($0, name) }.map(SQLRenderer.quoteIdentifier) },
                parameter: { _ in nil })
            #expect(quoted == PostgresRenderer.quotingNames(sql, names: names), "\(sql)")
        }
    }

    /// Parameters are numbered where they are, wherever they are in the tree; other parameter
    /// spellings and look-alikes are left as written.
    @Test func renderingNumbersParameters() {
        let sql = "a = :a AND b IN (:b, :a) AND c = (SELECT max(d) FROM t WHERE e = :c) AND f = ':a' AND g = ?1"
        let numbers = ["a": 1, "b": 2, "c": 3]
        let rendered = SQLExpressionTree(parsing: sql).rendered(quotingName: { _ in nil }, parameter: { numbers[$0].map { "$\($0)" } })
        #expect(rendered == "a = $1 AND b IN ($2, $1) AND c = (SELECT max(d) FROM t WHERE e = $3) AND f = ':a' AND g = ?1")
        let tokensNamed = SQLTokenizer.expressionTokens(of: sql).compactMap { token -> String? in
            if case .parameter(let name) = token.kind { return name } else { return nil }
        }
        var walked: [String] = []
        SQLExpressionTree(parsing: sql).visit { _, role in if case .parameter(let name) = role { walked.append(name) } }
        #expect(walked == tokensNamed)
    }
}
