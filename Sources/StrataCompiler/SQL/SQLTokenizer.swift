/// The one SQL token type of the compiler. ``SQLTokenizer/tokenize(_:)`` scans SQL into lexical
/// tokens (words, quoted identifiers, strings, symbols) — just enough to read the parts of
/// `sqlite_master.sql` that the pragmas do not report (CHECK constraints, a partial index's
/// WHERE, AUTOINCREMENT, a column's definition text) and to compare SQL fragments by structure
/// rather than by spelling (case, quoting and whitespace do not matter; string literals do).
/// ``SQLTokenizer/expressionTokens(of:)`` refines those tokens for expressions and statements:
/// numbers, blob literals and parameters become tokens of their own, so that no one reads a name
/// where there is none (the `x` of `x'00'`, `@x` or `?x`, the `name` of `:name`). The query typer,
/// the table-query parameters, the PostgreSQL renderer and the migration planner all read them.
struct SQLToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        /// A keyword or a bare identifier (from ``SQLTokenizer/tokenize(_:)`` also a number,
        /// `$name` and the `x` of `x'00'`).
        case word
        /// `"name"`, `[name]` or `` `name` ``; `value` is the unquoted name.
        case identifier
        /// `'text'`, kept as written.
        case string
        /// `42`, `1.5`, `1e-3`, `0x1F` (expression tokens only).
        case number
        /// `x'00ff'` (expression tokens only).
        case blob
        /// `:name`, the name without the colon (expression tokens only).
        case parameter(String)
        /// `?`, `?1`, `@name`, `$name` or a lone `:`: parameters generated code cannot bind by
        /// name (expression tokens only).
        case otherParameter
        /// Punctuation or an operator (in expression tokens `::`, PostgreSQL's cast, is one symbol).
        case symbol
    }

    var kind: Kind
    /// The token as written.
    var text: String
    /// For identifiers the unquoted name, otherwise `text`.
    var value: String
    /// Where the token is in the source.
    var range: Range<String.Index>
    /// Where the token is in the source's UTF-8 bytes (the offsets carets and placeholders use).
    var offsets: Range<Int>

    /// True for a word or quoted identifier spelled `name` (as SQLite compares names).
    func isName(_ name: String) -> Bool {
        (kind == .word || kind == .identifier) && SQLName.same(value, name)
    }

    /// True for the keyword `word` (case-insensitive, not quoted).
    func isKeyword(_ word: String) -> Bool {
        kind == .word && text.uppercased() == word
    }

    /// True for a literal: a string, number or blob.
    var isLiteral: Bool { kind == .string || kind == .number || kind == .blob }

    /// What keyword and operator tests compare: a word or number upper-cased, a symbol as
    /// written, empty for any other token.
    var upper: String {
        switch kind {
        case .word, .number: text.uppercased()
        case .symbol: text
        case .identifier, .string, .blob, .parameter, .otherParameter: ""
        }
    }

    /// The canonical spelling used for structural comparison.
    var canonical: String {
        switch kind {
        case .word, .identifier, .number: SQLName.fold(value)
        case .string, .blob, .parameter, .otherParameter, .symbol: text
        }
    }
}

enum SQLTokenizer {
    /// The tokens of `sql`, without whitespace and comments.
    ///
    /// Scans the UTF-8 bytes: every character the grammar names is ASCII, and every byte of a
    /// non-ASCII scalar is 0x80 or above, so a non-ASCII scalar is only decoded where it starts a
    /// token (Unicode whitespace is skipped there, any other scalar starts a word; within a word
    /// every non-ASCII scalar continues it).
    static func tokenize(_ sql: String) -> [SQLToken] {
        if let tokens = sql.utf8.withContiguousStorageIfAvailable({ tokenize(sql, bytes: $0) }) {
            return tokens
        }
        return Array(sql.utf8).withUnsafeBufferPointer { tokenize(sql, bytes: $0) }
    }

    /// ``tokenize(_:)`` over `bytes`, the UTF-8 of `sql`.
    private static func tokenize(_ sql: String, bytes: UnsafeBufferPointer<UInt8>) -> [SQLToken] {
        let count = bytes.count
        // Room for a token every four bytes (generated DDL has one every six): a whole
        // migration's million tokens are not copied as the array grows, and the pages reserved
        // beyond the last token are never touched.
        var tokens: [SQLToken] = []
        tokens.reserveCapacity(count / 4)
        // The string index of the last token bound, advanced along with its byte offset (O(1)
        // for native strings, and never walked back: token bounds only grow).
        var cursor = sql.utf8.startIndex
        var cursorOffset = 0
        func stringIndex(_ offset: Int) -> String.Index {
            cursor = sql.utf8.index(cursor, offsetBy: offset - cursorOffset)
            cursorOffset = offset
            return cursor
        }
        func string(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        func append(_ kind: SQLToken.Kind, _ offsets: Range<Int>, value: String? = nil) {
            let text = string(offsets)
            let lower = stringIndex(offsets.lowerBound)
            let range = lower..<stringIndex(offsets.upperBound)
            tokens.append(SQLToken(kind: kind, text: text, value: value ?? text, range: range, offsets: offsets))
        }
        var index = 0
        while index < count {
            let byte = bytes[index]
            let start = index
            if byte >= 0x80 {
                // A non-ASCII scalar: Unicode whitespace is skipped, anything else starts a word.
                let (isWhitespace, length) = nonASCIIScalar(in: bytes, at: index)
                index += length
                if isWhitespace { continue }
                while index < count && isWordByte(bytes[index]) { index += 1 }
                append(.word, start..<index)
                continue
            }
            switch byte {
            case 0x20, 0x09...0x0D:
                index += 1
            case UInt8(ascii: "-") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "-"):
                // A line comment runs to the newline (which is whitespace).
                index += 2
                while index < count && bytes[index] != 0x0A { index += 1 }
            case UInt8(ascii: "/") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "*"):
                // A block comment runs past its `*/` (unterminated: to the end).
                index += 2
                while index < count {
                    if bytes[index] == UInt8(ascii: "*"), index + 1 < count, bytes[index + 1] == UInt8(ascii: "/") {
                        index += 2
                        break
                    }
                    index += 1
                }
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "["):
                // Quoted: strings and identifiers; a doubled closing quote stands for itself.
                let close = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : byte
                let doubles = close != UInt8(ascii: "]")
                index += 1
                var contentStart = index
                var contentEnd = count
                // The unquoted value, only built once a doubled quote is found.
                var unquoted: [UInt8]?
                while index < count {
                    if bytes[index] == close {
                        if doubles, index + 1 < count, bytes[index + 1] == close {
                            if unquoted == nil { unquoted = [] }
                            unquoted?.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart...index]))
                            index += 2
                            contentStart = index
                            continue
                        }
                        contentEnd = index
                        index += 1
                        break
                    }
                    index += 1
                }
                if byte == UInt8(ascii: "'") {
                    append(.string, start..<index)
                } else if var value = unquoted {
                    value.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[contentStart..<contentEnd]))
                    append(.identifier, start..<index, value: String(decoding: value, as: UTF8.self))
                } else {
                    append(.identifier, start..<index, value: string(contentStart..<contentEnd))
                }
            case _ where isWordByte(byte):
                index += 1
                while index < count && isWordByte(bytes[index]) { index += 1 }
                // A number with a fraction or exponent: 1.5, 1e10.
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), index < count, bytes[index] == UInt8(ascii: ".") {
                    index += 1
                    while index < count && isWordByte(bytes[index]) { index += 1 }
                }
                append(.word, start..<index)
            default:
                // Operators: group the characters that combine (<=, <>, ==, !=, ||, <<, >>).
                index += 1
                if isCombiningByte(byte) {
                    while index < count && isCombiningByte(bytes[index]) { index += 1 }
                }
                append(.symbol, start..<index)
            }
        }
        return tokens
    }

    /// Letters, digits, `_`, `$` and every byte of a non-ASCII scalar.
    @inline(__always)
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            true
        default: false
        }
    }

    /// Operator characters that combine (<=, <>, ==, !=, ||, <<, >>).
    @inline(__always)
    private static func isCombiningByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "!")
            || byte == UInt8(ascii: "|")
    }

    /// Whether the non-ASCII scalar whose UTF-8 starts at `index` is Unicode whitespace, and its
    /// length in bytes (decoded by the standard library; out of the scanning loop, which stays
    /// tight for the ASCII that SQL mostly is).
    @inline(never)
    private static func nonASCIIScalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (isWhitespace: Bool, length: Int) {
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[index...]).makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return (false, 1) }
        return (scalar.properties.isWhitespace, UTF8.width(scalar))
    }

    /// A canonical form of an SQL fragment: keywords and identifiers lower-cased and unquoted,
    /// one space between tokens, redundant outer parentheses removed.
    static func normalize(_ sql: String) -> String {
        normalize(tokenize(sql)[...])
    }

    static func normalize(_ tokens: ArraySlice<SQLToken>) -> String {
        var tokens = tokens
        while tokens.count >= 2, tokens.first?.text == "(", tokens.last?.text == ")",
            matchingClose(in: Array(tokens), from: 0) == tokens.count - 1
        {
            tokens = tokens.dropFirst().dropLast()
        }
        return tokens.map(\.canonical).joined(separator: " ")
    }

    /// The index of the `)` that closes the `(` at `open` in `tokens`.
    static func matchingClose(in tokens: [SQLToken], from open: Int) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].text == "(" { depth += 1 }
            if tokens[index].text == ")" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }

    /// The comma-separated elements between the parentheses that start at `open`, each as a
    /// range of token indices.
    static func elements(of tokens: [SQLToken], open: Int) -> [Range<Int>] {
        guard let close = matchingClose(in: tokens, from: open) else { return [] }
        var result: [Range<Int>] = []
        var depth = 0
        var start = open + 1
        for index in (open + 1)..<close {
            let text = tokens[index].text
            if text == "(" { depth += 1 }
            if text == ")" { depth -= 1 }
            if text == ",", depth == 0 {
                result.append(start..<index)
                start = index + 1
            }
        }
        if start < close { result.append(start..<close) }
        return result
    }

    /// The expressions of every `CHECK (…)` within `range` of `tokens`, normalized.
    static func checks(in tokens: [SQLToken], range: Range<Int>) -> [String] {
        var result: [String] = []
        var index = range.lowerBound
        while index < range.upperBound {
            if tokens[index].isKeyword("CHECK"), index + 1 < range.upperBound, tokens[index + 1].text == "(",
                let close = matchingClose(in: tokens, from: index + 1)
            {
                result.append(normalize(tokens[(index + 2)..<close]))
                index = close + 1
                continue
            }
            index += 1
        }
        return result
    }

    /// The parsed body of a `CREATE TABLE` statement.
    struct CreateTable {
        /// Column definitions: the column name, its check expressions, the definition text
        /// after the name, and its `COLLATE` collation (nil when it has none).
        var columns: [(name: String, checks: [String], definition: String, collation: String?)] = []
        /// CHECK constraints written as table constraints.
        var tableChecks: [String] = []
        /// Whether `AUTOINCREMENT` appears.
        var hasAutoincrement = false
    }

    /// Reads the column definitions and checks of a `CREATE TABLE` statement.
    static func parseCreateTable(_ sql: String) -> CreateTable {
        let tokens = tokenize(sql)
        var result = CreateTable()
        result.hasAutoincrement = tokens.contains { $0.isKeyword("AUTOINCREMENT") }
        guard let open = tokens.firstIndex(where: { $0.text == "(" }) else { return result }
        let constraintWords: Set<String> = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        for element in elements(of: tokens, open: open) where !element.isEmpty {
            let first = tokens[element.lowerBound]
            if first.kind == .word, constraintWords.contains(first.text.uppercased()) {
                result.tableChecks += checks(in: tokens, range: element)
            } else {
                let definition: String
                if element.count > 1 {
                    definition = String(sql[tokens[element.lowerBound + 1].range.lowerBound..<tokens[element.upperBound - 1].range.upperBound])
                } else {
                    definition = ""
                }
                result.columns.append((first.value, checks(in: tokens, range: element), definition, collation(in: tokens, range: element)))
            }
        }
        return result
    }

    /// The collation of a column definition: the name after its last `COLLATE` outside
    /// parentheses (a CHECK's or a DEFAULT's `COLLATE` is not the column's).
    static func collation(in tokens: [SQLToken], range: Range<Int>) -> String? {
        var depth = 0
        var result: String?
        for index in range {
            let token = tokens[index]
            if token.text == "(" { depth += 1 }
            if token.text == ")" { depth -= 1 }
            if depth == 0, token.isKeyword("COLLATE"), index + 1 < range.upperBound,
                tokens[index + 1].kind == .word || tokens[index + 1].kind == .identifier
            {
                result = tokens[index + 1].value
            }
        }
        return result
    }

    /// The key terms of a `CREATE INDEX … ON table (term, …)` as written, each without a
    /// trailing `ASC`/`DESC` and `COLLATE name` (which `PRAGMA index_xinfo` reports).
    static func indexTerms(_ sql: String) -> [String] {
        let tokens = tokenize(sql)
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
            let open = tokens[on...].firstIndex(where: { $0.text == "(" })
        else { return [] }
        return elements(of: tokens, open: open).map { range in
            var end = range.upperBound
            if end > range.lowerBound, tokens[end - 1].isKeyword("ASC") || tokens[end - 1].isKeyword("DESC") { end -= 1 }
            if end - 2 > range.lowerBound, tokens[end - 2].isKeyword("COLLATE") { end -= 2 }
            guard end > range.lowerBound else { return "" }
            return String(sql[tokens[range.lowerBound].range.lowerBound..<tokens[end - 1].range.upperBound])
        }
    }

    /// The text between the parentheses of `CREATE INDEX … ON table (…)`, as written.
    static func indexKeyList(_ sql: String) -> String? {
        let tokens = tokenize(sql)
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
            let open = tokens[on...].firstIndex(where: { $0.text == "(" }),
            let close = matchingClose(in: tokens, from: open), close > open + 1
        else { return nil }
        return String(sql[tokens[open + 1].range.lowerBound..<tokens[close - 1].range.upperBound])
    }

    /// The normalized condition of a partial index (`CREATE INDEX … WHERE condition`).
    static func indexWhereClause(_ sql: String) -> String? {
        let tokens = tokenize(sql)
        guard let open = tokens.firstIndex(where: { $0.text == "(" }),
            let close = matchingClose(in: tokens, from: open),
            let keyword = tokens[(close + 1)...].firstIndex(where: { $0.isKeyword("WHERE") })
        else { return nil }
        return normalize(tokens[(keyword + 1)...])
    }

    /// `sql` (a `CREATE TABLE`) with the table's name replaced by `name` (already quoted).
    static func renamingCreateTable(_ sql: String, to name: String) -> String {
        let tokens = tokenize(sql)
        // CREATE [TEMP] TABLE [IF NOT EXISTS] name
        guard let table = tokens.firstIndex(where: { $0.isKeyword("TABLE") }) else { return sql }
        var index = table + 1
        if index + 2 < tokens.count, tokens[index].isKeyword("IF"), tokens[index + 1].isKeyword("NOT"),
            tokens[index + 2].isKeyword("EXISTS")
        {
            index += 3
        }
        guard index < tokens.count else { return sql }
        var range = tokens[index].range
        // schema.name
        if index + 2 < tokens.count, tokens[index + 1].text == "." { range = range.lowerBound..<tokens[index + 2].range.upperBound }
        var result = sql
        result.replaceSubrange(range, with: name)
        return result
    }

    /// Whether `sql` mentions the identifier `name` anywhere, by its expression tree
    /// (``SQLExpressionTree/mentions(_:)``: the `x` of a blob literal `x'00'`, the names of
    /// parameters and the keywords an expression reads are no mention).
    static func mentions(_ sql: String, name: String) -> Bool {
        SQLExpressionTree(parsing: sql).mentions(name)
    }
}
