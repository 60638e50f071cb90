/// Finds the `:name` parameters of a query's SQL and infers their types from the columns
/// they are compared with.
enum QueryParameters {
    /// One token of an SQL expression; enough to see `column OP :param` shapes.
    enum Token: Equatable {
        /// A bare or quoted identifier (`name`, `"order"`, `[x]`, `` `y` ``).
        case identifier(String, quoted: Bool)
        /// `:name`.
        case parameter(String)
        /// `?`, `?1`, `@name` or `$name`: not supported by generated code.
        case otherParameter(String)
        /// An operator or punctuation.
        case symbol(String)
        /// A string, number or blob literal.
        case literal
    }

    static func tokenize(_ sql: String) -> [Token] {
        let chars = Array(sql.unicodeScalars)
        var tokens: [Token] = []
        var index = 0
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar.value > 0x7F
        }
        func word(from start: Int) -> (String, Int) {
            var end = start
            while end < chars.count, isWord(chars[end]) { end += 1 }
            var text = ""
            text.unicodeScalars.append(contentsOf: chars[start..<end])
            return (text, end)
        }
        func quoted(from start: Int, closing: Unicode.Scalar) -> (String, Int) {
            var text = ""
            var end = start + 1
            while end < chars.count {
                if chars[end] == closing {
                    if end + 1 < chars.count, chars[end + 1] == closing, closing != "]" {
                        text.unicodeScalars.append(closing)
                        end += 2
                        continue
                    }
                    return (text, end + 1)
                }
                text.unicodeScalars.append(chars[end])
                end += 1
            }
            return (text, end)
        }
        while index < chars.count {
            let char = chars[index]
            switch char {
            case " ", "\t", "\n", "\r":
                index += 1
            case "-" where index + 1 < chars.count && chars[index + 1] == "-":
                while index < chars.count, chars[index] != "\n" { index += 1 }
            case "/" where index + 1 < chars.count && chars[index + 1] == "*":
                index += 2
                while index < chars.count, !(chars[index] == "*" && index + 1 < chars.count && chars[index + 1] == "/") { index += 1 }
                index += 2
            case "'":
                index = quoted(from: index, closing: "'").1
                tokens.append(.literal)
            case "\"", "`", "[":
                let (text, end) = quoted(from: index, closing: char == "[" ? "]" : char)
                tokens.append(.identifier(text, quoted: true))
                index = end
            case ":", "@", "$", "?":
                let (name, end) = word(from: index + 1)
                tokens.append(char == ":" && !name.isEmpty ? .parameter(name) : .otherParameter(String(char) + name))
                index = max(end, index + 1)
            case "0"..."9":
                index = word(from: index).1
                while index < chars.count, chars[index] == "." || isWord(chars[index]) { index += 1 }
                tokens.append(.literal)
            default:
                if isWord(char) {
                    let (text, end) = word(from: index)
                    if (text == "x" || text == "X"), end < chars.count, chars[end] == "'" {
                        index = quoted(from: end, closing: "'").1
                        tokens.append(.literal)
                    } else {
                        tokens.append(.identifier(text, quoted: false))
                        index = end
                    }
                } else {
                    let two = index + 1 < chars.count ? String(char) + String(chars[index + 1]) : ""
                    if ["==", "!=", "<>", "<=", ">=", "||", "<<", ">>"].contains(two) {
                        tokens.append(.symbol(two))
                        index += 2
                    } else {
                        tokens.append(.symbol(String(char)))
                        index += 1
                    }
                }
            }
        }
        return tokens
    }

    /// What was learned about one parameter.
    struct Inference: Equatable {
        var type: ColumnType
        var isOptional: Bool
        var column: String?
    }

    static let comparisons: Set<String> = ["=", "==", "!=", "<>", "<", "<=", ">", ">="]

    static func keyword(_ token: Token?) -> String? {
        if case .identifier(let text, quoted: false)? = token { return text.uppercased() }
        return nil
    }

    /// The column a token (possibly `table.column`) names.
    static func column(at index: Int, in tokens: [Token], table: Table) -> Column? {
        guard index >= 0, index < tokens.count, case .identifier(let name, let quoted) = tokens[index] else { return nil }
        if !quoted, ["AND", "OR", "NOT", "NULL", "IS", "IN", "LIKE", "GLOB", "BETWEEN"].contains(name.uppercased()) {
            return nil
        }
        return table.columns.first { SQLName.same($0.sqlName, name) }
    }

    /// The parameters in order of first appearance, each with what could be inferred.
    static func infer(_ sql: String, table: Table) -> (names: [String], inferred: [String: [Inference]], others: [String]) {
        let tokens = tokenize(sql)
        var names: [String] = []
        var inferred: [String: [Inference]] = [:]
        var others: [String] = []
        for (index, token) in tokens.enumerated() {
            if case .otherParameter(let text) = token { others.append(text) }
            guard case .parameter(let name) = token else { continue }
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
            if case .symbol(let text)? = token(offset) { return text }
            return nil
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
            if case .symbol(",") = tokens[back] { back -= 1; continue }
            if case .parameter = tokens[back] { back -= 1; continue }
            if case .literal = tokens[back] { back -= 1; continue }
            break
        }
        if back >= 1, case .symbol("(") = tokens[back], keyword(tokens[back - 1]) == "IN" {
            if let column = column(at: back - 2, in: tokens, table: table) { return plain(column) }
            if keyword(back >= 2 ? tokens[back - 2] : nil) == "NOT",
               let column = column(at: back - 3, in: tokens, table: table) { return plain(column) }
        }
        return nil
    }
}
