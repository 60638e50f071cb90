@testable import StrataCompiler

/// The character-by-character ``SQLTokenizer/tokenize(_:)`` that the byte scanner replaced
/// (issue 32), kept verbatim as the reference the equivalence tests compare it with.
enum SQLTokenizerReference {
    /// Operator characters that combine (<=, <>, ==, !=, ||, <<, >>).
    static let combining: Set<Unicode.Scalar> = ["<", ">", "=", "!", "|"]

    /// The tokens of `sql`, without whitespace and comments.
    static func tokenize(_ sql: String) -> [SQLToken] {
        var tokens: [SQLToken] = []
        let scalars = sql.unicodeScalars
        var index = scalars.startIndex
        func token(_ kind: SQLToken.Kind, _ range: Range<String.Index>, value: String? = nil) -> SQLToken {
            let text = String(sql[range])
            let start = sql.utf8.distance(from: sql.startIndex, to: range.lowerBound)
            let offsets = start..<start + sql.utf8.distance(from: range.lowerBound, to: range.upperBound)
            return SQLToken(kind: kind, text: text, value: value ?? text, range: range, offsets: offsets)
        }
        // Letters, digits, `_`, `$` and every non-ASCII scalar (the ASCII test first: the
        // Unicode property lookup is slow, and the verifier tokenizes every DDL statement).
        func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
            guard scalar.isASCII else { return true }
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$"
        }
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let start = index
            if isWhitespace(scalar) {
                index = scalars.index(after: index)
                continue
            }
            // Comments.
            if scalar == "-", let next = scalars.index(index, offsetBy: 1, limitedBy: scalars.endIndex),
                next < scalars.endIndex, scalars[next] == "-"
            {
                while index < scalars.endIndex && scalars[index] != "\n" { index = scalars.index(after: index) }
                continue
            }
            if scalar == "/", let next = scalars.index(index, offsetBy: 1, limitedBy: scalars.endIndex),
                next < scalars.endIndex, scalars[next] == "*"
            {
                index = scalars.index(after: next)
                while index < scalars.endIndex {
                    if scalars[index] == "*", let after = scalars.index(index, offsetBy: 1, limitedBy: scalars.endIndex),
                        after < scalars.endIndex, scalars[after] == "/"
                    {
                        index = scalars.index(after: after)
                        break
                    }
                    index = scalars.index(after: index)
                }
                continue
            }
            // Quoted: strings and identifiers; a doubled closing quote stands for itself.
            if scalar == "'" || scalar == "\"" || scalar == "`" || scalar == "[" {
                let close: Unicode.Scalar = scalar == "[" ? "]" : scalar
                var value = String.UnicodeScalarView()
                index = scalars.index(after: index)
                while index < scalars.endIndex {
                    if scalars[index] == close {
                        let after = scalars.index(after: index)
                        if close != "]", after < scalars.endIndex, scalars[after] == close {
                            value.append(close)
                            index = scalars.index(after: after)
                            continue
                        }
                        index = after
                        break
                    }
                    value.append(scalars[index])
                    index = scalars.index(after: index)
                }
                if scalar == "'" {
                    tokens.append(token(.string, start..<index))
                } else {
                    tokens.append(token(.identifier, start..<index, value: String(value)))
                }
                continue
            }
            if isWordScalar(scalar) {
                while index < scalars.endIndex && isWordScalar(scalars[index]) { index = scalars.index(after: index) }
                // A number with a fraction or exponent: 1.5, 1e10.
                if ("0"..."9").contains(scalar), index < scalars.endIndex, scalars[index] == "." {
                    index = scalars.index(after: index)
                    while index < scalars.endIndex && isWordScalar(scalars[index]) { index = scalars.index(after: index) }
                }
                tokens.append(token(.word, start..<index))
                continue
            }
            // Operators: group the characters that combine (<=, <>, ==, !=, ||, <<, >>).
            index = scalars.index(after: index)
            if combining.contains(scalar) {
                while index < scalars.endIndex && combining.contains(scalars[index]) { index = scalars.index(after: index) }
            }
            tokens.append(token(.symbol, start..<index))
        }
        return tokens
    }
}
