import ArgumentParser
import Foundation
import Strata
import StrataCompiler

/// What the server said about one statement `strata prepare` sent it.
public enum PostgresStatementOutcome: Sendable {
    /// It prepared the statement: its parameter and result column types.
    case described(parameterTypes: [String], columns: [PostgresResultColumn])
    /// It refused it: its message, its hint, and the 1-based character position in the
    /// statement, when it gave them.
    case rejected(message: String, hint: String?, position: Int?)
}

/// One result column of a statement the server prepared.
public struct PostgresResultColumn: Sendable {
    /// The name the server gives it.
    public var name: String
    /// Its type's `pg_type.typname`.
    public var type: String
    /// For a column that comes straight from a table: that column's `pg_attribute.attnotnull`;
    /// nil for an expression.
    public var tableColumnNotNull: Bool?

    /// Creates a column.
    public init(name: String, type: String, tableColumnNotNull: Bool?) {
        self.name = name
        self.type = type
        self.tableColumnNotNull = tableColumnNotNull
    }
}

extension StrataCommand {
    /// `strata prepare <schema> --url postgres://… [--check]`.
    struct Prepare: ParsableCommand, SchemaFileCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a schema's typed SQL queries against a PostgreSQL server and write <Name>.prepared.json.",
            discussion: HelpText.prepare + """
                Applies the schema's PostgreSQL migrations to a scratch schema (strata_prepare_…) in one \
                transaction that is rolled back, so nothing is left in the database; prepares every top-level query \
                there without running it; and writes <Name>.prepared.json beside the schema (parameter types, result \
                columns, nullability), which the build reads instead of a server. A statement the server rejects is \
                an error at its line and column in the schema, and nothing is written. With --check it writes \
                nothing and exits with 1 when the file is missing or stale (for CI). strata-postgres only.
                """
        )

        @OptionGroup var schemaFile: SchemaFileArgument

        @Option(name: .long, help: "A PostgreSQL URL (postgres://user@host:port/db) of a server to prepare the queries on; only a scratch schema is created there, and it is rolled back.")
        var url: String

        @Flag(name: .long, help: "Write nothing; exit with 1 when <Name>.prepared.json is missing or not what prepare would write.")
        var check = false

        func run() throws {
            try PostgresCommands.prepare(schemaPath: schema, url: url, check: check)
        }
    }
}

extension PostgresCommands {
    /// `strata prepare <schema> --url … [--check]`.
    static func prepare(schemaPath: String, url: String, check: Bool) throws {
        let tool = try tool()
        let compiled = try compileOrExit(schemaPath)
        let migrations = try migrations(schemaPath: schemaPath)
        let outputPath = PreparedQueries.path(forSchemaPath: schemaPath)
        let queries = compiled.schema.queries
        guard !queries.isEmpty else {
            print("\(schemaPath) declares no top-level queries: nothing to prepare, no file written")
            return
        }
        var texts = queries.map(PostgresStatementText.init)
        // A declared parameter is cast to its type; where the server refuses the cast text, the
        // text without the casts of one-value parameters is tried too, and taken when the server
        // types each of them as its declared type binds (`substr(name, 1, :length)` with
        // `length: int`: `substr(text, integer, bigint)` does not exist, the uncast `$1` is int4).
        let uncast = queries.map(PostgresStatementText.uncastScalars(of:))
        let alternatives = uncast.compactMap(\.self)
        let statements = texts.map(\.sql) + alternatives.map(\.sql)
        var outcomes: [PostgresStatementOutcome]
        do {
            outcomes = try runBlocking { try await tool.describe(url: url, migrations: migrations, statements: statements) }
        } catch let error as StrataError {
            printError("error: \(error.message)")
            throw ExitCode(1)
        }
        guard outcomes.count == queries.count + alternatives.count else {
            printError("error: the server described \(outcomes.count) of \(queries.count + alternatives.count) statements")
            throw ExitCode(1)
        }
        var alternative = queries.count
        for index in queries.indices {
            guard let other = uncast[index] else { continue }
            defer { alternative += 1 }
            guard case .rejected = outcomes[index], case .described(let parameterTypes, _) = outcomes[alternative],
                  other.inferredTypesFit(queries[index], parameterTypes: parameterTypes) else { continue }
            texts[index] = other
            outcomes[index] = outcomes[alternative]
        }
        outcomes.removeLast(alternatives.count)
        var prepared: [PreparedQuery] = []
        var diagnostics: [Diagnostic] = []
        for ((query, text), outcome) in zip(zip(queries, texts), outcomes) {
            switch outcome {
            case .described(let parameterTypes, let columns):
                guard parameterTypes.count == text.parameters.count else {
                    diagnostics.append(Diagnostic(
                        at: query.location ?? query.postgresTextSource.start,
                        "query '\(query.name)': PostgreSQL reports \(parameterTypes.count) parameters, the statement has \(text.parameters.count)"))
                    continue
                }
                prepared.append(PreparedQuery(
                    query: query, text: text, analysis: compiled.queries.first { $0.name == query.name }, parameterTypes: parameterTypes,
                    columns: columns.map { ($0.name, $0.type, $0.tableColumnNotNull) }))
            case .rejected(let message, let hint, let position):
                let source = query.postgresTextSource
                let location = position.map { source.location(atUTF8Offset: text.originalOffset(ofServerPosition: $0)) }
                    ?? query.location ?? source.start
                var diagnostic = Diagnostic(at: location, "query '\(query.name)': PostgreSQL rejects the statement: \(message)", hint: hint)
                diagnostic.sourceLine = source.sourceLine(location.line)
                diagnostics.append(diagnostic)
            }
        }
        if !diagnostics.isEmpty {
            diagnostics.forEach { printError($0.rendered) }
            printError(check ? "the queries do not prepare on \(display(url))" : "nothing was written")
            throw ExitCode(1)
        }
        let contents = PreparedQueries(migrationsFingerprint: PreparedQueries.migrationsFingerprint(migrations), queries: prepared)
        let text: String
        do {
            text = try contents.encodedText()
        } catch {
            printError("error: cannot encode \(outputPath): \(oneLine(error))")
            throw ExitCode(1)
        }
        let command = postgresCommand(["prepare", schemaPath, "--url", url])
        if check {
            let onDisk = FileManager.default.contents(atPath: outputPath).map { String(decoding: $0, as: UTF8.self) }
            guard let onDisk else {
                printError("error: \(outputPath) does not exist; write it with:")
                printError("  \(command)")
                throw ExitCode(1)
            }
            if onDisk == text {
                print("\(outputPath) is up to date (\(prepared.count) \(prepared.count == 1 ? "query" : "queries"))")
                return
            }
            printError("error: \(outputPath) is stale:")
            for reason in staleness(of: onDisk, against: contents) { printError("  \(reason)") }
            printError("write it again with:")
            printError("  \(command)")
            throw ExitCode(1)
        }
        let counted = "\(prepared.count) \(prepared.count == 1 ? "query" : "queries") prepared on \(display(url))"
        // Rewritten only when its bytes change, so that the build does not see a new input.
        if FileManager.default.contents(atPath: outputPath) == Data(text.utf8) {
            print("\(outputPath) is unchanged: \(counted)")
            return
        }
        try writeOrExit({ try Data(text.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic) }, path: outputPath)
        print("wrote \(outputPath): \(counted)")
    }

    /// Why the file's `text` is not `expected`, one line per reason: the migrations it was
    /// prepared against, and each query that is missing, extra or different.
    static func staleness(of text: String, against expected: PreparedQueries) -> [String] {
        guard let old = try? PreparedQueries.decode(text) else {
            return ["it is not a prepared-queries file this strata reads"]
        }
        var reasons: [String] = []
        if old.formatVersion != expected.formatVersion {
            reasons.append("it is in format \(old.formatVersion); this strata writes format \(expected.formatVersion)")
        }
        if old.migrationsFingerprint != expected.migrationsFingerprint {
            reasons.append("the PostgreSQL migrations changed since it was written (every query is prepared against them)")
        }
        for query in expected.queries {
            guard let before = old.query(named: query.name) else {
                reasons.append("query '\(query.name)' is not in it")
                continue
            }
            if before.sourceFingerprint != query.sourceFingerprint {
                reasons.append("query '\(query.name)' changed since it was written (its SQL, params: or columns:)")
            } else if before != query {
                reasons.append("query '\(query.name)' prepares differently now (parameter or column types, nullability)")
            }
        }
        for query in old.queries where expected.query(named: query.name) == nil {
            reasons.append("it has query '\(query.name)', which the schema no longer declares")
        }
        if reasons.isEmpty { reasons.append("its text is not what prepare writes (edited by hand?)") }
        return reasons
    }
}
