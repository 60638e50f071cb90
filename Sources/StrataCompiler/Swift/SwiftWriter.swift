/// The one place generated Swift is written: lines, indentation, blocks and doc comments.
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    /// Writes one line at the current indentation (an empty line stays empty).
    mutating func line(_ content: String = "") {
        // Appended piece by piece: no temporary strings for the millions of lines of a large schema.
        if !content.isEmpty {
            for _ in 0..<depth { text += "    " }
            text += content
        }
        text += "\n"
    }

    /// Appends text rendered by another writer at the top level.
    mutating func append(_ rendered: String) {
        text += rendered
    }

    /// The indentation of the current level.
    var indentation: String { String(repeating: "    ", count: depth) }

    /// Writes `prefix`, a multi-line string literal of `value`, then `suffix`. The literal's
    /// lines line up with the line that opens it when the literal starts that line
    /// (`    #"""`), one level deeper than it when it follows code (`sql: #"""`).
    mutating func multiline(_ prefix: String, _ value: String, _ suffix: String) {
        let leading = String(prefix.prefix { $0 == " " })
        let indent = indentation + leading + (prefix.count > leading.count ? "    " : "")
        text += indentation
        text += prefix
        text += SwiftNames.multilineLiteral(value, indent: indent)
        text += suffix
        text += "\n"
    }

    /// Writes `header { parameter in`, the body one level deeper, then `}`: a trailing closure.
    mutating func closure(_ header: String, parameter: String, _ body: (inout SwiftWriter) -> Void) {
        block(header, body, opening: " { \(parameter) in")
    }

    /// Writes `header {`, the body one level deeper, then `}`.
    mutating func block(_ header: String, _ body: (inout SwiftWriter) -> Void) {
        block(header, body, opening: " {")
    }

    private mutating func block(_ header: String, _ body: (inout SwiftWriter) -> Void, opening: String) {
        line(header + opening)
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Writes `///` lines for `doc` (each of its lines).
    mutating func doc(_ doc: String?) {
        guard let doc else { return }
        for docLine in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = docLine.trimmingTrailingWhitespace
            line(trimmed.isEmpty ? "///" : "/// " + trimmed)
        }
    }

    /// `public struct <declaration>` holding the `conn` (a `connection`, documented by `connDoc`)
    /// it runs on, and its `init` (documented by `initDoc`), then what `members` writes: the shape
    /// the DAOs and the typed queries of both backends share.
    mutating func connectionStruct(
        _ declaration: String, connection: String, connDoc: String, initDoc: String, members: (inout SwiftWriter) -> Void
    ) {
        block("public struct \(declaration)") { out in
            out.line("/// " + connDoc)
            out.line("public let conn: \(connection)")
            out.line()
            out.line("/// " + initDoc)
            out.block("public init(_ conn: \(connection))") { out in out.line("self.conn = conn") }
            members(&out)
        }
    }
}

extension Substring {
    var trimmingTrailingWhitespace: String {
        var end = endIndex
        while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
        return String(self[startIndex..<end])
    }

}
