/// The front end's entry point: reads a `<Name>.schema.yml` file, decodes and validates it.
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

    /// Loads and validates the schema at `path`; throws ``DiagnosticsError`` with every problem.
    package static func load(path: String) throws -> Schema {
        let (schema, diagnostics) = check(path: path)
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw DiagnosticsError(diagnostics)
        }
        return schema
    }

    /// Loads and validates schema text; `path` names the file in diagnostics and gives the
    /// default database name.
    package static func load(contents: String, path: String) throws -> Schema {
        try load(bytes: Array(contents.utf8), path: path)
    }

    /// Loads and validates schema bytes; `path` names the file in diagnostics.
    package static func load(bytes: [UInt8], path: String) throws -> Schema {
        let (schema, diagnostics) = check(bytes: bytes, path: path)
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw DiagnosticsError(diagnostics)
        }
        return schema
    }

    /// Reads the file at `path` and checks it: the schema when it has no errors, and every
    /// diagnostic, sorted by position.
    package static func check(path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        let compiled = compile(path: path)
        return (compiled.schema, compiled.diagnostics)
    }

    /// Checks schema bytes: the schema when it has no errors, and every diagnostic, sorted.
    package static func check(bytes: [UInt8], path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        let compiled = compile(bytes: bytes, path: path)
        return (compiled.schema, compiled.diagnostics)
    }

    /// What checking a file found.
    struct Compiled {
        /// The schema, when it has no errors (with the database validation executed its DDL
        /// in, ``Schema/validatedDatabase``).
        var schema: Schema?
        /// Every diagnostic, sorted.
        var diagnostics: [Diagnostic]
    }

    /// Reads and checks the file at `path`; a file over ``maximumFileSize`` is refused unread.
    static func compile(path: String) -> Compiled {
        if let size = FileReader.size(path), size > maximumFileSize {
            return Compiled(schema: nil, diagnostics: [tooLarge(path: path, size: size)])
        }
        guard let bytes = FileReader.read(path) else {
            return Compiled(schema: nil, diagnostics: [Diagnostic(at: SourceLocation(file: path, line: 1, column: 1), "cannot read the file")])
        }
        return compile(bytes: bytes, path: path)
    }

    /// Checks schema bytes.
    static func compile(bytes: [UInt8], path: String) -> Compiled {
        if bytes.count > maximumFileSize {
            return Compiled(schema: nil, diagnostics: [tooLarge(path: path, size: bytes.count)])
        }
        let yaml = YAMLLoader.load(bytes: bytes, file: path)
        var diagnostics = yaml.diagnostics
        var schema: Schema?
        if yaml.root != nil || diagnostics.isEmpty {
            var decoder = SchemaDecoder(file: path)
            decoder.source = bytes
            var decoded = decoder.decode(yaml.root, path: path)
            if decoder.diagnostics.isEmpty || !decoded.tables.isEmpty {
                decoder.validate(&decoded)
            }
            diagnostics += decoder.diagnostics
            if let sqlite = decoder.sqlite { decoded.validatedDatabase = sqlite.validated }
            if !decoded.queries.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
                let analysis = QueryAnalyzer.analyze(decoded.queries, in: decoded)
                decoded.typedQueries = analysis.queries
                diagnostics += analysis.diagnostics
            }
            schema = decoded
        }
        diagnostics = sorted(diagnostics)
        return Compiled(schema: diagnostics.contains { $0.severity == .error } ? nil : schema, diagnostics: diagnostics)
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
