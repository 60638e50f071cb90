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
public enum SchemaLoader {
    /// Loads and validates the schema at `path`; throws ``DiagnosticsError`` with every problem.
    public static func load(path: String) throws -> Schema {
        let (schema, diagnostics) = check(path: path)
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw DiagnosticsError(diagnostics)
        }
        return schema
    }

    /// Loads and validates schema text; `path` names the file in diagnostics and gives the
    /// default database name.
    public static func load(contents: String, path: String) throws -> Schema {
        try load(bytes: Array(contents.utf8), path: path)
    }

    /// Loads and validates schema bytes; `path` names the file in diagnostics.
    public static func load(bytes: [UInt8], path: String) throws -> Schema {
        let (schema, diagnostics) = check(bytes: bytes, path: path)
        guard let schema, !diagnostics.contains(where: { $0.severity == .error }) else {
            throw DiagnosticsError(diagnostics)
        }
        return schema
    }

    /// Reads the file at `path` and checks it: the schema when it has no errors, and every
    /// diagnostic, sorted by position.
    public static func check(path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
        guard let bytes = FileReader.read(path) else {
            return (nil, [Diagnostic(at: SourceLocation(file: path, line: 1, column: 1), "cannot read the file")])
        }
        return check(bytes: bytes, path: path)
    }

    /// Checks schema bytes: the schema when it has no errors, and every diagnostic, sorted.
    public static func check(bytes: [UInt8], path: String) -> (schema: Schema?, diagnostics: [Diagnostic]) {
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
            if !decoded.queries.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
                let analysis = QueryAnalyzer.analyze(decoded.queries, in: decoded)
                decoded.typedQueries = analysis.queries
                diagnostics += analysis.diagnostics
            }
            schema = decoded
        }
        diagnostics = sorted(diagnostics)
        return (diagnostics.contains { $0.severity == .error } ? nil : schema, diagnostics)
    }

    /// Sorted by position, then message; exact repeats removed.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics
            .filter { seen.insert($0).inserted }
            .sorted { ($0.location, $0.message) < ($1.location, $1.message) }
    }
}
