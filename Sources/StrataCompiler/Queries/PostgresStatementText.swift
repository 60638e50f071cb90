/// A top-level query's PostgreSQL text as `strata prepare` sends it to the server: each
/// distinct `:name` parameter of ``SQLQuery/postgresText`` rewritten to `$1`, `$2` … in order of
/// first appearance (a parameter declared in `params:` cast to its type there), and a list
/// parameter's `IN (:ids)` to `= ANY($n)` (`NOT IN (:ids)` to `<> ALL($n)`), bound as one
/// array. Strings, quoted identifiers, comments and `::` casts are left alone (the compiler's
/// SQL tokenizer finds the parameters).
///
/// It keeps an offset map from the sent text back to ``SQLQuery/postgresText``, so that a
/// position the server reports in the sent text (an error's `position`) is located in the
/// schema file through ``SQLQuery/postgresTextSource``.
package struct PostgresStatementText: Hashable, Sendable {
    /// One `$n` parameter.
    package struct Parameter: Hashable, Sendable {
        /// The name after the colon, as written.
        package var name: String
        /// Declared `"[type]"` in `params:`: bound as one array.
        package var isList: Bool
    }

    /// The text sent to the server.
    package var sql: String
    /// The parameters in `$n` order.
    package var parameters: [Parameter]
    /// The original text (``SQLQuery/postgresText``).
    package var original: String
    /// Pieces of the sent text, in order: `sent` (UTF-8 range in ``sql``) came from `source`
    /// (UTF-8 range in ``original``); a copied piece has ranges of the same length, a rewritten
    /// one (a placeholder) maps every byte to the start of what it replaced.
    var pieces: [Piece]

    /// A piece of the sent text and where it came from.
    struct Piece: Hashable, Sendable {
        var sent: Range<Int>
        var source: Range<Int>
        var copied: Bool
    }

    /// Rewrites `query`'s ``SQLQuery/postgresText``; a parameter declared in `params:` gets
    /// its PostgreSQL type as a cast where it first appears (`$1::BIGINT`, `$2::TEXT[]` for a
    /// list), so that the server takes the declared type instead of inferring one (it would
    /// take `SELECT :v` as `text`).
    package init(_ query: SQLQuery) {
        self.init(
            sql: query.postgresText, listParameters: Set(query.parameterTypes.filter(\.isList).map(\.name)),
            declaredTypes: Dictionary(query.parameterTypes.map { ($0.name, $0.type.codec().postgresType) }, uniquingKeysWith: { first, _ in first }))
    }

    /// ``init(_:)`` without the casts of the one-value parameters declared in `params:` (a list
    /// keeps its array cast), or nil when the query declares none: what `strata prepare` tries
    /// when the cast text is refused, for a declared `int` that a function takes as `integer`
    /// (`substr(name, 1, :length)`: `substr(text, integer, bigint)` does not exist).
    package static func uncastScalars(of query: SQLQuery) -> PostgresStatementText? {
        guard query.parameterTypes.contains(where: { !$0.isList }) else { return nil }
        let lists = query.parameterTypes.filter(\.isList)
        return PostgresStatementText(
            sql: query.postgresText, listParameters: Set(lists.map(\.name)),
            declaredTypes: Dictionary(lists.map { ($0.name, $0.type.codec().postgresType) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Whether the types the server inferred for this text's parameters (`parameterTypes`, in
    /// `$n` order) are ones each parameter declared in `query`'s `params:` is bound as (an
    /// `int` as `int2`, `int4` or `int8`, checked when bound; a `double` only as `float8`).
    package func inferredTypesFit(_ query: SQLQuery, parameterTypes: [String]) -> Bool {
        guard parameterTypes.count == parameters.count else { return false }
        for (parameter, type) in zip(parameters, parameterTypes) {
            guard let declared = query.parameterTypes.first(where: { $0.name == parameter.name }), !declared.isList else { continue }
            guard PostgresQueryCheck.postgresTypes(of: declared.type).subtracting(["float4"]).contains(type) else { return false }
        }
        return true
    }

    /// Rewrites `text`; the parameters named in `listParameters` are lists, and those in
    /// `declaredTypes` get that PostgreSQL type (of each element, for a list) as a cast where
    /// they first appear.
    package init(sql text: String, listParameters: Set<String>, declaredTypes: [String: String] = [:]) {
        original = text
        let tokens = SQLTokenizer.expressionTokens(of: text)
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var pieces: [Piece] = []
        var parameters: [Parameter] = []
        var copiedUpTo = 0
        func copy(upTo end: Int) {
            guard end > copiedUpTo else { return }
            pieces.append(Piece(sent: output.count..<output.count + end - copiedUpTo, source: copiedUpTo..<end, copied: true))
            output += bytes[copiedUpTo..<end]
            copiedUpTo = end
        }
        func replace(_ source: Range<Int>, with replacement: String) {
            copy(upTo: source.lowerBound)
            let added = Array(replacement.utf8)
            pieces.append(Piece(sent: output.count..<output.count + added.count, source: source, copied: false))
            output += added
            copiedUpTo = source.upperBound
        }
        /// `$n` of the parameter `name`, with its declared type as a cast the first time.
        func placeholder(of name: String, isList: Bool) -> String {
            if let index = parameters.firstIndex(where: { $0.name == name }) { return "$\(index + 1)" }
            parameters.append(Parameter(name: name, isList: isList))
            guard let type = declaredTypes[name] else { return "$\(parameters.count)" }
            return "$\(parameters.count)::\(type)" + (isList ? "[]" : "")
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            // `IN (:ids)` / `NOT IN (:ids)` of a list parameter: one array, `= ANY($n)`.
            if token.isKeyword("IN"), index + 3 < tokens.count, tokens[index + 1].text == "(", tokens[index + 3].text == ")",
                case .parameter(let name) = tokens[index + 2].kind, listParameters.contains(name)
            {
                let negated = index > 0 && tokens[index - 1].isKeyword("NOT")
                let start = negated ? tokens[index - 1].offsets.lowerBound : token.offsets.lowerBound
                // The placeholder maps back to `:ids`, the operator to `IN`.
                replace(start..<tokens[index + 1].offsets.upperBound, with: negated ? "<> ALL(" : "= ANY(")
                replace(tokens[index + 2].offsets, with: placeholder(of: name, isList: true))
                copy(upTo: tokens[index + 3].offsets.upperBound)
                index += 4
                continue
            }
            if case .parameter(let name) = token.kind {
                replace(token.offsets, with: placeholder(of: name, isList: listParameters.contains(name)))
            }
            index += 1
        }
        copy(upTo: bytes.count)
        sql = String(decoding: output, as: UTF8.self)
        self.parameters = parameters
        self.pieces = pieces
    }

    /// The UTF-8 offset in ``original`` that the byte at `offset` of ``sql`` came from.
    package func originalOffset(ofUTF8Offset offset: Int) -> Int {
        guard let piece = pieces.first(where: { $0.sent.contains(offset) }) else { return original.utf8.count }
        return piece.copied ? piece.source.lowerBound + (offset - piece.sent.lowerBound) : piece.source.lowerBound
    }

    /// The UTF-8 offset in ``original`` of PostgreSQL's error `position`: a 1-based count of
    /// characters (Unicode scalars, the client encoding being UTF-8) into ``sql``.
    package func originalOffset(ofServerPosition position: Int) -> Int {
        let scalars = sql.unicodeScalars
        let wanted = max(0, position - 1)
        guard let index = scalars.index(scalars.startIndex, offsetBy: wanted, limitedBy: scalars.endIndex) else {
            return original.utf8.count
        }
        return originalOffset(ofUTF8Offset: sql.utf8.distance(from: sql.startIndex, to: index))
    }
}

extension PreparedQuery {
    /// The entry `strata prepare` writes for `query`, from what the server reported for its
    /// ``PostgresStatementText``: the type (`pg_type.typname`) of each `$n` parameter, and each
    /// result column's name, type and, for a column of a table, that column's
    /// `pg_attribute.attnotnull` (nil for an expression, table OID 0).
    ///
    /// Nullability (``PreparedColumn/nullable``) joins the server's catalog with the compiler's
    /// own analysis of the query (`analysis`, the ``TypedQuery`` the SQLite check made of the
    /// same query; its column at the same position): a table column is nullable when it is
    /// not `NOT NULL` or when the analysis finds it optional (the inner side of an outer join);
    /// an expression is nullable when the analysis finds it optional. A position the analysis
    /// does not have is nullable.
    package init(
        query: SQLQuery, text: PostgresStatementText, analysis: TypedQuery?, parameterTypes: [String],
        columns: [(name: String, type: String, tableColumnNotNull: Bool?)]
    ) {
        let parameters = zip(text.parameters, parameterTypes).map { PreparedParameter(name: $0.name, type: $1, isList: $0.isList) }
        let prepared = columns.enumerated().map { position, column -> PreparedColumn in
            let analysed = analysis.flatMap { position < $0.columns.count ? $0.columns[position].valueType.isOptional : nil } ?? true
            let nullable = column.tableColumnNotNull.map { !$0 || analysed } ?? analysed
            return PreparedColumn(name: column.name, type: column.type, nullable: nullable)
        }
        self.init(
            name: query.name, sourceFingerprint: PreparedQueries.sourceFingerprint(of: query), sql: text.sql,
            parameters: parameters, columns: prepared)
    }
}
