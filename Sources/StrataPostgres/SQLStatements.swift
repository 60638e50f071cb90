/// Splits PostgreSQL text into its statements, at the semicolons that are outside string
/// literals (`'…'`, `E'…'`), quoted identifiers (`"…"`), dollar-quoted bodies (`$tag$…$tag$`) and
/// comments (`-- …`, nested `/* … */`). postgres-nio speaks the extended query protocol, which
/// runs one statement per message.
enum SQLStatements {
    static func split(_ sql: String) -> [String] {
        let chars = Array(sql.unicodeScalars)
        var statements: [String] = []
        var start = 0
        var i = 0
        var hasCode = false

        func flush(upTo end: Int) {
            if hasCode {
                var text = String(String.UnicodeScalarView(chars[start..<end]))
                while let last = text.unicodeScalars.last, last.properties.isWhitespace { text.unicodeScalars.removeLast() }
                while let first = text.unicodeScalars.first, first.properties.isWhitespace { text.unicodeScalars.removeFirst() }
                statements.append(text)
            }
            hasCode = false
        }

        func at(_ index: Int) -> Unicode.Scalar? { index < chars.count ? chars[index] : nil }

        while i < chars.count {
            let c = chars[i]
            switch c {
            case "-" where at(i + 1) == "-":
                while i < chars.count, chars[i] != "\n" { i += 1 }
                continue
            case "/" where at(i + 1) == "*":
                var depth = 1
                i += 2
                while i < chars.count, depth > 0 {
                    if chars[i] == "/", at(i + 1) == "*" {
                        depth += 1
                        i += 2
                    } else if chars[i] == "*", at(i + 1) == "/" {
                        depth -= 1
                        i += 2
                    } else {
                        i += 1
                    }
                }
                continue
            case "'":
                // E'…' strings escape with a backslash; standard strings only double the quote.
                let escapes = i > 0 && (chars[i - 1] == "E" || chars[i - 1] == "e")
                i += 1
                while i < chars.count {
                    if escapes, chars[i] == "\\" {
                        i += 2
                    } else if chars[i] == "'" {
                        if at(i + 1) == "'" { i += 2 } else { break }
                    } else {
                        i += 1
                    }
                }
                hasCode = true
            case "\"":
                i += 1
                while i < chars.count {
                    if chars[i] == "\"" {
                        if at(i + 1) == "\"" { i += 2 } else { break }
                    } else {
                        i += 1
                    }
                }
                hasCode = true
            case "$":
                // $tag$ opens a dollar-quoted string unless `$` follows an identifier character ($1 is a parameter).
                var j = i + 1
                while let s = at(j), s == "_" || s.properties.isAlphabetic || (j > i + 1 && s.properties.numericType != nil) { j += 1 }
                let follows = i > 0 && (chars[i - 1].properties.isAlphabetic || chars[i - 1].properties.numericType != nil || chars[i - 1] == "_")
                if at(j) == "$", !follows {
                    let tag = Array(chars[i...j])
                    var k = j + 1
                    var closed = false
                    while k + tag.count <= chars.count {
                        if chars[k] == "$", Array(chars[k..<(k + tag.count)]) == tag {
                            k += tag.count
                            closed = true
                            break
                        }
                        k += 1
                    }
                    i = closed ? k : chars.count
                    hasCode = true
                    continue
                }
                hasCode = true
            case ";":
                flush(upTo: i)
                start = i + 1
                i += 1
                continue
            default:
                if !c.properties.isWhitespace { hasCode = true }
            }
            i += 1
        }
        flush(upTo: chars.count)
        return statements
    }
}
