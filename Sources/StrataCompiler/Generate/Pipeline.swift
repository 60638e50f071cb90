import Strata

/// The compile of one schema file, as stages and the values between them:
///
/// ```text
/// bytes ─Frontend─▶ SchemaDocument ─Check─▶ CompiledSchema ─Emit─▶ Swift and SQL text
///        (YAML, decoding,          (names, foreign keys,    (Generator.render: reports
///         source map; no SQLite)    the SQLite catalog,      no diagnostics)
///                                   every query typed)
/// ```
///
/// `strata check`, `strata generate`, `strata migration new`/`verify` and the build plugin (which
/// runs `strata generate`) all call ``check(path:)`` or ``compile(path:)``: one function, so
/// what `check` accepts is what `generate` compiles.
///
/// ```swift
/// let compiled = try Compiler.compile(path: "Sources/App/Library.schema.yml")
/// let swift = Generator.render(compiled, migrations: try MigrationFiles.load(schemaPath: compiled.schema.sourcePath), schemaPath: compiled.schema.sourcePath)
/// ```
package enum Compiler {
    /// Reads the file at `path` and runs the front end and the checks: the compiled schema when
    /// it has no errors, and every diagnostic, sorted by position.
    ///
    /// `preparedQueries: false` leaves out the PostgreSQL half of the typed queries (no
    /// `<Name>.prepared.json` is read, ``CompiledSchema/postgresQueries`` is empty): for the
    /// commands that generate no query code and that must work before the file is written or
    /// while it is stale (`strata migration new`, which writes the migrations the file is
    /// prepared against, and `strata-postgres prepare`, which writes it).
    package static func check(path: String, preparedQueries: Bool = true) -> (compiled: CompiledSchema?, diagnostics: [Diagnostic]) {
        Check.run(Frontend.read(path: path), preparedQueries: preparedQueries)
    }

    /// Runs the front end and the checks on schema bytes; `path` names the file in diagnostics
    /// and gives the default database name.
    package static func check(bytes: [UInt8], path: String) -> (compiled: CompiledSchema?, diagnostics: [Diagnostic]) {
        Check.run(Frontend.decode(bytes: bytes, path: path))
    }

    /// The compiled schema at `path`; throws ``DiagnosticsError`` with every problem.
    /// (`preparedQueries`: see ``check(path:preparedQueries:)``.)
    package static func compile(path: String, preparedQueries: Bool = true) throws -> CompiledSchema {
        try compiled(check(path: path, preparedQueries: preparedQueries))
    }

    /// The compiled schema of `contents`; throws ``DiagnosticsError`` with every problem.
    package static func compile(contents: String, path: String) throws -> CompiledSchema {
        try compiled(check(bytes: Array(contents.utf8), path: path))
    }

    /// The compiled schema of `bytes`; throws ``DiagnosticsError`` with every problem.
    package static func compile(bytes: [UInt8], path: String) throws -> CompiledSchema {
        try compiled(check(bytes: bytes, path: path))
    }

    private static func compiled(_ result: (compiled: CompiledSchema?, diagnostics: [Diagnostic])) throws -> CompiledSchema {
        guard let compiled = result.compiled, !result.diagnostics.contains(where: { $0.severity == .error }) else {
            throw DiagnosticsError(result.diagnostics)
        }
        return compiled
    }
}

/// What the front end makes of a file: the schema as written (decoded from YAML, before any
/// check across tables and before SQLite sees it) with the source map that locates its
/// parts, and the front end's diagnostics.
struct SchemaDocument {
    /// The decoded schema; nil when the YAML could not be read at all.
    var schema: Schema?
    /// The decoder that read it: the source and its node locations, which the checks use to
    /// point at lines.
    var decoder: SchemaDecoder
    /// The YAML's and the decoder's diagnostics.
    var diagnostics: [Diagnostic]
}

/// Stage 1: bytes → ``SchemaDocument``. YAML and decoding only; no SQLite.
enum Frontend {
    /// Reads and decodes the file at `path`; a file over ``SchemaLoader/maximumFileSize`` is
    /// refused unread.
    static func read(path: String) -> SchemaDocument {
        if let size = FileReader.size(path), size > SchemaLoader.maximumFileSize {
            return SchemaDocument(schema: nil, decoder: SchemaDecoder(file: path), diagnostics: [SchemaLoader.tooLarge(path: path, size: size)])
        }
        guard let bytes = FileReader.read(path) else {
            return SchemaDocument(
                schema: nil, decoder: SchemaDecoder(file: path),
                diagnostics: [Diagnostic(at: SourceLocation(file: path, line: 1, column: 1), "cannot read the file")])
        }
        return decode(bytes: bytes, path: path)
    }

    /// Decodes schema bytes.
    static func decode(bytes: [UInt8], path: String) -> SchemaDocument {
        var decoder = SchemaDecoder(file: path)
        if bytes.count > SchemaLoader.maximumFileSize {
            return SchemaDocument(schema: nil, decoder: decoder, diagnostics: [SchemaLoader.tooLarge(path: path, size: bytes.count)])
        }
        let yaml = YAMLLoader.load(bytes: bytes, file: path)
        guard yaml.root != nil || yaml.diagnostics.isEmpty else {
            return SchemaDocument(schema: nil, decoder: decoder, diagnostics: yaml.diagnostics)
        }
        decoder.source = bytes
        let schema = decoder.decode(yaml.root, path: path)
        return SchemaDocument(schema: schema, decoder: decoder, diagnostics: yaml.diagnostics + decoder.diagnostics)
    }
}

/// Stage 2: ``SchemaDocument`` → ``CompiledSchema``. Names across tables, foreign keys, the
/// DDL executed in SQLite (the catalog), every statement the generated code runs prepared,
/// and every query typed (``QueryAnalyzer``).
enum Check {
    /// The compiled schema when `document` has no errors, and every diagnostic, sorted;
    /// `preparedQueries: false` skips ``PostgresQueryCheck``.
    static func run(_ document: SchemaDocument, preparedQueries: Bool = true) -> (compiled: CompiledSchema?, diagnostics: [Diagnostic]) {
        guard var schema = document.schema else { return (nil, SchemaLoader.sorted(document.diagnostics)) }
        var decoder = document.decoder
        var diagnostics = document.diagnostics
        // A file whose every table failed to decode has nothing to check across tables.
        if decoder.diagnostics.isEmpty || !schema.tables.isEmpty {
            let before = decoder.diagnostics.count
            decoder.validate(&schema)
            diagnostics += decoder.diagnostics[before...]
        }
        let catalog = decoder.sqlite?.validated ?? ValidatedDatabase()
        var queries: [TypedQuery] = []
        if !schema.queries.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
            let analysis = QueryAnalyzer.analyze(schema.queries, in: schema, catalog: catalog)
            queries = analysis.queries
            diagnostics += analysis.diagnostics
        }
        // PostgreSQL runs the statements `strata-postgres prepare` checked: read offline from
        // `<Name>.prepared.json` and reconciled with the SQLite types (PostgresQueryCheck).
        var postgresQueries: [PostgresTypedQuery] = []
        if preparedQueries, schema.targetsPostgres, !queries.isEmpty, !diagnostics.contains(where: { $0.severity == .error }) {
            let check = PostgresQueryCheck.check(queries, in: schema)
            postgresQueries = check.queries
            diagnostics += check.diagnostics
        }
        diagnostics = SchemaLoader.sorted(diagnostics)
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return (nil, diagnostics) }
        return (CompiledSchema(schema: schema, queries: queries, postgresQueries: postgresQueries, catalog: catalog), diagnostics)
    }
}

/// Stage 2's value, and all that stage 3 (Emit) reads: a schema that passed every check,
/// its queries as the analysis typed them, and the SQLite catalog the checks built. It is
/// immutable: later stages read it and never fill anything in.
package struct CompiledSchema: Sendable {
    /// The checked schema.
    package let schema: Schema
    /// The top-level `queries:` as the query analysis typed them, in declaration order.
    package let queries: [TypedQuery]
    /// With `dialects: [sqlite, postgres]`: the same queries as PostgreSQL runs them, from
    /// `<Name>.prepared.json` (``PostgresQueryCheck``), in declaration order.
    package let postgresQueries: [PostgresTypedQuery]
    /// The in-memory database the checks executed the schema's DDL in, which later stages
    /// reuse to introspect the declared structure instead of executing the DDL again.
    let catalog: ValidatedDatabase

    /// A compiled schema; made by ``Check`` (tests make their own from a model).
    init(schema: Schema, queries: [TypedQuery] = [], postgresQueries: [PostgresTypedQuery] = [], catalog: ValidatedDatabase = ValidatedDatabase()) {
        self.schema = schema
        self.queries = queries
        self.postgresQueries = postgresQueries
        self.catalog = catalog
    }
}
