/// The text formats of ``DiagramRenderer``.
package enum DiagramFormat: String, CaseIterable, Sendable {
    /// A Mermaid `erDiagram`, which GitHub and many Markdown viewers draw in place.
    case mermaid
    /// A Graphviz DOT graph: `dot -Tsvg Library.dot -o Library.svg`.
    case dot
}

/// Renders a schema as an entity-relationship diagram: each table with its columns and types,
/// primary (`PK`), foreign (`FK`) and unique (`UK`) keys marked, and each foreign key an edge from
/// the parent to the child with its cardinality (exactly one parent, or zero or one when the
/// column is optional; zero or more children, or zero or one when the column is unique).
///
/// ```swift
/// let schema = try SchemaLoader.load(path: "schemas/Library.schema.yml")
/// let mermaid = DiagramRenderer.render(schema, format: .mermaid)   // "erDiagram\n    Author {…"
/// ```
package enum DiagramRenderer {
    /// The diagram of `schema` in `format`.
    package static func render(_ schema: Schema, format: DiagramFormat) -> String {
        switch format {
        case .mermaid: mermaid(schema)
        case .dot: dot(schema)
        }
    }

    /// One foreign key of the diagram.
    struct Relation {
        var child: Table
        var column: Column
        var parent: Table
        var parentColumn: Column

        /// Zero or one parent when the column may be NULL.
        var parentIsOptional: Bool { column.isOptional }
        /// At most one child per parent when the column is unique on its own.
        var childIsUnique: Bool { column.isUnique || child.primaryKey == [column.name] }
    }

    static func relations(_ schema: Schema) -> [Relation] {
        schema.tables.flatMap { table in
            table.columns.compactMap { column -> Relation? in
                guard let key = column.references, let parent = schema.table(named: key.table),
                      let parentColumn = parent.column(named: key.column) else { return nil }
                return Relation(child: table, column: column, parent: parent, parentColumn: parentColumn)
            }
        }
    }

    /// `PK`, `FK`, `UK` marks of a column.
    static func keys(of column: Column, in table: Table) -> [String] {
        var keys: [String] = []
        if table.primaryKey.contains(column.name) { keys.append("PK") }
        if column.references != nil { keys.append("FK") }
        if column.isUnique { keys.append("UK") }
        return keys
    }

    /// `int`, `date?`, `enum Format`, `json [String]`.
    static func typeText(_ column: Column) -> String {
        let optional = column.isOptional ? "?" : ""
        let codec = column.codec
        return codec.keyword + optional + (codec.declaredSwiftType.map { " " + $0 } ?? "")
    }

    // MARK: - Mermaid

    /// A Mermaid `erDiagram`.
    package static func mermaid(_ schema: Schema) -> String {
        var lines = ["erDiagram"]
        for table in schema.tables {
            lines.append("    \(mermaidName(table.recordName)) {")
            for column in table.columns {
                var line = "        \(column.type.keyword) \(mermaidName(column.name))"
                let keys = keys(of: column, in: table)
                if !keys.isEmpty { line += " " + keys.joined(separator: ", ") }
                var notes: [String] = []
                if column.isOptional { notes.append("optional") }
                if let note = column.codec.diagramNote { notes.append(note) }
                if column.sqlName != column.name { notes.append("column \(column.sqlName)") }
                if !notes.isEmpty { line += " \"\(mermaidComment(notes.joined(separator: "; ")))\"" }
                lines.append(line)
            }
            lines.append("    }")
        }
        for relation in relations(schema) {
            // Left: the parent's side (|| exactly one, |o zero or one); right: the children's
            // side (o{ zero or more, o| zero or one).
            let parentSide = relation.parentIsOptional ? "|o" : "||"
            let childSide = relation.childIsUnique ? "o|" : "o{"
            lines.append("    \(mermaidName(relation.parent.recordName)) \(parentSide)--\(childSide) "
                + "\(mermaidName(relation.child.recordName)) : \"\(mermaidComment(relation.column.name))\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid names are words; anything else is quoted.
    static func mermaidName(_ name: String) -> String {
        let isWord = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "_"
        }
        return isWord ? name : "\"\(mermaidComment(name))\""
    }

    /// Mermaid comments cannot hold a double quote or a line break.
    static func mermaidComment(_ text: String) -> String {
        String(text.map { $0 == "\"" ? "'" : ($0.isNewline ? " " : $0) })
    }

    // MARK: - DOT

    /// A Graphviz `digraph` with one HTML-table node per table and crow's-foot edges.
    package static func dot(_ schema: Schema) -> String {
        var lines = [
            "digraph \(dotID(schema.name)) {",
            "    graph [rankdir=LR, fontname=\"Helvetica\", nodesep=0.6, ranksep=1.2];",
            "    node [shape=plain, fontname=\"Helvetica\", fontsize=11];",
            "    edge [fontname=\"Helvetica\", fontsize=10, dir=both, color=\"#4a5a70\", labeldistance=1.6, labelangle=30];",
        ]
        for table in schema.tables {
            var rows: [String] = []
            let title = "<b>\(html(table.recordName))</b>"
                + (table.sqlName != table.recordName ? " <font point-size=\"9\">\(html(table.sqlName))</font>" : "")
            rows.append("<tr><td bgcolor=\"#dbe4f0\" colspan=\"3\">\(title)</td></tr>")
            for (index, column) in table.columns.enumerated() {
                let keys = keys(of: column, in: table).joined(separator: " ")
                let name = table.primaryKey.contains(column.name) ? "<u>\(html(column.name))</u>" : html(column.name)
                rows.append("<tr><td port=\"k\(index)\" align=\"left\">\(keys)</td>"
                    + "<td align=\"left\">\(name)</td>"
                    + "<td port=\"c\(index)\" align=\"left\">\(html(typeText(column)))</td></tr>")
            }
            lines.append("    \(dotID(table.recordName)) [label=<")
            lines.append("        <table border=\"0\" cellborder=\"1\" cellspacing=\"0\" cellpadding=\"4\">")
            lines += rows.map { "            " + $0 }
            lines.append("        </table>")
            lines.append("    >];")
        }
        for relation in relations(schema) {
            let childIndex = relation.child.columns.firstIndex(of: relation.column) ?? 0
            let parentIndex = relation.parent.columns.firstIndex(of: relation.parentColumn) ?? 0
            // The edge runs parent → child. At the parent: exactly one (tee tee) or zero or one
            // (tee odot); at the child: zero or more (crow odot) or zero or one (tee odot).
            let parentEnd = relation.parentIsOptional ? ("teeodot", "0..1") : ("teetee", "1")
            let childEnd = relation.childIsUnique ? ("teeodot", "0..1") : ("crowodot", "0..*")
            lines.append("    \(dotID(relation.parent.recordName)):c\(parentIndex):e -> "
                + "\(dotID(relation.child.recordName)):k\(childIndex):w "
                + "[arrowtail=\(parentEnd.0), taillabel=\"\(parentEnd.1)\", "
                + "arrowhead=\(childEnd.0), headlabel=\"\(childEnd.1)\", "
                + "label=\(dotID(relation.column.name))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A quoted DOT identifier.
    static func dotID(_ text: String) -> String {
        "\"" + replacing(text, dotIDEscapes) + "\""
    }

    /// Text inside a DOT HTML label.
    static func html(_ text: String) -> String {
        replacing(text, htmlEscapes)
    }

    /// What ``dotID(_:)`` writes for a character a quoted DOT identifier cannot hold as it is.
    private static let dotIDEscapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": " ", "\r": " "]

    /// What ``html(_:)`` writes for a character an HTML label cannot hold as it is.
    private static let htmlEscapes: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": " ", "\r": " "]

    /// `text` with each character that is a key of `escapes` replaced by its value.
    private static func replacing(_ text: String, _ escapes: [Character: String]) -> String {
        var result = ""
        for character in text {
            if let escape = escapes[character] { result += escape } else { result.append(character) }
        }
        return result
    }
}
