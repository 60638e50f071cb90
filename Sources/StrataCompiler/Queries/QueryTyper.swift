import Strata
/// The structural pass of the query analysis: a small walk over the statement's tokens
/// (``SQLTokenizer/expressionTokens(of:)``) — each expression parsed once into an
/// ``SQLExpression`` tree (``SQLExpressionParser``) and typed from the tree — that decides what
/// SQLite's metadata does not say —
/// the type and nullability of each result
/// expression (outer joins, aggregates, CASE, COALESCE, CAST, arithmetic, subqueries, UNION,
/// window functions) and the type of each `:name` parameter from where it is used.
///
/// A pure function of the SQL text and the schema: ``QueryTyper/type(_:schema:parameterTypes:)``.
/// It never reports errors itself; what it cannot type comes back with a reason, and the
/// analyzer decides what is an error.
struct QueryTyper: SQLTokenCursor {
    /// The type of an expression.
    struct ExprType {
        /// The base type; nil when unknown or a NULL literal.
        var base: ColumnType?
        /// The record declaring an enum base.
        var owner: String?
        var optional: Bool
        /// A `NULL` literal.
        var isNull = false
        /// Why the type is unknown.
        var untyped: String?
        /// A bare `:name` parameter (its type, if known from `params:`, is in `base`).
        var parameter: String?
        /// Token index of the parameter.
        var parameterToken: Int?
        /// Contains an aggregate function call.
        var aggregate = false
        /// The table column it reads directly: (table SQL name, column SQL name).
        var origin: (table: String, column: String)?
        /// The `dateFormat:` of the date column it reads, when not the default.
        var dateFormat: DateStorage?

        static func of(_ base: ColumnType, optional: Bool, owner: String? = nil) -> ExprType {
            ExprType(base: base, owner: owner, optional: optional)
        }
        static func unknown(_ reason: String) -> ExprType {
            ExprType(base: nil, optional: true, untyped: reason)
        }
        static var null: ExprType { ExprType(base: nil, optional: true, isNull: true) }
        var isKnown: Bool { base != nil }
    }

    /// A result column of a SELECT or RETURNING.
    struct ResultColumn {
        var type: ExprType
        /// Token range of the expression (without the alias).
        var tokens: Range<Int>
        /// The alias, or the column name for a column reference, when the typer can tell.
        var name: String?
        /// The `AS` alias (or bare alias) as written, when there is one.
        var alias: String?
        /// The name an unaliased expression gives itself: a column (`col`, `t.col`, `-col`,
        /// `CAST(col AS …)`) its SQL name, `count(*)` `count`, `sum(x)` `sumX` (Swift
        /// spelling); nil for any other expression.
        var derived: String?
    }

    /// A table, CTE or subquery in FROM.
    struct Source {
        /// The name it is qualified by (alias or table name), lower-cased.
        var alias: String
        /// Columns and their types (nil: unknown source, any column is untyped).
        var columns: [(name: String, type: ExprType)]?
        /// On the optional side of an outer join.
        var nullable: Bool
        /// Columns a USING or NATURAL join hides from `*`.
        var hiddenFromStar: Set<String> = []
    }

    final class Scope {
        var sources: [Source] = []
        var ctes: [String: [(name: String, type: ExprType)]] = [:]
        var hasGroupBy = false
        let parent: Scope?
        init(parent: Scope?) { self.parent = parent }

        func cte(_ name: String) -> [(name: String, type: ExprType)]? {
            ctes[name.lowercased()] ?? parent?.cte(name)
        }
    }

    /// How a parameter was used somewhere.
    struct Use {
        var base: ColumnType
        var owner: String?
        var optional: Bool
        var token: Int
        /// The date format of the column it is compared with (nil: the default text).
        var dateFormat: DateStorage? = nil
    }

    /// What the pass found.
    struct Result {
        /// The result columns (empty for a write without RETURNING).
        var columns: [ResultColumn] = []
        /// Whether the statement yields rows.
        var yieldsRows = true
        /// The uses of each parameter.
        var uses: [String: [Use]] = [:]
        /// A SELECT that yields exactly one row whatever the data: no FROM and no WHERE, or
        /// an outermost aggregate without GROUP BY, HAVING, or a LIMIT/OFFSET that could
        /// remove the row; one arm only.
        var exactlyOneRow = false
    }

    let tokens: [SQLToken]
    let schema: Schema
    let parameterTypes: [String: SQLQuery.ParameterOverride]
    var position = 0
    var result = Result()

    /// Set while typing a core's result list: whether that core has GROUP BY.
    var groupByKnown = false

    // MARK: - Entry point

    /// Types the statement made of `tokens` (one statement, without a trailing `;`).
    static func type(_ tokens: [SQLToken], schema: Schema, parameterTypes: [String: SQLQuery.ParameterOverride]) -> Result {
        var typer = QueryTyper(tokens: tokens, schema: schema, parameterTypes: parameterTypes)
        typer.statement()
        return typer.result
    }

    // MARK: - Helpers

    /// Reading stops at the end of the statement's tokens.
    var end: Int { tokens.count }

    /// A name: a bare word or a quoted identifier (also a string used as a name).
    mutating func name() -> String? {
        guard let token = current, token.kind == .word || token.kind == .identifier || token.kind == .string else { return nil }
        position += 1
        if token.kind == .string { return String(token.value.dropFirst().dropLast()) }
        return token.value
    }

    mutating func use(_ parameter: String?, _ token: Int?, as type: ExprType, optional: Bool? = nil) {
        guard let parameter, let token, let base = type.base else { return }
        result.uses[parameter, default: []].append(
            Use(base: base, owner: type.owner, optional: optional ?? false, token: token, dateFormat: base == .date ? type.dateFormat : nil))
    }
}
