/// A position in a source file, 1-based, as editors and compilers count.
package struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The path of the file as it was given to the compiler.
    package var file: String
    /// The 1-based line.
    package var line: Int
    /// The 1-based column.
    package var column: Int

    /// `path:line:column`, the form compilers and editors understand.
    package var description: String { "\(file):\(line):\(column)" }

    package static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// One problem found in a schema, reported as `path:line:column: error: message`.
package struct Diagnostic: Hashable, Sendable, Error, CustomStringConvertible {
    /// How serious a problem is.
    package enum Severity: String, Hashable, Sendable, Codable {
        case error
        case warning
        case note
    }

    /// Where the problem is.
    package var location: SourceLocation
    /// How serious it is.
    package var severity: Severity
    /// What is wrong, in one sentence without a trailing period.
    package var message: String
    /// What to do about it, when the compiler can tell.
    package var hint: String?
    /// The text of the file line `location` points into, when the diagnostic quotes it
    /// (errors inside a `sql:` scalar do): ``rendered`` shows it with a caret.
    package var sourceLine: String?

    /// Creates a diagnostic.
    package init(_ severity: Severity = .error, at location: SourceLocation, _ message: String, hint: String? = nil) {
        self.location = location
        self.severity = severity
        self.message = message
        self.hint = hint
    }

    /// The text the CLI and the build plugin print: `path:line:column: error: message (hint)`.
    package var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }

    /// ``description``, followed, when the diagnostic quotes its line, by that one line and a
    /// caret under the column, the way rustc and swiftc show them:
    ///
    /// ```text
    /// Shop.schema.yml:14:14: error: query 'q': SQLite rejects the statement: no such column: nme
    ///    |
    /// 14 |              nme
    ///    |              ^
    /// ```
    package var rendered: String {
        guard let sourceLine else { return description }
        let number = String(location.line)
        let gutter = String(repeating: " ", count: number.count)
        // Tabs stay tabs under the caret so that it lines up whatever the tab width.
        let lead = sourceLine.prefix(max(0, location.column - 1)).map { $0 == "\t" ? "\t" : " " }.joined()
        return "\(description)\n\(gutter) |\n\(number) | \(sourceLine)\n\(gutter) | \(lead)^"
    }
}

/// Several diagnostics, thrown when a schema cannot be compiled.
package struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    /// The problems, sorted by position.
    package var diagnostics: [Diagnostic]

    /// Creates the error from diagnostics, sorting them by position.
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sorted { $0.location < $1.location }
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
