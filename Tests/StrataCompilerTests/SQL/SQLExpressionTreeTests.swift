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
        let check = SQLExpressionTree(parsing: "CASE WHEN length(y) > 0 THEN CAST(y AS text) ELSE x'00' END <> @x COLLATE nocase")
        #expect(check.mentions("y"))
        #expect(!check.mentions("x") && !check.mentions("case") && !check.mentions("end") && !check.mentions("nocase"))
        #expect(check.mentions("text"), "a CAST's type words count, to err on the safe side")
        #expect(SQLTokenizer.mentions("length(\"X\") > 0", name: "x"))
        #expect(SQLTokenizer.mentions("a IN (SELECT max(b) OVER w FROM t)", name: "w"))
    }

    /// The tree's rewriting quotes the names the token-by-token rewriting (``TokenQuoting``) quotes, where they
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
            #expect(quoted == TokenQuoting.quotingNames(sql, names: names), "\(sql)")
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

/// What PostgreSQL's rendering needs from the tree gives what the token-based rewriting gives.
@Suite struct SQLExpressionTreeRenderingTests {
    /// A named query's PostgreSQL SQL, rebuilt from the tree: names quoted in WHERE and ORDER BY,
    /// then parameters numbered over the whole SELECT, equals the PostgreSQL DAO plan's `querySQL` (which numbers them in WHERE only).
    @Test func querySQLFromTheTreeEqualsTheRenderers() throws {
        let schema = try SchemaLoader.load(
            contents: """
                options: { dialects: [sqlite, postgres] }
                tables:
                  Item:
                    columns:
                      id: { type: int, primaryKey: true }
                      name: text
                      createdAt: date
                    queries:
                      byName: { where: "name = :name OR lower(name) LIKE :name || '%' OR createdAt > :after", orderBy: "createdAt DESC, name", limit: ":max" }
                """, path: "Shop.schema.yml")
        let table = try #require(schema.table(named: "Item"))
        let query = try #require(table.queries.first)
        let names = SQLRenderer.columnNames(table)
        var quoted = query
        quoted.whereClause = query.whereClause.map { SQLExpressionTree(parsing: $0).rendered(quoting: names, with: SQLRenderer.quoteIdentifier) }
        quoted.orderBy = query.orderBy.map { SQLExpressionTree(parsing: $0).rendered(quoting: names, with: SQLRenderer.quoteIdentifier) }
        let numbers = Dictionary(query.parameters.enumerated().map { ($0.element.name, ($0.offset + 1, $0.element.type)) }, uniquingKeysWith: { a, _ in a })
        let fromTree = SQLExpressionTree(parsing: SQLRenderer.selectSQL(quoted, on: table)).rendered(
            quotingName: { _ in nil }, parameter: { name in numbers[name].map { PostgresDialect().placeholder($0.0, for: $0.1.codec()) } })
        let expected = DAOPlan(table: table, schema: schema, dialect: PostgresDialect()).querySQL(query)
        #expect(fromTree == expected)
        #expect(expected.contains("$1") && expected.contains("\"createdAt\""))
    }

    /// Random expressions (seeded): rendering without replacements gives the text back byte for
    /// byte, every `:name` token is a parameter of the tree, and quoting agrees with the token-by-token rewriting.
    @Test(arguments: [1, 2, 3, 42, 2026])
    func randomExpressionsRoundTrip(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let names = ["a", "B", "deck", "due"]
        for _ in 0..<200 {
            let sql = expression(&random, depth: 0)
            let tree = SQLExpressionTree(parsing: sql)
            #expect(tree.rendered(quotingName: { _ in nil }, parameter: { _ in nil }) == sql)
            let parameters = SQLTokenizer.expressionTokens(of: sql).compactMap { token -> String? in
                if case .parameter(let name) = token.kind { return name } else { return nil }
            }
            let numbered = tree.rendered(quotingName: { _ in nil }, parameter: { "$" + $0 })
            #expect(!numbered.contains(":"), "\(sql) → \(numbered)")
            #expect(Set(parameters).allSatisfy { numbered.contains("$" + $0) }, "\(sql)")
            #expect(tree.rendered(quoting: names, with: SQLRenderer.quoteIdentifier) == TokenQuoting.quotingNames(sql, names: names), "\(sql)")
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    func expression(_ random: inout SplitMix, depth: Int) -> String {
        let leaves = ["a", "B", "t.due", "\"deck\"", ":p", ":q", "42", "1.5e-3", "'x''y'", "x'00'", "NULL", "TRUE", "?1", "@a", "CURRENT_DATE"]
        if depth > 3 || random.next(3) == 0 { return leaves[random.next(leaves.count)] }
        let a = expression(&random, depth: depth + 1)
        let b = expression(&random, depth: depth + 1)
        switch random.next(14) {
        case 0: return "\(a) + \(b)"
        case 1: return "\(a) AND NOT \(b)"
        case 2: return "(\(a)) = \(b)"
        case 3: return "\(a) NOT BETWEEN \(b) AND \(a)"
        case 4: return "\(a) IN (\(b), :r)"
        case 5: return "coalesce(\(a), \(b))"
        case 6: return "CASE WHEN \(a) THEN \(b) ELSE -\(a) END"
        case 7: return "CAST(\(a) AS INTEGER)"
        case 8: return "\(a) LIKE \(b) ESCAPE '!'"
        case 9: return "EXISTS (SELECT \(a) FROM deck WHERE due = \(b))"
        case 10: return "max(\(a)) OVER (PARTITION BY \(b) ORDER BY due)"
        case 11: return "\(a) IS NOT \(b)"
        case 12: return "(\(a), \(b)) = (1, 2)"
        default: return "\(a)\n  || /* c */ \(b) COLLATE NOCASE"
        }
    }
}

/// The rewriting PostgreSQL's rendering used before the expression tree, token by token: every
/// unquoted word equal to a name, unless a `(` follows it. Kept as the oracle the tree's rewriting
/// is compared with on expressions, where the two must agree.
enum TokenQuoting {
    static func quotingNames(_ sql: String, names: [String]) -> String {
        let tokens = SQLTokenizer.expressionTokens(of: sql)
        var result = ""
        var position = sql.startIndex
        for (offset, token) in tokens.enumerated() where token.kind == .word {
            guard let name = names.first(where: { token.isName($0) }) else { continue }
            if offset + 1 < tokens.count && tokens[offset + 1].text == "(" { continue }
            result += sql[position..<token.range.lowerBound]
            result += SQLRenderer.quoteIdentifier(name)
            position = token.range.upperBound
        }
        return result + sql[position...]
    }
}
