import Foundation
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
    }

    struct Page {
        var file: String
        var snippets: [Snippet]
        /// The page's own schema, if it has one.
        var schema: String?
    }

    static let marker = "<!-- not compiled:"

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
                snippets.append(Snippet(file: file, line: index + 1, code: body, notCompiled: reason))
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
        // 11 since dateFormat: (docs/SchemaReference.md's Event example uses a table of no bundled schema).
        #expect(snippets.filter { $0.notCompiled != nil }.count <= 11, "mark fragments sparingly")
    }

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
                }
            } else {
                let effects = code.contains("await ") ? "async throws" : "throws"
                var parameters = librarySchema ? "db: Database, path: String, book: Book" : "db: Database"
                if usesPostgres(page) { parameters += ", pg: PostgresDatabase" }
                body += "@MainActor final class MainActorExample\(number) {\n    func run(\(parameters)) \(effects) {\n" + code + "}\n}\n\n"
            }
        }
        return imports.sorted().joined(separator: "\n") + "\n\n" + body
    }

    /// Whether a page's examples are also compiled as top-level code: README.md's and those of
    /// the pages about PostgreSQL (whose own schema they use).
    static func hasTopLevelTarget(_ page: Page) -> Bool {
        (page.file == "README.md" || usesPostgres(page)) && page.schema != nil
            && page.snippets.contains { $0.notCompiled == nil && !isFileLevel($0.code) }
    }

    /// The `main.swift` of a page's top-level target: the examples that are statements, each in
    /// a `do` block of top-level code, with `db` (and `pg`) as top-level values. It is compiled,
    /// not run: the program stops before them.
    static func topLevelSource(of page: Page) -> String {
        var imports: Set<String> = ["import Foundation", "import Strata"]
        var body = """
            // Compiled, not run.
            guard CommandLine.arguments.count > 3 else { exit(0) }
            let db = try Database(path: CommandLine.arguments[1])

            """
        if usesPostgres(page) {
            imports.insert("import StrataPostgres")
            body += "let pg = try await PostgresDatabase(url: CommandLine.arguments[2])\n"
        }
        for snippet in page.snippets where snippet.notCompiled == nil && !isFileLevel(snippet.code) {
            body += "\n// \(snippet.file):\(snippet.line)\ndo {\n"
            for line in snippet.code.components(separatedBy: "\n") {
                if line.hasPrefix("import ") { imports.insert(line) } else { body += line + "\n" }
            }
            body += "}\n"
        }
        return imports.sorted().joined(separator: "\n") + "\n\n" + body
    }

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
                for item in try manager.contentsOfDirectory(atPath: directory.path) where item != "Examples.swift" {
                    try manager.copyItem(at: directory.appendingPathComponent(item), to: main.appendingPathComponent(item))
                }
                try topLevelSource(of: page).write(to: main.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
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
}
