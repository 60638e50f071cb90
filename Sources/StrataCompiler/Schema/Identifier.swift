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

    /// Type names the generated code relies on (Strata's, the standard library's and
    /// Foundation's): a record, namespace or enum named like one would hide it.
    static let typesUsedByGeneratedCode: Set<String> = [
        // Strata
        "Strata", "Database", "Migration", "Migrator", "RecordDAO", "DateFormat", "UUIDFormat", "Statement",
        "Connection", "Cursor", "Row", "StrataError", "DatabaseValue", "StatementArguments",
        // Swift and Foundation
        "Foundation", "Sequence", "CaseIterable", "Identifiable", "Hashable", "Codable", "Sendable", "Bool", "Int",
        "Int64", "Int32", "Double", "String", "Data", "Date", "UUID", "Optional", "Array", "Dictionary", "Set",
        "Error", "Never", "Void", "JSONEncoder", "JSONDecoder",
    ]

    /// Names a nested enum cannot take: `Type`, `Protocol`, `Self` and `Any` are not allowed as
    /// member types; `CodingKeys` and `ID` would change the record's `Codable` and
    /// `Identifiable` conformances; the others would hide a type the record uses.
    static let reservedNestedTypeNames: Set<String> = reservedTypeNames.union(typesUsedByGeneratedCode).union(["CodingKeys", "ID"])

    /// The names of the methods every generated DAO has; a query cannot take them.
    static let builtInDAOMethods: [String] = [
        "insert", "update", "upsert", "delete", "find", "fetchAll", "fetchOne", "count", "exists",
        "updateAll", "deleteAll", "cursor",
    ]

    /// `format` → `Format`, `book_format` → `BookFormat`.
    static func upperCamelCase(_ name: String) -> String {
        name.split(separator: "_").map { part in part.prefix(1).uppercased() + part.dropFirst() }.joined()
    }

    /// The words of an SQL name: split at `_` and at anything that cannot be in an identifier.
    static func words(_ sqlName: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in sqlName.unicodeScalars {
            if scalar != "_" && scalar.properties.isXIDContinue {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        // An all-capitals word (`FIRST_NAME`) reads as a word, not an acronym.
        return words.map { $0.count > 1 && $0 == $0.uppercased() && $0 != $0.lowercased() ? $0.lowercased() : $0 }
    }

    /// The record name for an SQL table name: `invoice_items` → `InvoiceItems`, `Artist` →
    /// `Artist` (no singularising). A name that would start with a digit gets a leading `_`.
    static func recordName(forTable sqlName: String) -> String {
        var name = words(sqlName).map { SwiftNames.upperFirst($0) }.joined()
        if name.isEmpty { name = "Table" }
        if let first = name.unicodeScalars.first, !first.properties.isXIDStart { name = "_" + name }
        return name
    }

    /// The Swift property name for an SQL column name: `ArtistId` → `artistId`, `first_name`
    /// → `firstName`, `ID` → `id`. Keywords stay (the generator escapes them).
    static func propertyName(forColumn sqlName: String) -> String {
        let parts = words(sqlName)
        guard let first = parts.first else { return "column" }
        var name = SwiftNames.lowerFirst(first) + parts.dropFirst().map { SwiftNames.upperFirst($0) }.joined()
        if let initial = name.unicodeScalars.first, !initial.properties.isXIDStart { name = "_" + name }
        return name
    }

    /// `name`, or `name2`, `name3` … when it is already in `used`; inserted into `used`.
    static func unique(_ name: String, among used: inout Set<String>) -> String {
        var candidate = name
        var suffix = 2
        while used.contains(candidate) {
            candidate = name + String(suffix)
            suffix += 1
        }
        used.insert(candidate)
        return candidate
    }
}

/// Record names for tables: UpperCamelCase, and unique, following the generator's rules.
struct RecordNames {
    let databaseName: String
    var used: Set<String> = []

    init(databaseName: String) {
        self.databaseName = databaseName
    }

    mutating func make(for sqlName: String) -> String {
        var name = Identifier.recordName(forTable: sqlName)
        // Names the generator refuses for a record: keywords, the types the generated code
        // uses, the namespace's name, a DAO's name.
        if !Identifier.isValidTypeName(name) || Identifier.typesUsedByGeneratedCode.contains(name) || name == databaseName
            || name + "DAO" == databaseName || name.hasSuffix("DAO")
        {
            name += "Record"
        }
        return Identifier.unique(name, among: &used)
    }
}
