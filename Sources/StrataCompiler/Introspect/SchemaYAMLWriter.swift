import Foundation
import Strata

/// Renders an ``AdoptedSchema`` as a `<Name>.schema.yml` file: the last stage of
/// `strata introspect`. The output is byte-stable: the same database gives the same text.
enum SchemaYAMLWriter {
    static func render(_ schema: AdoptedSchema) -> String {
        var out: [String] = []
        out.append("# Written by `strata introspect` from \(oneLine(schema.sourceName)).")
        out.append("# Review it, then write the first migration and baseline the database:")
        out.append("#   strata migration new <this file> --name initial")
        out.append("#   strata migrate <this file> --database <the database> --baseline")
        if !schema.warnings.isEmpty {
            out.append("#")
            out.append("# Warnings:")
            for warning in schema.warnings { out += comment(warning, indent: "", prefix: "# - ") }
        }
        out.append("database: \(scalar(schema.databaseName))")
        if schema.nonStrict || !schema.collations.isEmpty {
            out.append("options:")
            if schema.nonStrict { out.append("  strict: false") }
            if !schema.collations.isEmpty { out.append("  collations: [\(schema.collations.map { scalar($0) }.joined(separator: ", "))]") }
        }
        out.append("")
        out.append("tables:")
        for table in schema.tables {
            render(table, &out)
        }
        if !schema.views.isEmpty {
            out.append("")
            out.append("views:")
            for view in schema.views { out.append("  \(scalar(view.name)): \(sqlText(view.sql, indent: "    "))") }
        }
        if !schema.triggers.isEmpty {
            out.append("")
            out.append("triggers:")
            for trigger in schema.triggers { out.append("  \(scalar(trigger.name)): \(sqlText(trigger.sql, indent: "    "))") }
        }
        if !schema.skipped.isEmpty {
            out.append("")
            out.append("# Not expressible in a schema file (kept here for reference, not managed by Strata):")
            for sql in schema.skipped { out += comment(sql + ";", indent: "", prefix: "# ") }
        }
        return out.joined(separator: "\n") + "\n"
    }

    static func render(_ table: AdoptedTable, _ out: inout [String]) {
        out.append("  \(scalar(table.recordName)):")
        if table.sqlName != table.recordName { out.append("    table: \(scalar(table.sqlName))") }
        if let strict = table.strict { out.append("    strict: \(strict)") }
        if table.withoutRowid { out.append("    withoutRowid: true") }
        if table.expires { out.append("    expires: true") }
        if !table.compositeKey.isEmpty { out.append("    primaryKey: [\(table.compositeKey.map { scalar($0) }.joined(separator: ", "))]") }
        if !table.uniques.isEmpty {
            let lists = table.uniques.map { "[" + $0.map { scalar($0) }.joined(separator: ", ") + "]" }
            out.append("    unique: [\(lists.joined(separator: ", "))]")
        }
        out.append("    columns:")
        for column in table.columns {
            for line in column.comments { out += comment(line, indent: "      ", prefix: "# ") }
            out.append("      \(scalar(column.name)): \(columnValue(column))")
        }
        if !table.checks.isEmpty {
            out.append("    checks:")
            for check in table.checks { out.append("      - \(scalar(check, forceQuotes: true))") }
        }
        if !table.indexes.isEmpty {
            out.append("    indexes:")
            for index in table.indexes {
                var fields: [String] = []
                if let name = index.name { fields.append("name: \(scalar(name))") }
                if let expression = index.expression {
                    fields.append("expression: \(scalar(expression, forceQuotes: true))")
                } else {
                    fields.append("columns: [\(index.columns.map { scalar($0) }.joined(separator: ", "))]")
                }
                if index.isUnique { fields.append("unique: true") }
                if let condition = index.whereClause { fields.append("where: \(scalar(condition, forceQuotes: true))") }
                out.append("      - { \(fields.joined(separator: ", ")) }")
            }
        }
        if let search = table.search {
            var fields = ["columns: [\(search.columns.map { scalar($0) }.joined(separator: ", "))]"]
            if let tokenizer = search.tokenizer { fields.append("tokenizer: \(scalar(tokenizer, forceQuotes: true))") }
            out.append("    search: { \(fields.joined(separator: ", ")) }")
        }
        if !table.comments.isEmpty {
            out.append("    # Not expressible in a schema file (kept here for reference):")
            for line in table.comments { out += comment(line, indent: "    ", prefix: "# ") }
        }
    }

    /// `int`, `text?`, or `{ type: …, … }`.
    static func columnValue(_ column: AdoptedColumn) -> String {
        let type = column.type + (column.isOptional ? "?" : "")
        var fields: [String] = []
        if !column.values.isEmpty { fields.append("values: [\(column.values.map { scalar($0, forceQuotes: true) }.joined(separator: ", "))]") }
        if column.sqlName != column.name { fields.append("column: \(scalar(column.sqlName))") }
        if let key = column.primaryKey { fields.append("primaryKey: \(key)") }
        if column.isUnique { fields.append("unique: true") }
        if let value = column.defaultYAML { fields.append("default: \(value)") }
        if let check = column.check { fields.append("check: \(scalar(check, forceQuotes: true))") }
        if let target = column.references { fields.append("references: \(scalar(target))") }
        if let action = column.onDelete { fields.append("onDelete: \(action)") }
        if let action = column.onUpdate { fields.append("onUpdate: \(action)") }
        if let sqlType = column.sqlType { fields.append("sqlType: \(scalar(sqlType, forceQuotes: true))") }
        if let collation = column.collation { fields.append("collate: \(scalar(collation))") }
        if let format = column.dateFormat { fields.append("dateFormat: \(format)") }
        if fields.isEmpty { return type }
        return "{ type: \(type), \(fields.joined(separator: ", ")) }"
    }

    /// Comment lines (`# …`) for `text`, one per line of it.
    static func comment(_ text: String, indent: String, prefix: String) -> [String] {
        lines(of: text).enumerated().map { offset, line in indent + (offset == 0 ? prefix : "#   ") + printable(line) }
    }

    /// `text` split at every line break (LF, CRLF, CR), scalar by scalar: a CRLF is one
    /// `Character` in Swift, which a split or a replacement on "\n" does not see.
    static func lines(of text: String) -> [String] {
        var result: [String] = []
        var line = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" && afterCR {
                afterCR = false
                continue
            }
            afterCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                result.append(String(line))
                line = String.UnicodeScalarView()
            } else {
                line.append(scalar)
            }
        }
        result.append(String(line))
        return result
    }

    /// `text` with every character a comment cannot hold (see ``needsEscape(_:)``) written as
    /// its escape, so that a comment never ends early or makes the file unreadable.
    static func printable(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: { $0 != "\t" && needsEscape($0) }) else { return String(text) }
        return TextEscaping.mapScalars(text) { $0 != "\t" && needsEscape($0) ? escape($0) : nil }
    }

    static func oneLine(_ text: String) -> String {
        printable(lines(of: text).joined(separator: " "))
    }

    /// Words a YAML reader could take for something else than text.
    static let specialWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n"]

    /// `text` as a YAML scalar: plain when it is an identifier-like word, double-quoted otherwise.
    ///
    /// The double-quoted form holds any text exactly: every character a YAML reader would
    /// change or refuse is escaped (line breaks, tabs, C0 and C1 controls, the characters YAML 1.1
    /// takes for line breaks, U+0085, U+2028 and U+2029, and the non-characters libyaml rejects).
    static func scalar(_ text: String, forceQuotes: Bool = false) -> String {
        let isPlain =
            !forceQuotes && !text.isEmpty && !specialWords.contains(SQLName.fold(text))
            && text.unicodeScalars.first.map { $0 == "_" || $0.properties.isXIDStart } == true
            && text.unicodeScalars.allSatisfy { $0 == "_" || $0 == "." || $0.properties.isXIDContinue }
        if isPlain { return text }
        return "\"" + TextEscaping.backslashEscaped(text) { needsEscape($0) ? escape($0) : nil } + "\""
    }

    /// Characters a YAML reader would not give back as they are when written raw: controls
    /// (but tab and line feed, which the callers treat themselves), what YAML 1.1 reads as a
    /// line break, and what libyaml's reader refuses as not printable.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: true
        default: false
        }
    }

    /// A double-quoted escape for `scalar`: `\xHH` or `\uHHHH`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        if scalar.value <= 0xFF { return "\\x" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex }
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// SQL as a literal block (`|-`) when it spans lines and the block keeps it exactly,
    /// double-quoted otherwise: a block cannot hold a line indented with a tab (YAML forbids
    /// tabs in indentation), a first line that starts with white space, a line of white space
    /// only, a carriage return, a trailing line break or a character that needs an escape.
    static func sqlText(_ sql: String, indent: String) -> String {
        let lines = Self.lines(of: sql).map(\.unicodeScalars)
        // Scalar by scalar: a space followed by a combining mark is one `Character`.
        func isBlank(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }
        let blockKeepsIt =
            lines.count > 1 && sql.unicodeScalars.last != "\n" && lines[0].first.map(isBlank) == false
            && !sql.unicodeScalars.contains { $0 == "\r" || needsEscape($0) }
            && !lines.contains { line in line.prefix(while: isBlank).contains("\t") }
            && !lines.contains { !$0.isEmpty && $0.allSatisfy(isBlank) }
        guard blockKeepsIt else { return scalar(sql, forceQuotes: true) }
        return "|-\n" + lines.map { $0.isEmpty ? "" : indent + String($0) }.joined(separator: "\n")
    }
}
