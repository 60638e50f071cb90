/// A node of the small SQL expression tree that ``SQLExpressionParser`` builds from ``SQLToken``s:
/// parsed once, then walked by the query typer (``QueryTyper``), the migration planner's column
/// mentions (``SQLExpressionTree/mentions(_:)``) and the PostgreSQL rewriting
/// (``SQLExpressionTree/rendered(quotingName:parameter:)``).
///
/// `tokens` is the node's range in the token array it was parsed from (empty for an expression
/// that is missing: the parser reports it without reading a token).
struct SQLExpression {
    indirect enum Node {
        /// `42`, `1.5`, `0x1F`.
        case number(isReal: Bool)
        /// `'text'`.
        case string
        /// `x'00'`.
        case blob
        /// `NULL`.
        case null
        /// `TRUE`, `FALSE`.
        case boolean
        /// `CURRENT_TIMESTAMP`, `CURRENT_DATE`, `CURRENT_TIME`.
        case currentTime
        /// `:name`.
        case parameter(String)
        /// `?`, `?1`, `@name`, `$name`.
        case otherParameter
        /// `col`, `t.col`, `main.t.col`: the token index of each part.
        case column([Int])
        /// `-x`, `+x`, `~x`.
        case prefix(String, SQLExpression)
        /// `NOT x`.
        case not(SQLExpression)
        /// A binary operator of ``QueryTyper/precedence`` (`op` upper-cased) and how it types its result.
        case binary(String, QueryTyper.Combination, SQLExpression, SQLExpression)
        /// `=`, `==`, `!=`, `<>`.
        case equality(SQLExpression, SQLExpression)
        /// `a IS [NOT] [DISTINCT FROM] b`.
        case isTest(SQLExpression, SQLExpression)
        /// `x ISNULL`, `x NOTNULL`, `x NOT NULL`.
        case nullTest(SQLExpression)
        /// `a [NOT] LIKE|GLOB|MATCH|REGEXP b [ESCAPE e]`.
        case match(SQLExpression, SQLExpression, escape: SQLExpression?)
        /// `x [NOT] BETWEEN low AND high`.
        case between(SQLExpression, SQLExpression, SQLExpression)
        /// `x [NOT] IN (a, b, …)`; `skipped`: tokens of the list no element read.
        case inList(SQLExpression, [SQLExpression], skipped: [SQLExpression])
        /// `x [NOT] IN (SELECT …)`.
        case inSelect(SQLExpression, Subquery)
        /// `x [NOT] IN table` or `x [NOT] IN function(…)`: the name's token and the arguments.
        case inTable(SQLExpression, name: Int?, arguments: [SQLExpression])
        /// `(SELECT …)`.
        case subquery(Subquery)
        /// `[NOT] EXISTS (SELECT …)`.
        case exists(Subquery?)
        /// `(x)`.
        case parenthesized(SQLExpression)
        /// `(a, b, …)`: the first element (typed) and the others (read, not typed).
        case rowValue(SQLExpression, rest: [SQLExpression])
        /// `CASE [base] WHEN … THEN … [ELSE …] END`.
        case caseWhen(base: SQLExpression?, branches: [(condition: SQLExpression, value: SQLExpression)], otherwise: SQLExpression?)
        /// `CAST(x AS type)`: the type's tokens upper-cased, each followed by a space, and
        /// where they are (all tokens up to the first `)`, as SQLite's typer reads them).
        case cast(SQLExpression, typeName: String, typeTokens: Range<Int>)
        /// A function call.
        case function(Call)
        /// `RAISE(…)`.
        case raise([SQLExpression])
        /// `x COLLATE name …`: the token index of each collation name.
        case collate(SQLExpression, [Int])
        /// Something the expression grammar does not read here (empty `tokens`), with the
        /// typer's reason.
        case missing(String)
        /// One token the expression grammar does not read (a keyword or punctuation of a statement).
        case unread
    }

    /// A subquery: its tokens between the parentheses, and those tokens read as expressions.
    struct Subquery {
        var tokens: Range<Int>
        var body: [SQLExpression]
    }

    /// A function call's parts.
    struct Call {
        /// The token index of the function's name.
        var name: Int
        /// The name upper-cased.
        var function: String
        /// `f(*)`.
        var star: Bool
        /// The arguments, each with the `ORDER BY` terms that follow it.
        var arguments: [(value: SQLExpression, orderBy: [SQLExpression])]
        /// Tokens of the argument list no argument read.
        var skipped: [SQLExpression]
        /// `FILTER (WHERE condition)`.
        var filter: SQLExpression?
        /// `OVER (…)` or `OVER name`.
        var window: Window?
    }

    /// A window: `OVER (terms)` or `OVER name`.
    enum Window {
        case definition([SQLExpression])
        case name(Int?)
    }

    var node: Node
    var tokens: Range<Int>

    /// The direct children, in source order.
    var children: [SQLExpression] {
        switch node {
        case .number, .string, .blob, .null, .boolean, .currentTime, .parameter, .otherParameter, .column, .missing, .unread:
            return []
        case .prefix(_, let operand), .not(let operand), .nullTest(let operand), .parenthesized(let operand),
             .cast(let operand, _, _), .collate(let operand, _):
            return [operand]
        case .binary(_, _, let left, let right), .equality(let left, let right), .isTest(let left, let right):
            return [left, right]
        case .match(let left, let right, let escape):
            return [left, right] + (escape.map { [$0] } ?? [])
        case .between(let value, let low, let high):
            return [value, low, high]
        case .inList(let left, let elements, let skipped):
            return [left] + elements + skipped
        case .inSelect(let left, let subquery):
            return [left] + subquery.body
        case .inTable(let left, _, let arguments):
            return [left] + arguments
        case .subquery(let subquery):
            return subquery.body
        case .exists(let subquery):
            return subquery?.body ?? []
        case .rowValue(let first, let rest):
            return [first] + rest
        case .caseWhen(let base, let branches, let otherwise):
            return (base.map { [$0] } ?? []) + branches.flatMap { [$0.condition, $0.value] } + (otherwise.map { [$0] } ?? [])
        case .function(let call):
            var result = call.arguments.flatMap { [$0.value] + $0.orderBy } + call.skipped
            if let filter = call.filter { result.append(filter) }
            if case .definition(let terms) = call.window { result += terms }
            return result
        case .raise(let body):
            return body
        }
    }

    /// What a token of the tree stands for, as ``visit(_:)`` reports it.
    enum Role: Equatable {
        /// A name: a column reference's part, the table of `IN table`, a window's name.
        case name
        /// A function's name.
        case call
        /// A `:name` parameter.
        case parameter(String)
        /// A token the expression grammar does not read (a statement's keyword or punctuation).
        case unread
        /// A token read as a `CAST`'s type name.
        case typeName
    }

    /// Calls `body` with each token of the tree that is a name, a call, a parameter or unread,
    /// in source order of the walk (parents before children).
    func visit(_ body: (Int, Role) -> Void) {
        switch node {
        case .column(let parts):
            for part in parts { body(part, .name) }
        case .parameter(let name):
            body(tokens.lowerBound, .parameter(name))
        case .unread:
            body(tokens.lowerBound, .unread)
        case .inTable(_, let name, _):
            if let name { body(name, .name) }
        case .cast(_, _, let typeTokens):
            // Tokens read as the type's name (only in SQL the typer does not follow) may hold parameters.
            for index in typeTokens { body(index, .typeName) }
        case .function(let call):
            body(call.name, .call)
            if case .name(let name?) = call.window { body(name, .name) }
        default:
            break
        }
        for child in children { child.visit(body) }
    }
}

/// SQL text parsed as a sequence of expressions (an expression, or a statement whose keywords
/// and punctuation are ``SQLExpression/Node/unread`` tokens between them).
package struct SQLExpressionTree {
    /// The SQL text.
    package let sql: String
    let tokens: [SQLToken]
    let nodes: [SQLExpression]

    /// Parses `sql` (an expression or a statement) into a tree.
    package init(parsing sql: String) {
        self.sql = sql
        tokens = SQLTokenizer.expressionTokens(of: sql)
        var parser = SQLExpressionParser(tokens: tokens)
        nodes = parser.sequence()
    }

    /// Calls `body` with the index of each token that is a name, a call, a parameter or unread
    /// (see ``SQLExpression/visit(_:)``; a parameter read as a CAST's type name is a parameter).
    func visitIndices(_ body: (Int, SQLExpression.Role) -> Void) {
        for node in nodes {
            node.visit { index, role in
                if role == .typeName, case .parameter(let name) = tokens[index].kind {
                    body(index, .parameter(name))
                } else {
                    body(index, role)
                }
            }
        }
    }

    /// Calls `body` with each token that is a name, a call, a parameter or unread.
    func visit(_ body: (SQLToken, SQLExpression.Role) -> Void) {
        visitIndices { body(tokens[$0], $1) }
    }

    /// The names the SQL mentions, as written (unquoted): column references and their qualifiers,
    /// tables, functions, the words of a statement the expression grammar does not read (a
    /// view's `FROM` table, a trigger's target) and, to err on the safe side, a `CAST`'s type
    /// words. Keywords the grammar reads (`CASE`, `AND`, `ESCAPE`), collation names, literals
    /// and parameters are no mention.
    package var mentionedNames: [String] {
        var names: [String] = []
        visit { token, role in
            switch role {
            case .name, .call, .unread, .typeName:
                // A CAST's type words count: in SQL the parser does not follow they are not only a type.
                if token.kind == .word || token.kind == .identifier { names.append(token.value) }
            case .parameter:
                break
            }
        }
        return names
    }

    /// Whether the SQL mentions the identifier `name` (as SQLite compares names).
    package func mentions(_ name: String) -> Bool {
        mentionedNames.contains { SQLName.same($0, name) }
    }

    /// The SQL re-emitted with each unquoted name of `names` (as SQLite compares names) replaced
    /// by `quote` of the name as declared, and each `:name` parameter by `parameter(name)` when
    /// that is not nil: what a dialect's rewriting of an SQLite fragment needs (PostgreSQL:
    /// `quote` its identifier quoting, `parameter` its `$n` placeholders).
    package func rendered(quoting names: [String], with quote: (String) -> String,
                          parameter: (String) -> String? = { _ in nil }) -> String {
        rendered(quotingName: { name in names.first { SQLName.same($0, name) }.map(quote) }, parameter: parameter)
    }

    /// The SQL re-emitted as written, except that each unquoted name (a column reference's part,
    /// a table, an unread word; never a function's name, a keyword the grammar reads, a literal
    /// or a parameter) is replaced by `quotingName(name)` when that is not nil, and each
    /// `:name` parameter by `parameter(name)` when that is not nil. PostgreSQL's rewriting:
    /// names quoted as declared, parameters numbered `$1, $2, …`.
    package func rendered(quotingName: (String) -> String?, parameter: (String) -> String?) -> String {
        var replacements: [(index: Int, text: String)] = []
        visitIndices { index, role in
            let token = tokens[index]
            switch role {
            case .name, .unread:
                if token.kind == .word, let text = quotingName(token.value) { replacements.append((index, text)) }
            case .parameter(let name):
                if let text = parameter(name) { replacements.append((index, text)) }
            case .call, .typeName:
                break
            }
        }
        var result = ""
        var position = sql.startIndex
        for (index, text) in replacements.sorted(by: { $0.index < $1.index }) {
            let range = tokens[index].range
            guard range.lowerBound >= position else { continue }
            result += sql[position..<range.lowerBound]
            result += text
            position = range.upperBound
        }
        return result + sql[position...]
    }
}
