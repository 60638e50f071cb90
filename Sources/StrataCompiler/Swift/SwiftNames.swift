/// The naming component: every Swift name in generated code comes from here, escaped the same
/// way every time.
enum SwiftNames {
    /// Words that must be escaped with backticks to be used as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_",
    ]

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label at a call site: only `inout`, `var` and `let` need backticks
    /// there (escaping others draws a warning).
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// `name` after a `.` (member access allows most keywords unescaped, but not all; escape
    /// the same set for simplicity and safety).
    static func member(_ name: String) -> String {
        identifier(name)
    }

    /// `format` → `Format`.
    static func upperFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }

    /// `BookTag` → `bookTag`.
    static func lowerFirst(_ name: String) -> String {
        guard let first = name.first else { return name }
        // Keep acronyms readable: `URLRecord` → `urlRecord`.
        let leadingUpper = name.prefix { $0.isUppercase }
        if leadingUpper.count > 1, leadingUpper.count < name.count {
            return leadingUpper.dropLast().lowercased() + name.dropFirst(leadingUpper.count - 1)
        }
        if leadingUpper.count == name.count { return name.lowercased() }
        return first.lowercased() + name.dropFirst()
    }

    /// A plural for navigation names: `book` → `books`, `category` → `categories`.
    static func plural(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("s") || lower.hasSuffix("x") || lower.hasSuffix("ch") || lower.hasSuffix("sh") {
            return name + "es"
        }
        if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !"aeiou".contains(beforeY) {
            return name.dropLast() + "ies"
        }
        return name + "s"
    }

    /// An enum case name for a value: `paperback` stays; `e-book` → `eBook`; `2nd` → `_2nd`.
    static func enumCase(_ value: String) -> String {
        var parts: [String] = []
        var current = ""
        for scalar in value.unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                parts.append(current)
                current = ""
            }
        }
        if !current.isEmpty { parts.append(current) }
        guard let first = parts.first else { return "_empty" }
        var name = first == first.uppercased() && first.count > 1 ? first.lowercased() : lowerFirst(first)
        for part in parts.dropFirst() { name += upperFirst(part) }
        if let initial = name.unicodeScalars.first, ("0"..."9").contains(initial) { name = "_" + name }
        return identifier(name)
    }

    /// A Swift string literal for `text`: a raw string (`#"…"#`) when the text has quotes or
    /// backslashes, so SQL stays readable.
    static func stringLiteral(_ text: String) -> String {
        let needsEscaping = text.contains("\n") || text.contains("\r") || text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }
        if needsEscaping {
            var escaped = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\\\"
                case "\"": escaped += "\\\""
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                case "\t": escaped += "\\t"
                case _ where scalar.value < 0x20: escaped += "\\u{\(String(scalar.value, radix: 16))}"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return "\"\(escaped)\""
        }
        if !text.contains("\"") && !text.contains("\\") { return "\"\(text)\"" }
        var pounds = "#"
        while text.contains("\"" + pounds) || text.contains("\\" + pounds) { pounds += "#" }
        return "\(pounds)\"\(text)\"\(pounds)"
    }

    /// A multi-line raw string literal whose value is exactly `text` (line endings as `\n`).
    /// Every line, the delimiters included, starts with `indent`, which Swift strips again.
    static func multilineLiteral(_ text: String, indent: String) -> String {
        var pounds = "#"
        while text.contains("\"\"\"" + pounds) || text.contains("\\" + pounds) { pounds += "#" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }
        return "\(pounds)\"\"\"\n" + lines.joined(separator: "\n") + "\n" + indent + "\"\"\"\(pounds)"
    }
}

extension SwiftNames {
    /// `book_format` → `BookFormat`, `topArtists` → `TopArtists`: type names made from keys.
    static func upperCamelCase(_ name: String) -> String {
        upperFirst(Identifier.upperCamelCase(name))
    }

    /// `artist_name` → `artistName`, `ArtistId` → `artistId`, `total` → `total`: property
    /// names made from SQL result column names.
    static func lowerCamelCase(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return name }
        return lowerFirst(String(first)) + parts.dropFirst().map { upperFirst(String($0)) }.joined()
    }
}
