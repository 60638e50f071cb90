/// CHECK expressions and index conditions as written in `sqlite_master`, for the schema file
/// (the structural model keeps only their normalized form, which is for comparing).
struct RawConstraints {
    /// Column checks by lower-cased column name.
    var columnChecks: [String: [String]] = [:]
    /// Table-constraint checks.
    var tableChecks: [String] = []

    init() {}

    init(createTableSQL sql: String) {
        let tokens = SQLTokenizer.tokenize(sql)
        guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return }
        let constraintWords: Set<String> = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        for element in SQLTokenizer.elements(of: tokens, open: open) where !element.isEmpty {
            let first = tokens[element.lowerBound]
            let checks = Self.checks(in: tokens, range: element, sql: sql)
            if first.kind == .word, constraintWords.contains(first.text.uppercased()) {
                tableChecks += checks
            } else if !checks.isEmpty {
                columnChecks[SQLName.fold(first.value), default: []] += checks
            }
        }
    }

    /// The text between the parentheses of every `CHECK (…)` in `range`.
    static func checks(in tokens: [SQLToken], range: Range<Int>, sql: String) -> [String] {
        var result: [String] = []
        var index = range.lowerBound
        while index < range.upperBound {
            if tokens[index].isKeyword("CHECK"), index + 1 < range.upperBound, tokens[index + 1].text == "(",
                let close = SQLTokenizer.matchingClose(in: tokens, from: index + 1), close > index + 2
            {
                result.append(String(sql[tokens[index + 2].range.lowerBound..<tokens[close - 1].range.upperBound]))
                index = close + 1
                continue
            }
            index += 1
        }
        return result
    }

    /// A partial index's condition as written (`CREATE INDEX … WHERE condition`).
    static func indexWhere(_ sql: String) -> String? {
        let tokens = SQLTokenizer.tokenize(sql)
        guard let open = tokens.firstIndex(where: { $0.text == "(" }),
            let close = SQLTokenizer.matchingClose(in: tokens, from: open),
            let keyword = tokens[(close + 1)...].firstIndex(where: { $0.isKeyword("WHERE") }),
            keyword + 1 < tokens.count, let last = tokens.last
        else { return nil }
        return String(sql[tokens[keyword + 1].range.lowerBound..<last.range.upperBound])
    }
}
