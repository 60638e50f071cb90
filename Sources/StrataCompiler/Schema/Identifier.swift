/// The naming rules of the generated Swift code.
enum Identifier {
    /// Whether `name` can be a Swift identifier (keywords allowed: the generator escapes them).
    static func isValidSwiftIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name != "_" else { return false }
        guard first == "_" || first.properties.isXIDStart else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }

    /// Whether `name` can name a generated Swift type.
    static func isValidTypeName(_ name: String) -> Bool {
        isValidSwiftIdentifier(name) && !swiftKeywords.contains(name) && !reservedTypeNames.contains(name)
    }

    /// Swift keywords (usable as property names with backticks, never as type names).
    static let swiftKeywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
        "throw", "switch", "where", "while", "as", "false", "is", "nil", "self", "super", "throws", "true",
        "try", "await", "async", "any", "some", "consume", "borrowing", "consuming", "package",
    ]

    /// Type names that cannot be redeclared in Swift.
    static let reservedTypeNames: Set<String> = ["Self", "Any", "Type", "Protocol"]

    /// Type names the generated code relies on: a record named like one would shadow it.
    static let typesUsedByGeneratedCode: Set<String> = [
        "String", "Int", "Int64", "Int32", "Double", "Bool", "Data", "Date", "UUID", "Optional", "Array",
        "Dictionary", "Set", "Error", "Codable", "Sendable", "Hashable", "Identifiable", "Foundation",
        "Strata", "Database", "Connection", "Statement", "StrataError", "Row", "Cursor", "JSONEncoder",
        "JSONDecoder",
    ]

    /// The names of the methods every generated DAO has; a query cannot take them.
    static let builtInDAOMethods: [String] = [
        "insert", "update", "upsert", "delete", "find", "fetchAll", "fetchOne", "count", "exists",
        "updateAll", "deleteAll", "cursor",
    ]

    /// `format` → `Format`, `book_format` → `BookFormat`.
    static func upperCamelCase(_ name: String) -> String {
        name.split(separator: "_").map { part in part.prefix(1).uppercased() + part.dropFirst() }.joined()
    }
}
