/// Finds the `:name` parameters of a query's SQL (read by ``SQLTokenizer/expressionTokens(of:)``)
/// and infers their types from the columns they are compared with.
enum QueryParameters {
    typealias Token = SQLToken

    /// What was learned about one parameter.
    struct Inference: Equatable {
        var type: ColumnType
        var isOptional: Bool
        var column: String?
    }

    static let comparisons: Set<String> = ["=", "==", "!=", "<>", "<", "<=", ">", ">="]

    static func keyword(_ token: Token?) -> String? {
        guard let token, token.kind == .word else { return nil }
        return token.text.uppercased()
    }

    /// The column a token (possibly `table.column`) names.
    static func column(at index: Int, in tokens: [Token], table: Table) -> Column? {
        guard index >= 0, index < tokens.count else { return nil }
        let token = tokens[index]
        guard token.kind == .word || token.kind == .identifier else { return nil }
        if token.kind == .word, ["AND", "OR", "NOT", "NULL", "IS", "IN", "LIKE", "GLOB", "BETWEEN"].contains(token.text.uppercased()) {
            return nil
        }
        return table.columns.first { token.isName($0.sqlName) }
    }

    /// The parameters in order of first appearance, each with what could be inferred.
    static func infer(_ sql: String, table: Table) -> (names: [String], inferred: [String: [Inference]], others: [String]) {
        let tokens = SQLTokenizer.expressionTokens(of: sql)
        var names: [String] = []
        var inferred: [String: [Inference]] = [:]
        var others: [String] = []
        for (index, token) in tokens.enumerated() {
            if token.kind == .otherParameter { others.append(token.text) }
            guard case .parameter(let name) = token.kind else { continue }
            if !names.contains(name) { names.append(name) }
            if let inference = inferOne(at: index, tokens: tokens, table: table) {
                inferred[name, default: []].append(inference)
            }
        }
        return (names, inferred, others)
    }

    static func inferOne(at index: Int, tokens: [Token], table: Table) -> Inference? {
        func token(_ offset: Int) -> Token? {
            let position = index + offset
            return position >= 0 && position < tokens.count ? tokens[position] : nil
        }
        func symbol(_ offset: Int) -> String? {
            guard let token = token(offset), token.kind == .symbol else { return nil }
            return token.text
        }
        func columnAt(_ offset: Int) -> Column? { column(at: index + offset, in: tokens, table: table) }
        func plain(_ column: Column) -> Inference { Inference(type: column.type, isOptional: false, column: column.name) }

        // column LIKE :p, column NOT LIKE :p, :p LIKE column
        if let op = keyword(token(-1)), ["LIKE", "GLOB", "MATCH", "REGEXP"].contains(op) {
            return Inference(type: .text, isOptional: false, column: nil)
        }
        // column OP :p
        if let op = symbol(-1), comparisons.contains(op), let column = columnAt(-2) { return plain(column) }
        // :p OP column
        if let op = symbol(1), comparisons.contains(op), let column = columnAt(2) { return plain(column) }
        // column IS :p, column IS NOT :p
        if keyword(token(-1)) == "IS", let column = columnAt(-2) {
            return Inference(type: column.type, isOptional: true, column: column.name)
        }
        if keyword(token(-1)) == "NOT", keyword(token(-2)) == "IS", let column = columnAt(-3) {
            return Inference(type: column.type, isOptional: true, column: column.name)
        }
        // column BETWEEN :a AND :b
        if keyword(token(-1)) == "BETWEEN" {
            if let column = columnAt(-2) { return plain(column) }
            if keyword(token(-2)) == "NOT", let column = columnAt(-3) { return plain(column) }
        }
        if keyword(token(-1)) == "AND", keyword(token(-3)) == "BETWEEN" {
            if let column = columnAt(-4) { return plain(column) }
            if keyword(token(-4)) == "NOT", let column = columnAt(-5) { return plain(column) }
        }
        // column IN (:a, :b)
        var back = index - 1
        while back >= 0 {
            let token = tokens[back]
            if token.kind == .symbol && token.text == "," { back -= 1; continue }
            if case .parameter = token.kind { back -= 1; continue }
            if token.isLiteral { back -= 1; continue }
            break
        }
        if back >= 1, tokens[back].kind == .symbol, tokens[back].text == "(", keyword(tokens[back - 1]) == "IN" {
            if let column = column(at: back - 2, in: tokens, table: table) { return plain(column) }
            if keyword(back >= 2 ? tokens[back - 2] : nil) == "NOT",
               let column = column(at: back - 3, in: tokens, table: table) { return plain(column) }
        }
        return nil
    }
}
