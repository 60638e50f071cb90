import Strata

/// How the values of one column type are declared, bound and read: its SQL type on each
/// backend, its Swift type, the code the generated DAOs bind and read it with on each backend,
/// its CHECK, and its default literals.
///
/// ``ColumnType/codec(dateFormat:)`` chooses the codec, and is the one place that switches over
/// the column types: a new type is a new codec there, and every renderer asks the codec.
///
/// ```swift
/// column.codec.sqliteBind("record.title", isOptional: false, at: 1)   // try statement.bind(record.title, at: 1)
/// column.codec.postgresType                                          // TEXT
/// ```
package protocol ValueCodec: Sendable {
    /// The spelling in a schema file (`int`, `enum`).
    var keyword: String { get }
    /// The SQLite type the DDL declares (`INTEGER`; a date's `dateFormat:` storage type).
    var sqliteType: String { get }
    /// The PostgreSQL type the DDL declares (`BIGINT`).
    var postgresType: String { get }
    /// The Swift type without optionality, as code outside the record names it (`Book.Format`).
    func swiftType(in table: Table) -> String
    /// The Swift type as declared inside the record (a nested enum unqualified).
    var memberType: String { get }
    /// The enum the record nests for this type (its name and values), or nil.
    var nestedEnum: (name: String, values: [String])? { get }
    /// The Swift type named in the schema (an enum's or json's `swiftType`), or nil.
    var declaredSwiftType: String? { get }
    /// A Swift literal of this type for an example call in a doc comment (`1`, `""`), `…` when none is short.
    var exampleArgument: String { get }
    /// What a diagram notes about the type (an enum's values, a json's Swift type), or nil.
    var diagramNote: String? { get }

    /// The read of a value at result position `index` of a SQLite `statement` (`names` are the
    /// `table:` and `column:` arguments of a validating read), and whether the call throws.
    func sqliteRead(at index: Int, names: String, in table: Table) -> (call: String, throwing: Bool)
    /// The `Statement` method that converts a value of a table that is not STRICT as SQLite
    /// would (`convertedInt`), or nil when the plain read already checks.
    var convertedReader: String? { get }
    /// One line binding the Swift expression `value` to parameter `index` of a SQLite `statement`.
    func sqliteBind(_ value: String, isOptional: Bool, at index: Int) -> String
    /// The CHECK a SQLite column of this type gets (`name` quoted), given its declared `sqlType:`.
    func sqliteCheck(_ name: String, sqlType: String?) -> String?
    /// A default as SQLite SQL when the type spells it its own way, or nil for the common rendering.
    func sqliteDefault(_ value: DefaultValue) -> String?
    /// The function that rounds a value to what the database stores (a date's millisecond), or nil.
    var rounding: String? { get }

    /// The read of PostgreSQL `cell` (`helpers` is the file's enum of decoding helpers).
    func postgresRead(_ cell: String, isOptional: Bool, in table: Table, helpers: String) -> String
    /// One line appending the Swift expression `value` to `bindings`.
    func postgresBind(_ value: String, isOptional: Bool, helpers: String) -> String
    /// Placeholder `$number` (with the cast the bound value needs).
    func postgresPlaceholder(_ number: Int) -> String
    /// The CHECK a PostgreSQL column of this type gets (`name` quoted), or nil.
    func postgresCheck(_ name: String) -> String?
    /// A default as PostgreSQL SQL when the type spells it its own way, or nil for the common rendering.
    func postgresDefault(_ value: DefaultValue) -> String?

    /// A column's `default:` literal (not `{ sql: }`) read for this type.
    func decodeDefault(_ node: YAMLNode) -> DefaultDecoding
    /// The record initializer's default for a column default `value`.
    func swiftDefault(_ value: DefaultValue, isOptional: Bool) -> SwiftDefault
    /// The Swift expression that makes a new key value when the type is a table's whole key
    /// (`UUID()`), or nil.
    var generatedKey: String? { get }
}

/// What a column's `default:` literal is for its type.
package enum DefaultDecoding: Equatable, Sendable {
    /// This default.
    case value(DefaultValue)
    /// Not a default of the type: it must be `expected` (what the message says), with `hint`.
    case expected(String, hint: String?)
    /// A scalar that is not one of the enum's `values`.
    case notOneOf(String, values: [String])
}

/// What a record initializer says for a column default.
package enum SwiftDefault: Equatable, Sendable {
    /// This Swift literal.
    case literal(String)
    /// No Swift spelling: the caller passes a value.
    case none
    /// The type has nothing to say about this default (the common rule follows).
    case unmatched
}

// The common behaviour; each codec states only where it differs.
extension ValueCodec {
    package func swiftType(in table: Table) -> String { memberType }
    package var nestedEnum: (name: String, values: [String])? { nil }
    package var declaredSwiftType: String? { nil }
    package var exampleArgument: String { "…" }
    package var diagramNote: String? { nil }
    package var convertedReader: String? { nil }
    package func sqliteBind(_ value: String, isOptional: Bool, at index: Int) -> String {
        "try statement.bind(\(value), at: \(index))"
    }
    package func sqliteCheck(_ name: String, sqlType: String?) -> String? { nil }
    package func sqliteDefault(_ value: DefaultValue) -> String? { nil }
    package var rounding: String? { nil }
    package func postgresRead(_ cell: String, isOptional: Bool, in table: Table, helpers: String) -> String {
        "try \(cell).decode(\(swiftType(in: table))\(isOptional ? "?" : "").self)"
    }
    package func postgresBind(_ value: String, isOptional: Bool, helpers: String) -> String { "bindings.append(\(value))" }
    package func postgresPlaceholder(_ number: Int) -> String { "$\(number)" }
    package func postgresCheck(_ name: String) -> String? { nil }
    package func postgresDefault(_ value: DefaultValue) -> String? { nil }
    package var generatedKey: String? { nil }
}

extension ColumnType {
    /// The codec of this type; `dateFormat` is a date column's storage (`dateFormat:`).
    ///
    /// The one switch over the column types.
    package func codec(dateFormat: DateStorage? = nil) -> any ValueCodec {
        switch self {
        case .int:
            PlainCodec("int", swift: "Int", sqlite: "INTEGER", postgres: "BIGINT", reader: "int", example: "1", decode: { $0.int.map { .value(.integer($0)) } ?? .expected("an integer", hint: nil) }) {
                if case .integer(let number) = $0 { String(number) } else { nil }
            }
        case .double:
            PlainCodec("double", swift: "Double", sqlite: "REAL", postgres: "DOUBLE PRECISION", reader: "double", example: "1.0", decode: { $0.double.map { .value(.real($0)) } ?? .expected("a number", hint: nil) }) {
                switch $0 {
                case .integer(let number): String(number)
                case .real(let number): "\(number)"
                default: nil
                }
            } postgresLiteral: {
                if case .integer(let number) = $0 { "\(Double(number))" } else { nil }
            }
        case .bool:
            PlainCodec(
                "bool", swift: "Bool", sqlite: "INTEGER", postgres: "BOOLEAN", reader: "bool", checkedValues: "0, 1", example: "true",
                decode: { $0.bool.map { .value(.bool($0)) } ?? .expected("true or false", hint: nil) }
            ) {
                switch $0 {
                case .bool(let flag): flag ? "true" : "false"
                case .integer(let number): number != 0 ? "true" : "false"
                default: nil
                }
            } postgresLiteral: {
                if case .integer(let number) = $0 { number == 0 ? "FALSE" : "TRUE" } else { nil }
            }
        case .text:
            PlainCodec("text", swift: "String", sqlite: "TEXT", postgres: "TEXT", reader: "string", example: "\"\"", decode: Self.decodeText) {
                if case .text(let text) = $0 { SwiftNames.stringLiteral(text) } else { nil }
            }
        case .blob:
            PlainCodec(
                "blob", swift: "Data", sqlite: "BLOB", postgres: "BYTEA", reader: "data", bindsThrowingOnPostgres: true,
                decode: { _ in .expected("{ sql: expression }", hint: "for example { sql: \"x''\" }") })
        case .uuid:
            PlainCodec("uuid", swift: "UUID", sqlite: "TEXT", postgres: "UUID", reader: "uuid", validates: true, generatedKey: "UUID()", decode: Self.decodeUUID)
        case .date: DateCodec(storage: dateFormat)
        case .enumeration(let swiftType, let values): EnumCodec(name: swiftType, values: values)
        case .json(let swiftType): JSONCodec(name: swiftType)
        }
    }

    /// A `text` default: a string (a number or boolean must be quoted).
    static func decodeText(_ node: YAMLNode) -> DefaultDecoding {
        if let value = node.string { return .value(.text(value)) }
        guard let scalar = node.scalarText else { return .expected("text", hint: nil) }
        return .expected("text", hint: "quote it: \"\(scalar)\"")
    }

    /// A `uuid` default, stored upper-case.
    static func decodeUUID(_ node: YAMLNode) -> DefaultDecoding {
        guard let value = node.string, SchemaDecoder.isUUID(value) else {
            return .expected("a UUID", hint: "for example \"3F2504E0-4F89-41D3-9A0C-0305E82C3301\"")
        }
        return .value(.text(value.uppercased()))
    }

    /// The spelling in a schema file.
    package var keyword: String { codec().keyword }

    /// The SQLite storage type used in DDL.
    package var sqlType: String { codec().sqliteType }

    /// The SQL type the DDL renders for a type keyword (`TEXT` for `enum` and `json`).
    static func sqlType(ofKeyword keyword: String) -> String {
        SchemaDecoder.simpleType(keyword)?.sqlType ?? "TEXT"
    }
}

extension Column {
    /// The codec of the column's type (with its `dateFormat:`).
    package var codec: any ValueCodec { type.codec(dateFormat: dateFormat) }
}

// MARK: - The codecs

/// `int`, `double`, `bool`, `text`, `blob`, `uuid`: a Swift type `Statement` and
/// `PostgresBindings` take as it is. A table that is not STRICT reads it converted as SQLite
/// would; `bool` is INTEGER 0/1 with a CHECK on SQLite; a UUID is validated when read and a
/// table whose whole key it is makes its own.
struct PlainCodec: ValueCodec {
    let keyword, memberType, sqliteType, postgresType: String
    /// The `Statement` read (`int` → `statement.int(at:)`).
    let reader: String
    /// Whether the read validates the stored text (and throws naming the table and column).
    let validates: Bool
    /// The values a SQLite CHECK allows (`0, 1`), or nil.
    let checkedValues: String?
    /// Whether appending a value to `PostgresBindings` throws.
    let bindsThrowingOnPostgres: Bool
    let generatedKey: String?
    /// The literal of an example argument (``ValueCodec/exampleArgument``).
    let exampleArgument: String
    /// Reads a `default:` literal.
    let decode: @Sendable (YAMLNode) -> DefaultDecoding
    /// The initializer literal of a default, or nil when the type has none for it.
    let literal: @Sendable (DefaultValue) -> String?
    /// A default as PostgreSQL writes it for this type, or nil for the common rendering.
    let postgresLiteral: @Sendable (DefaultValue) -> String?

    init(
        _ keyword: String, swift memberType: String, sqlite sqliteType: String, postgres postgresType: String, reader: String,
        validates: Bool = false, checkedValues: String? = nil, bindsThrowingOnPostgres: Bool = false, generatedKey: String? = nil,
        example exampleArgument: String = "…",
        decode: @escaping @Sendable (YAMLNode) -> DefaultDecoding,
        literal: @escaping @Sendable (DefaultValue) -> String? = { _ in nil },
        postgresLiteral: @escaping @Sendable (DefaultValue) -> String? = { _ in nil }
    ) {
        (self.keyword, self.memberType, self.sqliteType, self.postgresType, self.reader) = (keyword, memberType, sqliteType, postgresType, reader)
        (self.validates, self.checkedValues, self.bindsThrowingOnPostgres) = (validates, checkedValues, bindsThrowingOnPostgres)
        (self.generatedKey, self.decode, self.literal, self.postgresLiteral) = (generatedKey, decode, literal, postgresLiteral)
        self.exampleArgument = exampleArgument
    }

    func sqliteRead(at index: Int, names: String, in table: Table) -> (call: String, throwing: Bool) {
        validates ? ("statement.\(reader)(at: \(index), \(names))", true) : ("statement.\(reader)(at: \(index))", false)
    }
    var convertedReader: String? { validates ? nil : "converted" + memberType }
    func sqliteCheck(_ name: String, sqlType: String?) -> String? {
        guard let checkedValues, sqlType == nil else { return nil }
        return "CHECK (\(name) IN (\(checkedValues)))"
    }
    func postgresBind(_ value: String, isOptional: Bool, helpers: String) -> String {
        (bindsThrowingOnPostgres ? "try " : "") + "bindings.append(\(value))"
    }
    func postgresDefault(_ value: DefaultValue) -> String? { postgresLiteral(value) }
    func decodeDefault(_ node: YAMLNode) -> DefaultDecoding { decode(node) }
    func swiftDefault(_ value: DefaultValue, isOptional: Bool) -> SwiftDefault { literal(value).map(SwiftDefault.literal) ?? .unmatched }
}

/// `date`: TEXT in UTC, or the number of a `dateFormat:`; TIMESTAMPTZ on PostgreSQL.
struct DateCodec: ValueCodec {
    /// The `dateFormat:` storage, nil for the text format.
    let storage: DateStorage?

    var keyword: String { "date" }
    var memberType: String { "Date" }
    var sqliteType: String { storage?.sqlType ?? "TEXT" }
    var postgresType: String { "TIMESTAMPTZ" }

    func sqliteRead(at index: Int, names: String, in table: Table) -> (call: String, throwing: Bool) {
        guard let storage else { return ("statement.date(at: \(index), \(names))", true) }
        return ("statement.date(at: \(index), storage: .\(storage.rawValue), \(names))", true)
    }
    func sqliteBind(_ value: String, isOptional: Bool, at index: Int) -> String {
        guard let storage else { return "try statement.bind(\(value), at: \(index))" }
        return "try statement.bind(\(value), storage: .\(storage.rawValue), at: \(index))"
    }
    /// `now` and a date literal in the `dateFormat:` (`(unixepoch())`, `1700000000`).
    func sqliteDefault(_ value: DefaultValue) -> String? {
        guard let storage else { return nil }
        switch value {
        case .now: return storage.nowSQL
        case .text(let text):
            guard let date = DateFormat.date(from: text) else { return nil }
            let number = storage.number(for: date)
            return storage.isInteger ? String(Int64(number)) : "\(number)"
        default: return nil
        }
    }
    var rounding: String? { storage.map { "DateStorage.\($0.rawValue).rounded" } ?? "DateFormat.rounded" }
    func decodeDefault(_ node: YAMLNode) -> DefaultDecoding {
        if let value = node.string {
            if value == "now" { return .value(.now) }
            if SchemaDecoder.isDateText(value) { return .value(.text(value)) }
        }
        return .expected("now or a date", hint: SchemaDecoder.dateFormatHint)
    }
    /// Strata's date text is UTC: say so, or PostgreSQL reads it in the session's zone.
    func postgresDefault(_ value: DefaultValue) -> String? {
        guard case .text(let text) = value else { return nil }
        return SQLQuoting.literal(text + "+00")
    }
    func swiftDefault(_ value: DefaultValue, isOptional: Bool) -> SwiftDefault {
        switch value {
        case .now: return .literal("Date()")
        case .text(let text):
            guard let date = DateFormat.date(from: text) else { return .unmatched }
            return .literal("Date(timeIntervalSince1970: \(date.timeIntervalSince1970))")
        default: return .unmatched
        }
    }
}

/// `enum`: a `String`-backed enum nested in the record, TEXT with a CHECK of its values.
struct EnumCodec: ValueCodec {
    /// The enum's Swift name.
    let name: String
    /// The stored values, in declaration order.
    let values: [String]

    var keyword: String { "enum" }
    var memberType: String { name }
    var sqliteType: String { "TEXT" }
    var postgresType: String { "TEXT" }
    func swiftType(in table: Table) -> String { "\(table.recordName).\(name)" }
    var nestedEnum: (name: String, values: [String])? { (name, values) }
    var declaredSwiftType: String? { name }
    var diagramNote: String? { values.joined(separator: " | ") }

    func sqliteRead(at index: Int, names: String, in table: Table) -> (call: String, throwing: Bool) {
        ("statement.enumeration(\(swiftType(in: table)).self, at: \(index), \(names))", true)
    }
    func sqliteBind(_ value: String, isOptional: Bool, at index: Int) -> String {
        "try statement.bind(\(value)\(isOptional ? "?" : "").rawValue, at: \(index))"
    }
    func sqliteCheck(_ name: String, sqlType: String?) -> String? { postgresCheck(name) }
    func decodeDefault(_ node: YAMLNode) -> DefaultDecoding {
        guard let value = node.scalarText, node.pairs == nil, node.items == nil else { return .expected("one of its values", hint: nil) }
        return values.contains(value) ? .value(.text(value)) : .notOneOf(value, values: values)
    }
    func postgresRead(_ cell: String, isOptional: Bool, in table: Table, helpers: String) -> String {
        let call = "\(helpers).enumeration(\(swiftType(in: table)).self, \(cell))"
        return "try " + (isOptional ? "\(cell).bytes == nil ? nil : \(call)" : call)
    }
    func postgresBind(_ value: String, isOptional: Bool, helpers: String) -> String {
        "bindings.append(\(value)\(isOptional ? "?" : "").rawValue)"
    }
    func postgresCheck(_ name: String) -> String? {
        "CHECK (\(name) IN (\(values.map(SQLQuoting.literal).joined(separator: ", "))))"
    }
    /// `.paperback`; `Mode.none` for an optional column, where `.none` (or `.some`) alone
    /// would be `Optional`'s.
    func swiftDefault(_ value: DefaultValue, isOptional: Bool) -> SwiftDefault {
        guard case .text(let text) = value else { return .unmatched }
        let caseName = SwiftNames.enumCase(text)
        guard isOptional, ["none", "some"].contains(caseName) else { return .literal("." + caseName) }
        return .literal(SwiftNames.identifier(name) + "." + caseName)
    }
}

/// `json`: any `Codable & Sendable` Swift type, TEXT holding JSON; JSONB on PostgreSQL.
struct JSONCodec: ValueCodec {
    /// The Swift type as the schema names it.
    let name: String

    var keyword: String { "json" }
    var memberType: String { SwiftNames.qualified(name, nestedTypes: [], in: "") }
    var sqliteType: String { "TEXT" }
    var postgresType: String { "JSONB" }
    func swiftType(in table: Table) -> String { SwiftNames.qualified(name, nestedTypes: table.enumTypeNames, in: table.recordName) }
    var declaredSwiftType: String? { name }
    var diagramNote: String? { name }

    func sqliteRead(at index: Int, names: String, in table: Table) -> (call: String, throwing: Bool) {
        ("statement.json(\(swiftType(in: table)).self, at: \(index), \(names))", true)
    }
    func sqliteBind(_ value: String, isOptional: Bool, at index: Int) -> String {
        guard isOptional else { return "try statement.bind(json: \(value), at: \(index))" }
        return "if let value = \(value) { try statement.bind(json: value, at: \(index)) } else { try statement.bindNull(at: \(index)) }"
    }
    func postgresRead(_ cell: String, isOptional: Bool, in table: Table, helpers: String) -> String {
        let call = "\(helpers).json(\(name).self, \(cell))"
        return "try " + (isOptional ? "\(cell).bytes == nil ? nil : \(call)" : call)
    }
    func postgresBind(_ value: String, isOptional: Bool, helpers: String) -> String {
        guard isOptional else { return "bindings.append(try \(helpers).jsonText(\(value)))" }
        return "try bindings.append(\(value).map { try \(helpers).jsonText($0) })"
    }
    /// Any YAML value, as JSON text.
    func decodeDefault(_ node: YAMLNode) -> DefaultDecoding { .value(.json(JSONText.render(node))) }
    /// JSON is bound as text and cast.
    func postgresPlaceholder(_ number: Int) -> String { "$\(number)::jsonb" }
    func postgresDefault(_ value: DefaultValue) -> String? {
        guard case .json(let text) = value else { return nil }
        return SQLQuoting.literal(text) + "::jsonb"
    }
    /// Only array and dictionary types take a JSON literal; any other type (a struct) has no
    /// Swift spelling of the default: the caller passes a value.
    func swiftDefault(_ value: DefaultValue, isOptional: Bool) -> SwiftDefault {
        guard name.hasPrefix("[") else { return .none }
        switch value {
        case .json(let text), .text(let text): return SwiftRenderer.swiftLiteral(json: text).map(SwiftDefault.literal) ?? .none
        default: return .unmatched
        }
    }
}
