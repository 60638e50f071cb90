import Strata

/// The naming authority: every Swift name of the generated code — records, DAOs, enum types and
/// cases, properties, methods, navigation, typed-query rows and parameters — comes from here,
/// and the front end's validation asks the same rules (modelled on swift-openapi-generator's
/// `SwiftSafeNames`).
///
/// A name from the schema either compiles as written, escaped in backticks when it is a keyword
/// (`default`, `where`, `Type`), or is renamed by a documented rule (an enum value `2nd` is the
/// case `_2nd`, a table `order` the record `Order`), or is rejected at its YAML line with a hint.
/// A name is never checked by one rule and rendered by another.
enum SwiftNames {
    // MARK: - What Swift accepts

    /// Words that must be escaped with backticks to be used as identifiers. `Type` and
    /// `Protocol` are not keywords, but a member with either name compiles only in backticks
    /// (unescaped they read as the metatype `foo.Type`).
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private", "precedencegroup",
        "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case",
        "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "_", "Type", "Protocol",
    ]

    /// Contextual keywords a generated type cannot be named (`some Foo`, `any Foo`, `async`).
    static let contextualKeywords: Set<String> = ["any", "some", "async", "consume", "package"]

    /// Whether `name` can be a Swift identifier (keywords allowed: they are escaped).
    static func isValidSwiftIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name != "_" else { return false }
        guard first == "_" || first.properties.isXIDStart else { return false }
        return name.unicodeScalars.dropFirst().allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }

    /// Whether `name` can name a generated Swift type.
    static func isValidTypeName(_ name: String) -> Bool {
        isValidSwiftIdentifier(name) && !keywords.contains(name) && !contextualKeywords.contains(name)
            && !reservedTypeNames.contains(name)
    }

    /// Type names that cannot be redeclared in Swift.
    static let reservedTypeNames: Set<String> = ["Self", "Any", "Type", "Protocol"]

    /// Type names the generated code relies on (Strata's, the standard library's and
    /// Foundation's): a record, namespace or enum named like one would hide it.
    static let typesUsedByGeneratedCode: Set<String> = [
        // Strata
        "Strata", "Database", "Migration", "Migrator", "RecordDAO", "DateFormat", "UUIDFormat", "Statement",
        "Connection", "Cursor", "Row", "StrataError", "DatabaseValue", "StatementArguments", "CachedSQL", "TableRecord",
        // Swift and Foundation
        "Foundation", "Sequence", "CaseIterable", "Identifiable", "Hashable", "Codable", "Sendable", "Bool", "Int",
        "Int64", "Int32", "Double", "String", "Data", "Date", "UUID", "Optional", "Array", "Dictionary", "Set",
        "Error", "Never", "Void", "JSONEncoder", "JSONDecoder",
    ]

    /// Names a nested enum cannot take: `Type`, `Protocol`, `Self` and `Any` are not allowed as
    /// member types; `CodingKeys` and `ID` would change the record's `Codable` and
    /// `Identifiable` conformances; the others would hide a type the record uses.
    static let reservedNestedTypeNames: Set<String> = reservedTypeNames.union(typesUsedByGeneratedCode).union(["CodingKeys", "ID"])

    // MARK: - Members

    /// Names a stored property (a record's column, a typed-query row's column) cannot take:
    /// `hashValue` is `Hashable`'s (a second one makes every use ambiguous), `_` is no name.
    /// Keywords, `self`, `init`, `Type` and `Protocol` compile escaped.
    static let forbiddenPropertyNames: Set<String> = ["hashValue", "_"]

    /// Why `name` cannot be a generated stored property, or nil when it can.
    static func propertyNameProblem(_ name: String) -> String? {
        switch name {
        case "hashValue": "it would clash with Hashable's 'hashValue' in every generated struct"
        case _ where forbiddenPropertyNames.contains(name): "'\(name)' is not a name"
        default: nil
        }
    }

    /// Names a generated method cannot take: Swift reads `x.init()`, `x.self`, `x.Type` as
    /// something else, or does not allow the declaration.
    static let forbiddenMethodNames: Set<String> = ["init", "deinit", "self", "Self", "subscript", "Type", "Protocol", "super", "_"]

    /// The members every generated DAO has (from the runtime's `RecordDAO` or generated): a
    /// named query cannot take these names, navigation methods are numbered around them.
    static let daoMembers: Set<String> = [
        "insert", "upsert", "update", "delete", "find", "fetchAll", "fetchOne", "count", "exists", "updateAll",
        "deleteAll", "cursor", "decode", "conn",
    ]

    /// The methods the DAO of a table with `search:` adds.
    static let searchMembers: Set<String> = ["search", "searchWithSnippets"]

    /// The members every generated `<Database>Queries` has.
    static let queriesMembers: Set<String> = ["conn"]

    /// Why `name` cannot be a method of a generated DAO, or nil when it can.
    static func daoMethodProblem(_ name: String) -> String? {
        if forbiddenMethodNames.contains(name) { return "Swift does not allow a method named '\(name)'" }
        if daoMembers.contains(name) { return "every DAO has a member named '\(name)'" }
        return nil
    }

    /// Why `name` cannot be a method of the generated `<Database>Queries`, or nil when it can.
    static func queriesMethodProblem(_ name: String) -> String? {
        if forbiddenMethodNames.contains(name) { return "Swift does not allow a method named '\(name)'" }
        if queriesMembers.contains(name) { return "it has a member named '\(name)'" }
        return nil
    }

    /// The SQL constants every DAO may have.
    static let daoConstants: Set<String> = [
        "tableSQLName", "selectSQL", "insertSQL", "insertAssigningKeySQL", "upsertSQL", "updateSQL", "deleteSQL", "findSQL",
    ]

    /// Names that generated method and initializer bodies declare or use unqualified
    /// (`statement`, `records`, `self` …): a parameter with such a name keeps it as its label
    /// but gets another internal name.
    static let bodyNames: Set<String> = ["statement", "conn", "records", "record", "stored", "value", "self", "Self"]

    /// The names an initializer body `self.x = x` uses unqualified.
    static let initializerBodyNames: Set<String> = ["self", "Self"]

    /// For each parameter name, in order: how it is declared in a signature (`id`,
    /// `statement statement_`) and how the body refers to it (`id`, `statement_`); `bodyNames`
    /// are the names the body uses itself.
    static func parameterNames(_ names: [String], bodyNames: Set<String> = bodyNames) -> [(declaration: String, reference: String)] {
        var taken = Set(names).union(bodyNames)
        return names.map { name in
            guard bodyNames.contains(name) else { return (identifier(name), identifier(name)) }
            var internalName = name + "_"
            while taken.contains(internalName) { internalName += "_" }
            taken.insert(internalName)
            return ("\(argumentLabel(name)) \(internalName)", internalName)
        }
    }

    // MARK: - Generated type names

    /// `Book` → `BookDAO`.
    static func daoName(_ record: String) -> String { record + "DAO" }

    /// `Library` → `LibraryQueries`: the type of the top-level typed queries.
    static func queriesTypeName(_ database: String) -> String { database + "Queries" }

    /// `topArtists` → `TopArtistsRow`: the row type of a typed query.
    static func rowTypeName(_ query: String) -> String { upperCamelCase(query) + "Row" }

    // MARK: - Spelling

    /// `name`, in backticks when it is a keyword.
    static func identifier(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label at a call site or in a signature: only `inout`, `var` and
    /// `let` need backticks there (escaping others draws a warning).
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
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

    /// `book_format` → `BookFormat`, `topArtists` → `TopArtists`: type names made from keys.
    static func upperCamelCase(_ name: String) -> String {
        name.split(separator: "_").map { part in upperFirst(String(part)) }.joined()
    }

    /// `artist_name` → `artistName`, `ArtistId` → `artistId`, `total` → `total`: property
    /// names made from SQL result column names.
    static func lowerCamelCase(_ name: String) -> String {
        let parts = name.split(separator: "_", omittingEmptySubsequences: true)
        guard let first = parts.first else { return name }
        return lowerFirst(String(first)) + parts.dropFirst().map { upperFirst(String($0)) }.joined()
    }

    /// The type of the enum a column generates: its name in UpperCamelCase, with `Value`
    /// appended when that would be a reserved nested name or the record's (`type` →
    /// `TypeValue`: a nested `Type` does not compile, a nested `Date` would hide Foundation's).
    static func enumTypeName(forColumn name: String, record: String) -> String {
        let typeName = upperCamelCase(name)
        return reservedNestedTypeNames.contains(typeName) || typeName == record ? typeName + "Value" : typeName
    }

    /// The case name of an enum value, unescaped: `paperback` stays; `e-book` → `eBook`;
    /// `2nd` → `_2nd`; `FIRST` → `first`; a value with no letters or digits → `_empty`; a name
    /// Swift gives another meaning after a `.` (`self`, `init`, `Type`) gets a trailing `_`.
    static func enumCaseName(_ value: String) -> String {
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
        if forbiddenMethodNames.contains(name) || name.allSatisfy({ $0 == "_" }) { name += "_" }
        return name
    }

    /// The case name of an enum value as written in code (escaped when a keyword).
    static func enumCase(_ value: String) -> String {
        identifier(enumCaseName(value))
    }

    /// Whether `text` is a Swift type expression a json column can name: a (dotted) type name
    /// with generic arguments (`Set<String>`, `Shop.Address`), an array `[T]`, a dictionary
    /// `[K: V]`, each optionally `?`. Whether the type exists is for the Swift compiler.
    static func isTypeExpression(_ text: String) -> Bool {
        var scalars = Array(text.unicodeScalars)[...]
        // The next scalar after any spaces (spaces separate tokens, never a name's parts).
        func next() -> Unicode.Scalar? {
            while scalars.first == " " { scalars.removeFirst() }
            return scalars.first
        }
        func name() -> Bool {
            guard let first = next(), first == "_" || first.properties.isXIDStart else { return false }
            var word = ""
            while let scalar = scalars.first, scalar == "_" || scalar.properties.isXIDContinue {
                word.unicodeScalars.append(scalar)
                scalars.removeFirst()
            }
            return !keywords.contains(word) && !contextualKeywords.contains(word)
        }
        func type() -> Bool {
            if next() == "[" {
                scalars.removeFirst()
                guard type() else { return false }
                if next() == ":" {
                    scalars.removeFirst()
                    guard type() else { return false }
                }
                guard next() == "]" else { return false }
                scalars.removeFirst()
            } else {
                guard name() else { return false }
                while scalars.first == "." {
                    scalars.removeFirst()
                    guard name() else { return false }
                }
                if next() == "<" {
                    repeat {
                        scalars.removeFirst()
                        guard type() else { return false }
                    } while next() == ","
                    guard next() == ">" else { return false }
                    scalars.removeFirst()
                }
            }
            while scalars.first == "?" { scalars.removeFirst() }
            return true
        }
        return type() && next() == nil
    }

    /// A json column's `swiftType` as written outside its record: each name of one of the
    /// record's own enums is qualified (`[Kind]` → `[Book.Kind]`, `[String: [Kind]]` →
    /// `[String: [Book.Kind]]`); inside the record the type reads as written.
    static func qualified(_ swiftType: String, nestedTypes: Set<String>, in record: String) -> String {
        guard !nestedTypes.isEmpty else { return swiftType }
        var result = ""
        var word = ""
        var previous: Character?
        func flush() {
            if nestedTypes.contains(word) && previous != "." { result += identifier(record) + "." }
            result += word
            word = ""
        }
        for character in swiftType {
            if character == "_" || character.isLetter || character.isNumber {
                if word.isEmpty { previous = result.last }
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    // MARK: - Names made from SQL (introspection)

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
        var name = words(sqlName).map { upperFirst($0) }.joined()
        if name.isEmpty { name = "Table" }
        if let first = name.unicodeScalars.first, !first.properties.isXIDStart { name = "_" + name }
        return name
    }

    /// The Swift property name for an SQL column name: `ArtistId` → `artistId`, `first_name`
    /// → `firstName`, `ID` → `id`. Keywords stay (they are escaped); a name no property can
    /// take (`hashValue`) gets `Column` appended.
    static func propertyName(forColumn sqlName: String) -> String {
        let parts = words(sqlName)
        guard let first = parts.first else { return "column" }
        var name = lowerFirst(first) + parts.dropFirst().map { upperFirst($0) }.joined()
        if let initial = name.unicodeScalars.first, !initial.properties.isXIDStart { name = "_" + name }
        if propertyNameProblem(name) != nil { name += "Column" }
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

    // MARK: - Literals

    /// A Swift string literal for `text`: a raw string (`#"…"#`) when the text has quotes or
    /// backslashes, so SQL stays readable.
    static func stringLiteral(_ text: String) -> String {
        // Searched by Unicode scalar and UTF-8 byte: Foundation's `contains` of a string (which
        // these calls used) bridges to NSString and compares by canonical equivalence, slowly.
        let needsEscaping = text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }
        if needsEscaping {
            let escaped = TextEscaping.backslashEscaped(text) {
                $0.value < 0x20 ? "\\u{\(String($0.value, radix: 16))}" : nil
            }
            return "\"\(escaped)\""
        }
        if !text.utf8.contains(UInt8(ascii: "\"")) && !text.utf8.contains(UInt8(ascii: "\\")) { return "\"\(text)\"" }
        var pounds = "#"
        while contains(text, "\"" + pounds) || contains(text, "\\" + pounds) { pounds += "#" }
        return "\(pounds)\"\(text)\"\(pounds)"
    }

    /// Whether the UTF-8 bytes of `text` contain those of `part`.
    static func contains(_ text: String, _ part: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(part.utf8)
        guard let first = needle.first, needle.count <= bytes.count else { return needle.isEmpty }
        for start in 0...(bytes.count - needle.count) where bytes[start] == first {
            if bytes[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// A multi-line raw string literal whose value is exactly `text` (line endings as `\n`).
    /// Every line, the delimiters included, starts with `indent`, which Swift strips again; an
    /// empty line stays empty (no trailing spaces).
    static func multilineLiteral(_ text: String, indent: String) -> String {
        var pounds = "#"
        while contains(text, "\"\"\"" + pounds) || contains(text, "\\" + pounds) { pounds += "#" }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }
        return "\(pounds)\"\"\"\n" + lines.joined(separator: "\n") + "\n" + indent + "\"\"\"\(pounds)"
    }
}

/// Record names for tables (introspection): UpperCamelCase, and unique, following the
/// naming authority's rules.
struct RecordNames {
    let databaseName: String
    var used: Set<String> = []

    init(databaseName: String) {
        self.databaseName = databaseName
    }

    mutating func make(for sqlName: String) -> String {
        var name = SwiftNames.recordName(forTable: sqlName)
        // Names refused for a record: keywords, the types the generated code uses, the
        // namespace's name, a DAO's name.
        if !SwiftNames.isValidTypeName(name) || SwiftNames.typesUsedByGeneratedCode.contains(name) || name == databaseName
            || SwiftNames.daoName(name) == databaseName || name.hasSuffix("DAO")
        {
            name += "Record"
        }
        return SwiftNames.unique(name, among: &used)
    }
}
