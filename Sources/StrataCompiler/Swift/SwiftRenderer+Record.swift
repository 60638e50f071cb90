import Foundation
import Strata

extension SwiftRenderer {
    /// The record struct of a table, with its nested enums and memberwise initializer.
    func renderRecord(_ table: Table, _ out: inout SwiftWriter) {
        var doc = table.doc.map { $0 + "\n\n" } ?? ""
        doc += remark("table \(table.recordName)")
        out.doc(doc)
        var conformances = ["Sendable", "Hashable", "Codable"]
        let identity = identifiableKey(table)
        if identity != nil { conformances.append("Identifiable") }
        out.block("public struct \(SwiftNames.identifier(table.recordName)): \(conformances.joined(separator: ", "))") { out in
            for column in table.columns {
                guard let (swiftType, values) = column.codec.nestedEnum else { continue }
                out.line("/// The values of `\(column.name)`.")
                out.block("public enum \(SwiftNames.identifier(swiftType)): String, Sendable, Hashable, Codable, CaseIterable") { out in
                    for value in values {
                        let caseName = SwiftNames.enumCase(value)
                        let bare = caseName.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                        let shown = value.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined()
                        out.line(shown.contains("`") ? "/// Stored as the text \(shown)." : "/// Stored as `\(shown)`.")
                        out.line(bare == value ? "case \(caseName)" : "case \(caseName) = \(SwiftNames.stringLiteral(value))")
                    }
                }
                out.line()
            }
            for column in table.columns {
                var columnDoc = column.doc.map { $0 + "\n\n" } ?? ""
                columnDoc += "SQL: \(SQLRenderer.quoteIdentifier(column.sqlName)) \(columnSummary(column, in: table))."
                out.doc(columnDoc)
                out.line("public var \(column.swiftName): \(column.swiftMemberType)")
            }
            if let identity, identity.name != "id" {
                out.line()
                out.line("/// The primary key, for `Identifiable`.")
                out.line("public var id: \(identity.swiftMemberType) { \(identity.swiftName) }")
            }
            out.line()
            out.line("/// Creates a record; defaults follow the schema.")
            if table.autoincrementColumn != nil {
                out.line("///")
                out.line("/// Leave `\(table.autoincrementColumn?.name ?? "")` at 0 to have SQLite assign it on insert.")
            }
            // A column named `self` is the label `self` with another name inside the body.
            let names = SwiftNames.parameterNames(table.columns.map(\.name), bodyNames: SwiftNames.initializerBodyNames)
            let parameters = zip(table.columns, names).map { column, names -> String in
                var parameter = "\(names.declaration): \(column.swiftMemberType)"
                if let value = swiftDefault(column, in: table) { parameter += " = \(value)" }
                return parameter
            }
            out.line("public init(")
            for (offset, parameter) in parameters.enumerated() {
                out.line("    " + parameter + (offset == parameters.count - 1 ? "" : ","))
            }
            out.block(")") { out in
                for (column, names) in zip(table.columns, names) {
                    out.line("self.\(column.swiftName) = \(names.reference)")
                }
            }
        }
        out.line()
        out.block("extension \(SwiftNames.identifier(table.recordName)): TableRecord") { out in
            out.line("/// The table's SQL name, for `db.changes(to:)`.")
            out.line("public static var databaseTableName: String { \(SwiftNames.stringLiteral(table.sqlName)) }")
        }
    }

    /// The key column when the key is one column and `id` is free for `Identifiable`.
    func identifiableKey(_ table: Table) -> Column? {
        guard table.primaryKey.count == 1, let key = table.primaryKeyColumns.first else { return nil }
        if key.name == "id" { return key }
        return table.columns.contains { $0.name == "id" } ? nil : key
    }

    /// `TEXT NOT NULL, primary key` and the like, for member docs.
    func columnSummary(_ column: Column, in table: Table) -> String {
        var parts = [column.storageSQLType + (column.isOptional ? "" : " NOT NULL")]
        if table.primaryKey.contains(column.name) { parts.append(column.primaryKey == .autoincrement ? "primary key, assigned by SQLite" : "primary key") }
        if column.isUnique { parts.append("unique") }
        if let reference = column.references { parts.append("references \(reference.table).\(reference.column)") }
        return parts.joined(separator: ", ")
    }

    /// The initializer default of a column, or nil when the caller must pass a value.
    func swiftDefault(_ column: Column, in table: Table) -> String? {
        if column.primaryKey == .autoincrement { return "0" }
        if let value = column.defaultValue {
            switch column.codec.swiftDefault(value, isOptional: column.isOptional) {
            case .literal(let literal): return literal
            case .none: return nil
            case .unmatched: break
            }
        }
        if column.isOptional { return "nil" }
        if table.primaryKey == [column.name] { return column.codec.generatedKey }
        return nil
    }

    func swiftLiteral(json: String) -> String? { Self.swiftLiteral(json: json) }

    /// A Swift literal for JSON (arrays and objects of strings, numbers, booleans, null):
    /// JSON's syntax with `{}` as `[:]`, `{…}` as `[…]`, `null` as `nil` and string escapes
    /// in Swift's spelling. Nil when the text is not such JSON.
    static func swiftLiteral(json: String) -> String? {
        var out = ""
        var scalars = Array(json.unicodeScalars)[...]
        var inString = false
        while let scalar = scalars.popFirst() {
            if inString {
                switch scalar {
                case "\\":
                    guard let escaped = scalars.popFirst() else { return nil }
                    switch escaped {
                    case "\"", "\\", "n", "r", "t": out += "\\" + String(escaped)
                    case "/": out += "/"
                    case "b": out += "\\u{8}"
                    case "f": out += "\\u{C}"
                    case "u":
                        guard scalars.count >= 4 else { return nil }
                        out += "\\u{" + String(String.UnicodeScalarView(scalars.prefix(4))) + "}"
                        scalars = scalars.dropFirst(4)
                    default: return nil
                    }
                case "\"":
                    inString = false
                    out += "\""
                default:
                    out.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"":
                inString = true
                out += "\""
            case "{":
                if scalars.first == "}" {
                    scalars = scalars.dropFirst()
                    out += "[:]"
                } else {
                    out += "["
                }
            case "}": out += "]"
            case ":": out += ": "
            case ",": out += ", "
            case "n":
                guard scalars.prefix(3).elementsEqual("ull".unicodeScalars) else { return nil }
                scalars = scalars.dropFirst(3)
                out += "nil"
            case " ", "\n", "\t", "\r": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return inString ? nil : out
    }
}
