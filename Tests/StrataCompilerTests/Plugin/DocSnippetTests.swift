import Foundation
import StrataPostgresTestSupport
import Testing
@testable import StrataCompiler

/// Every ```swift example in README.md, docs/*.md and the DocC catalog compiles.
///
/// The examples of each page become one target of a fresh package that depends on this one by
/// path and uses the build plugin, so all of them compile in ONE nested package build (shared
/// with the compile corpus: ``NestedPackage``). A page's
/// target holds the page's own schema (its first ```yaml block with
/// `database:` and `tables:` lines), or the
/// schema of the page named by a `<!-- examples use the schema of FILE -->` line, or the
/// example schema `schemas/Library.schema.yml` with its migrations (a page's own schema gets
/// its first migration written the way `strata migration new` writes it).
/// An example that only shows a fragment (generated code, a manifest excerpt) is preceded by
/// `<!-- not compiled: reason -->`. Statement examples are wrapped in a throwing function,
/// `async` when they `await`, with `db` (and, for the Library schema, `path` and `book`) in
/// scope; an example with top-level declarations (`func`) stays at file level; imports are
/// gathered at the top.
///
/// Every example is compiled in the three places a user writes it: in a nonisolated function
/// (above), in a method of a `@MainActor` class (its file-level declarations as members of
/// one), and, for README.md and the pages about PostgreSQL, as top-level code in the
/// `main.swift` of an executable target of its own (`<target>Main`), where the code is
/// main-actor isolated.
///
/// README.md's examples and those of the pages about PostgreSQL also RUN, in both of those
/// isolations (``documentationExamplesRun()``): each top-level target's program runs its
/// examples one after the other, once as top-level code and once through the `@MainActor`
/// classes, in a fresh folder, against a PostgreSQL server the test starts, each example with a
/// new empty database of its own (a `"postgres://…"` literal in an example becomes
/// `docsURL("postgres://…")`, which answers that database's URL when the test runs it and the
/// literal otherwise). A statement example runs as it is; a declaration (a function, a type)
/// runs through the code of the `<!-- run: CODE -->` line after its block (on those pages every
/// declaration has one), with the declarations of the page's other examples in scope.
///
/// The nested build takes minutes on a small machine, so it runs under `CI=true` or with
/// `STRATA_DOCS_TEST=1`; the extraction itself is checked on every run.
@Suite(.serialized) struct DocSnippetTests {
    static var enabled: Bool {
        ExternalTool.isCI || ProcessInfo.processInfo.environment["STRATA_DOCS_TEST"] == "1"
    }

    struct Snippet {
        var file: String
        var line: Int
        var code: String
        /// The reason given in `<!-- not compiled: reason -->`, if any.
        var notCompiled: String?
        /// The code of the `<!-- run: CODE -->` line after the block, if any: how a declaration runs.
        var run: String? = nil
    }

    struct Page {
        var file: String
        var snippets: [Snippet]
        /// The page's own schema, if it has one.
        var schema: String?
    }

    static let marker = "<!-- not compiled:"
    static let runMarker = "<!-- run:"

    /// README.md, docs/*.md and the DocC catalog's articles.
    static func pageFiles() throws -> [String] {
        let root = ExternalTool.repositoryRoot
        var files = ["README.md"]
        let manager = FileManager.default
        files += try manager.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        let catalog = "Sources/Strata/Strata.docc"
        if let enumerator = manager.enumerator(atPath: root.appendingPathComponent(catalog).path) {
            // The catalog's articles that are links to docs/ pages are those pages: read them once.
            files += enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
                .filter { file in
                    let path = root.appendingPathComponent(file).path
                    return (try? manager.destinationOfSymbolicLink(atPath: path)) == nil
                }
        }
        return files
    }

    static func page(_ file: String) throws -> Page {
        let text = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var snippets: [Snippet] = []
        var schema: String?
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let fence = line.trimmingCharacters(in: .whitespaces)
            guard fence.hasPrefix("```"), fence.count > 3 else { index += 1; continue }
            let language = fence.dropFirst(3).trimmingCharacters(in: .whitespaces)
            var end = index + 1
            while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("```") { end += 1 }
            // A block inside a list item is indented like its fence: the text is what is inside.
            let indent = line.prefix { $0 == " " }.count
            let body = lines[(index + 1)..<min(end, lines.count)].map { text in
                String(text.dropFirst(min(indent, text.prefix { $0 == " " }.count)))
            }.joined(separator: "\n")
            if language == "swift" {
                let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                var reason: String?
                if previous.hasPrefix(marker) {
                    reason = String(previous.dropFirst(marker.count).dropLast(previous.hasSuffix("-->") ? 3 : 0))
                        .trimmingCharacters(in: .whitespaces)
                }
                let next = lines[min(end + 1, lines.count)...].first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?
                    .trimmingCharacters(in: .whitespaces) ?? ""
                var run: String?
                if next.hasPrefix(runMarker) {
                    run = String(next.dropFirst(runMarker.count).dropLast(next.hasSuffix("-->") ? 3 : 0)).trimmingCharacters(in: .whitespaces)
                }
                snippets.append(Snippet(file: file, line: index + 1, code: body, notCompiled: reason, run: run))
            } else if language == "yaml", schema == nil,
                      body.components(separatedBy: "\n").contains(where: { $0.hasPrefix("database:") }),
                      body.components(separatedBy: "\n").contains(where: { $0.hasPrefix("tables:") }) {
                schema = body + "\n"
            }
            index = end + 1
        }
        return Page(file: file, snippets: snippets, schema: schema)
    }

    static let schemaMarker = "<!-- examples use the schema of "

    /// The pages, each with its schema: its own, or that of the page its
    /// `<!-- examples use the schema of FILE -->` names.
    static func pages() throws -> [Page] {
        try pageFiles().map { file in
            var result = try page(file)
            let text = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent(file), encoding: .utf8)
            if result.schema == nil,
               let line = text.components(separatedBy: "\n").first(where: { $0.hasPrefix(schemaMarker) }) {
                let other = line.dropFirst(schemaMarker.count).replacingOccurrences(of: "-->", with: "")
                    .trimmingCharacters(in: .whitespaces)
                result.schema = try page(other).schema
            }
            return result
        }
    }

    /// Every marker gives a reason, and the pages have examples to compile.
    @Test func everyExampleIsCompiledOrSaysWhyNot() throws {
        let snippets = try Self.pages().flatMap(\.snippets)
        #expect(snippets.count >= 20, "found only \(snippets.count) Swift examples")
        for snippet in snippets where snippet.notCompiled != nil {
            #expect(snippet.notCompiled?.isEmpty == false, "\(snippet.file):\(snippet.line): `not compiled` needs a reason")
        }
        #expect(snippets.filter { $0.notCompiled == nil }.count >= 12)
        // 11 since dateFormat: (docs/SchemaReference.md's Event example uses a table of no bundled schema);
        // 12 since typed queries on PostgreSQL (docs/PostgreSQL.md's example needs a <Name>.prepared.json,
        // which the nested package has not; LedgerPostgresQueriesTests runs that code against a server).
        #expect(snippets.filter { $0.notCompiled != nil }.count <= 12, "mark fragments sparingly")
        // On the pages whose examples run, every declaration says how it runs.
        for page in try Self.pages() where Self.hasTopLevelTarget(page) {
            for snippet in page.snippets where snippet.notCompiled == nil && Self.isFileLevel(snippet.code) {
                #expect(snippet.run?.isEmpty == false, "\(snippet.file):\(snippet.line): a declaration on a page whose examples run needs a `<!-- run: CODE -->` line after its block")
            }
        }
        #expect(try Self.pages().filter(Self.hasTopLevelTarget).flatMap(\.snippets).filter { Self.runs($0) }.count >= 8)
    }

    /// Whether the program of a top-level target runs `snippet`: a statement example, or a
    /// declaration with a `<!-- run: -->` line.
    static func runs(_ snippet: Snippet) -> Bool {
        snippet.notCompiled == nil && (!isFileLevel(snippet.code) || snippet.run != nil)
    }

    /// `code` with each `"postgres://…"` literal as `docsURL("postgres://…")`.
    static func withDocsURLs(_ code: String) -> String {
        var result = ""
        var rest = Substring(code)
        while let start = rest.range(of: "\"postgres://") {
            guard let close = rest[start.upperBound...].firstIndex(of: "\"") else { break }
            result += rest[..<start.lowerBound] + "docsURL(" + rest[start.lowerBound...close] + ")"
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The helper behind ``withDocsURLs(_:)``, in every target of a page about PostgreSQL.
    static let docsURLSource = """
        /// The URL an example connects to: the one it documents, or the database that
        /// DocSnippetTests made for it when it runs the example.
        func docsURL(_ documented: String) -> String { DocsURL.current.value ?? documented }

        /// The URL of the database of the example running now (set by the program of the top-level target).
        final class DocsURL: @unchecked Sendable {
            static let current = DocsURL()
            private let lock = NSLock()
            private var url: String?
            var value: String? {
                get { lock.withLock { url } }
                set { lock.withLock { url = newValue } }
            }
        }

        """

    /// The target name of a page: `Docs` + its file name, letters and digits only.
    static func targetName(_ file: String) -> String {
        let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return "Docs" + String(stem.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
    }

    /// Whether a snippet declares things at file level (and so is not wrapped in a function).
    static func isFileLevel(_ code: String) -> Bool {
        code.components(separatedBy: "\n").contains { line in
            ["func ", "struct ", "enum ", "final class ", "class ", "extension "].contains { line.hasPrefix($0) }
        }
    }

    /// The source of a page's target, each example tagged with its file and line.
    static func source(of page: Page, librarySchema: Bool) -> String {
        var imports: Set<String> = ["import Foundation", "import Strata"]
        var body = ""
        for (number, snippet) in page.snippets.enumerated() where snippet.notCompiled == nil {
            body += "// \(snippet.file):\(snippet.line)\n"
            var code = ""
            for line in snippet.code.components(separatedBy: "\n") {
                if line.hasPrefix("import ") { imports.insert(line) } else { code += line + "\n" }
            }
            if usesPostgres(page) { code = withDocsURLs(code) }
            if isFileLevel(code) {
                body += code
            } else {
                let effects = code.contains("await ") ? "async throws" : "throws"
                var parameters = librarySchema ? "db: Database, path: String, book: Book" : "db: Database"
                // A page about PostgreSQL has `pg` in scope too.
                if usesPostgres(page) { parameters += ", pg: PostgresDatabase" }
                body += "func example\(number)(\(parameters)) \(effects) {\n" + code + "}\n"
            }
            body += "\n"
            // The same example where the code is main-actor isolated: in a `@MainActor` class.
            if isFileLevel(code) {
                // An extension cannot be a member: such an example stays at file level only.
                if !code.components(separatedBy: "\n").contains(where: { $0.hasPrefix("extension ") }) {
                    body += "@MainActor final class MainActorExamples\(number) {\n" + code + "}\n\n"
                    if let run = snippet.run {
                        // How the top-level target's program runs it on the main actor.
                        var parameters = librarySchema ? "db: Database, path: String, book: Book" : "db: Database"
                        if usesPostgres(page) { parameters += ", pg: PostgresDatabase" }
                        body += "extension MainActorExamples\(number) {\n    func runExample(\(parameters)) async throws {\n" + run + "\n    }\n}\n\n"
                    }
                }
            } else {
                let effects = code.contains("await ") ? "async throws" : "throws"
                var parameters = librarySchema ? "db: Database, path: String, book: Book" : "db: Database"
                if usesPostgres(page) { parameters += ", pg: PostgresDatabase" }
                body += "@MainActor final class MainActorExample\(number) {\n    func run(\(parameters)) \(effects) {\n" + code + "}\n}\n\n"
            }
        }
        if usesPostgres(page) { body += docsURLSource }
        return imports.sorted().joined(separator: "\n") + "\n\n" + body
    }

    /// Whether a page's examples are also compiled as top-level code: README.md's and those of
    /// the pages about PostgreSQL (whose own schema they use).
    static func hasTopLevelTarget(_ page: Page) -> Bool {
        (page.file == "README.md" || usesPostgres(page)) && page.schema != nil
            && page.snippets.contains { $0.notCompiled == nil && !isFileLevel($0.code) }
    }

    /// The `main.swift` of a page's top-level target: each example that runs (see
    /// ``runs(_:)``) in a `do` block of top-level code, run as top-level code or through its
    /// `@MainActor` class (of `Examples.swift`, which the target holds too) as the third argument
    /// says, with `db` (and `pg`, a new database for each example) in scope. Every build
    /// compiles it; ``documentationExamplesRun()`` runs it:
    /// `<program> <SQLite path> <PostgreSQL URL of a database to create others from> top-level|main-actor`.
    static func topLevelSource(of page: Page) -> String {
        var imports: Set<String> = ["import Foundation", "import Strata"]
        let postgres = usesPostgres(page)
        var body = """
            // Run by DocSnippetTests.documentationExamplesRun, compiled by every build.
            guard CommandLine.arguments.count > 3 else { exit(0) }
            let db = try Database(path: CommandLine.arguments[1])
            let mode = CommandLine.arguments[3]

            """
        if postgres {
            imports.insert("import StrataPostgres")
            body += "let docsAdmin = try await PostgresDatabase(url: CommandLine.arguments[2])\n"
        }
        for (number, snippet) in page.snippets.enumerated() where runs(snippet) {
            let fileLevel = isFileLevel(snippet.code)
            var code = ""
            for line in (fileLevel ? snippet.run ?? "" : snippet.code).components(separatedBy: "\n") {
                if line.hasPrefix("import ") { imports.insert(line) } else { code += line + "\n" }
            }
            if postgres { code = withDocsURLs(code) }
            let arguments = postgres ? "db: db, pg: pg" : "db: db"
            // `run` is `async` only when the example awaits (see `source(of:librarySchema:)`).
            let call = fileLevel
                ? "try await MainActorExamples\(number)().runExample(\(arguments))"
                : (snippet.code.contains("await ") ? "try await " : "try ") + "MainActorExample\(number)().run(\(arguments))"
            body += "\n// \(snippet.file):\(snippet.line)\ndo {\n"
            if postgres {
                body += "    let pg = try await docsDatabase(admin: docsAdmin, url: CommandLine.arguments[2], name: \"docs_\\(mode == \"top-level\" ? \"t\" : \"m\")_\(number)\")\n"
            }
            body += "    if mode == \"top-level\" {\n"
            if postgres { body += "        _ = pg\n" }
            body += "        do {\n" + code + "        }\n    } else {\n        \(call)\n    }\n"
            if postgres { body += "    try await pg.close()\n" }
            body += "    print(\"ran \(snippet.file):\(snippet.line) (\\(mode))\")\n}\n"
        }
        if postgres { body += "try await docsAdmin.close()\n" }
        return imports.sorted().joined(separator: "\n") + "\n\n" + body
    }

    /// The other file of a top-level target about PostgreSQL: a new empty database per example.
    static let docsDatabaseSource = """
        import Foundation
        import StrataPostgres

        /// Creates database `name` through `admin` (whose URL is `url`), makes `docsURL` answer
        /// its URL and opens it.
        func docsDatabase(admin: PostgresDatabase, url: String, name: String) async throws -> PostgresDatabase {
            try await admin.withConnection { conn in try await conn.execute(sql: "CREATE DATABASE \\(name)") }
            guard let slash = url.lastIndex(of: "/") else { throw DocsRunError(message: "no database in \\(url)") }
            let own = url[..<slash] + "/" + name
            DocsURL.current.value = own
            return try await PostgresDatabase(url: own)
        }

        struct DocsRunError: Error {
            var message: String
        }

        """

    /// The name of a page's top-level target.
    static func topLevelTargetName(_ file: String) -> String { targetName(file) + "Main" }

    /// Whether a page's compiled examples import StrataPostgres: its target then depends on that product.
    static func usesPostgres(_ page: Page) -> Bool {
        page.snippets.contains { $0.notCompiled == nil && $0.code.components(separatedBy: "\n").contains("import StrataPostgres") }
    }

    /// The targets whose examples import StrataPostgres.
    static func postgresTargetNames() throws -> Set<String> {
        let pages = try pages().filter(usesPostgres)
        return Set(pages.map { targetName($0.file) } + pages.filter(hasTopLevelTarget).map { topLevelTargetName($0.file) })
    }

    /// The executable targets of top-level code.
    static func executableTargetNames() throws -> Set<String> {
        Set(try pages().filter(hasTopLevelTarget).map { topLevelTargetName($0.file) })
    }

    /// The targets of the pages with examples to compile.
    static func targetNames() throws -> [String] {
        try pages().filter { page in page.snippets.contains { $0.notCompiled == nil } }.map { targetName($0.file) }
            + executableTargetNames().sorted()
    }

    /// Adds one target per page with examples to compile to the package at `root`; returns
    /// their names.
    static func addTargets(to root: URL) throws -> [String] {
        let manager = FileManager.default
        var targets: [String] = []
        var postgresTargets: Set<String> = []
        for page in try pages() where page.snippets.contains(where: { $0.notCompiled == nil }) {
            let name = targetName(page.file)
            if usesPostgres(page) { postgresTargets.insert(name) }
            let directory = root.appendingPathComponent("Sources/\(name)")
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            if let schema = page.schema {
                let database = schema.components(separatedBy: "\n").first { $0.hasPrefix("database:") }
                    .map { $0.dropFirst("database:".count).trimmingCharacters(in: .whitespaces) } ?? "Docs"
                let schemaPath = try CompileCorpusTests.writeSchema(schema, database: database, to: directory)
                let loaded = try SchemaLoader.load(path: schemaPath)
                if loaded.targetsPostgres {
                    // And its PostgreSQL twin (`dialects: [sqlite, postgres]`).
                    let (postgres, manual) = try PostgresMigrations.plan(schema: loaded, sqliteMigrations: [])
                    let folder = directory.appendingPathComponent("\(database).migrations").appendingPathComponent(PostgresMigrations.folderName)
                    try manager.createDirectory(at: folder, withIntermediateDirectories: true)
                    let schemaFile = URL(fileURLWithPath: schemaPath).lastPathComponent
                    try PostgresMigrations.render(postgres, manual: manual, version: 1, name: "initial", schemaFile: schemaFile, schema: loaded)
                        .write(to: folder.appendingPathComponent("0001_initial.sql"), atomically: true, encoding: .utf8)
                }
            } else {
                let schemas = ExternalTool.repositoryRoot.appendingPathComponent("schemas")
                try manager.copyItem(at: schemas.appendingPathComponent("Library.schema.yml"),
                                     to: directory.appendingPathComponent("Library.schema.yml"))
                try manager.copyItem(at: schemas.appendingPathComponent("Library.migrations"),
                                     to: directory.appendingPathComponent("Library.migrations"))
            }
            try source(of: page, librarySchema: page.schema == nil)
                .write(to: directory.appendingPathComponent("Examples.swift"), atomically: true, encoding: .utf8)
            targets.append(name)
            if hasTopLevelTarget(page) {
                // The same schema and migrations, and the examples as top-level code.
                let main = root.appendingPathComponent("Sources/\(topLevelTargetName(page.file))")
                try manager.createDirectory(at: main, withIntermediateDirectories: true)
                // The same schema, migrations and examples (their `@MainActor` classes run from main.swift).
                for item in try manager.contentsOfDirectory(atPath: directory.path) {
                    try manager.copyItem(at: directory.appendingPathComponent(item), to: main.appendingPathComponent(item))
                }
                try topLevelSource(of: page).write(to: main.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
                if usesPostgres(page) {
                    try docsDatabaseSource.write(to: main.appendingPathComponent("DocsDatabase.swift"), atomically: true, encoding: .utf8)
                }
                targets.append(topLevelTargetName(page.file))
            }
        }
        return targets
    }

    @Test(.enabled(if: enabled, "compiling the documentation's examples builds a package (minutes); CI=true or STRATA_DOCS_TEST=1 runs it"))
    func documentationExamplesCompile() async throws {
        let targets = try Self.targetNames()
        #expect(targets.count >= 5, "\(targets)")
        let build = try await NestedPackage.shared.value
        let errors = build.lines(about: targets, containing: "error:")
        #expect(build.status == 0, "the nested build failed:\n\(build.lines(containing: "error:").prefix(40).joined(separator: "\n"))")
        #expect(errors.isEmpty, "the documentation's examples do not compile:\n\(errors.prefix(40).joined(separator: "\n"))")
    }

    /// The examples of README.md and of the pages about PostgreSQL run, as top-level code and
    /// from `@MainActor` classes, against a PostgreSQL server started here (see the type's
    /// documentation): every program exits with 0 and says it ran each of its examples.
    @Test(.enabled(if: enabled && (PostgresTestServer.isInstalled || ExternalTool.isCI),
                   "running the documentation's examples needs their nested build (CI=true or STRATA_DOCS_TEST=1) and PostgreSQL"))
    func documentationExamplesRun() async throws {
        let build = try await NestedPackage.shared.value
        try #require(build.status == 0, "the nested build failed: see documentationExamplesCompile")
        let server = try await PostgresTestServer.offCooperativeThreads { try PostgresTestServer.start() }
        defer { server.stop() }
        let pages = try Self.pages().filter(Self.hasTopLevelTarget)
        #expect(pages.contains { $0.file == "README.md" } && pages.contains { $0.file == "docs/PostgreSQL.md" }, "\(pages.map(\.file))")
        var ran: [String] = []
        defer { print("documentation examples run: \(ran.joined(separator: ", "))") }
        for page in pages {
            let name = Self.topLevelTargetName(page.file)
            guard let program = build.executables[name] else {
                Issue.record("no executable \(name) in the nested build")
                continue
            }
            for mode in ["top-level", "main-actor"] {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strata-docs-run-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                // `timeout`: an example that never ends fails the test (exit 124) instead of hanging it.
                let result = try ExternalTool.run("timeout", ["300", program.path, folder.appendingPathComponent("docs.sqlite").path, server.url(), mode], in: folder)
                #expect(result.status == 0, "\(page.file) (\(mode)) exited with \(result.status):\n\(result.stdout.suffix(2000))\n\(result.stderr.suffix(3000))")
                let runnable = page.snippets.filter(Self.runs)
                ran.append("\(page.file) \(mode): \(runnable.filter { result.stdout.contains("ran \($0.file):\($0.line) (\(mode))") }.count) of \(runnable.count)")
                for snippet in runnable {
                    #expect(result.stdout.contains("ran \(snippet.file):\(snippet.line) (\(mode))"),
                            "\(snippet.file):\(snippet.line) did not run (\(mode)):\n\(result.stdout.suffix(2000))\n\(result.stderr.suffix(2000))")
                }
            }
        }
    }
}
