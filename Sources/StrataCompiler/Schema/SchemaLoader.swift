/// Reads a `<Name>.schema.yml` file, decodes and validates it, and gives the schema model
/// alone: the ``Compiler`` pipeline (``Frontend`` → ``Check``) without the compiled values
/// (typed queries, the SQLite catalog) that generating code needs.
///
/// ```swift
/// do {
///     let schema = try SchemaLoader.load(path: "Sources/App/Library.schema.yml")
/// } catch let error as DiagnosticsError {
///     for diagnostic in error.diagnostics { print(diagnostic) }   // path:line:column: error: …
/// }
/// ```
///
/// Every problem of a file is reported together, sorted by position.
package enum SchemaLoader {
    /// The largest schema file Strata reads, in bytes (16 MiB: about 23,000 tables of eight
    /// columns with an index and two queries each). A larger file is refused at once, before it
    /// is read, with an error at its first line: SQLite's cost of creating one more table grows
    /// with the number of tables already created, so checking far larger schemas would take
    /// minutes. See docs/Benchmarks.md, "The generator".
    package static let maximumFileSize = 16 * 1024 * 1024

    /// Loads and validates the schema at `path` (``Compiler/compile(path:)``); throws
    /// ``DiagnosticsError`` with every problem.
    package static func load(path: String) throws -> Schema {
        try Compiler.compile(path: path).schema
    }

    /// Loads and validates schema text; `path` names the file in diagnostics and gives the
    /// default database name.
    package static func load(contents: String, path: String) throws -> Schema {
        try Compiler.compile(contents: contents, path: path).schema
    }

    /// Loads and validates schema bytes; `path` names the file in diagnostics.
    package static func load(bytes: [UInt8], path: String) throws -> Schema {
        try Compiler.compile(bytes: bytes, path: path).schema
    }

    /// Reads the file at `path` and checks it: the schema when it has no errors, and every
    /// diagnostic, sorted by position.
    package static func check(path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        let checked = Compiler.check(path: path)
        return (checked.compiled?.schema, checked.diagnostics)
    }

    /// Checks schema bytes: the schema when it has no errors, and every diagnostic, sorted.
    package static func check(bytes: [UInt8], path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        let checked = Compiler.check(bytes: bytes, path: path)
        return (checked.compiled?.schema, checked.diagnostics)
    }

    /// The error for a file larger than ``maximumFileSize``.
    static func tooLarge(path: String, size: Int) -> Diagnostic {
        let megabytes = { (bytes: Int) in String(bytes / (1024 * 1024)) + "." + String(bytes % (1024 * 1024) * 10 / (1024 * 1024)) }
        return Diagnostic(
            at: SourceLocation(file: path, line: 1, column: 1),
            "the schema file is \(megabytes(size)) MiB; Strata reads schema files of at most \(megabytes(maximumFileSize)) MiB",
            hint: "split the database into several schema files, each with its own tables")
    }

    /// Sorted by position, then message; exact repeats removed.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics
            .filter { seen.insert($0).inserted }
            .sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }
}
