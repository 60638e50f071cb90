import Foundation
import Testing
@testable import StrataCompiler

/// `strata diagram`: the Mermaid output is checked line by line, the DOT output is drawn by the
/// real Graphviz (`dot -Tsvg`), which must accept it without a warning.
@Suite struct DiagramTests {
    static let library = ExternalTool.repositoryRoot.appendingPathComponent("schemas/Library.schema.yml")

    static func schema(_ text: String, path: String = "Diagram.schema.yml") throws -> Schema {
        try SchemaLoader.load(contents: text, path: path)
    }

    @Test func mermaidListsTablesColumnsKeysAndRelations() throws {
        let mermaid = DiagramRenderer.render(try SchemaLoader.load(path: Self.library.path), format: .mermaid)
        let lines = mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "erDiagram")
        #expect(lines.filter { $0.hasSuffix("{") }.count == 5, "one block per table")
        #expect(lines.filter { $0 == "    }" }.count == 5, "every block closed")
        for expected in [
            "    Author {",
            "        int id PK",
            "        date born \"optional\"",
            "        uuid id PK",
            "        text isbn UK",
            "        enum format \"hardcover | paperback | ebook\"",
            "        json tags \"[String]\"",
            "        int authorId FK",
            "        uuid bookId PK, FK",
            "        text fullName \"column full_name\"",
            "        int memberId FK \"optional\"",
            // Relations: parent side, child side, child, the referencing column.
            "    Author ||--o{ Book : \"authorId\"",
            "    Book ||--o{ BookTag : \"bookId\"",
            "    Book ||--o{ Loan : \"bookId\"",
            "    Member |o--o{ Loan : \"memberId\"",
        ] {
            #expect(lines.contains(expected), "missing line: \(expected)\n\(mermaid)")
        }
        #expect(lines.filter { $0.contains("--") }.count == 4, "one edge per foreign key")
    }

    @Test func uniqueForeignKeyIsOneToOne() throws {
        let schema = try Self.schema("""
            tables:
              User:
                columns:
                  id: { type: int, primaryKey: autoincrement }
              Profile:
                columns:
                  id:     { type: int, primaryKey: autoincrement }
                  userId: { type: int, unique: true, references: User.id }
                  mentor: { type: int?, references: User.id }
            """)
        let mermaid = DiagramRenderer.mermaid(schema)
        #expect(mermaid.contains("    User ||--o| Profile : \"userId\"\n"))
        #expect(mermaid.contains("    User |o--o{ Profile : \"mentor\"\n"))
        let dot = DiagramRenderer.dot(schema)
        #expect(dot.contains(#""User":c0:e -> "Profile":k1:w [arrowtail=teetee, taillabel="1", arrowhead=teeodot, headlabel="0..1", label="userId"];"#))
        #expect(dot.contains(#""User":c0:e -> "Profile":k2:w [arrowtail=teeodot, taillabel="0..1", arrowhead=crowodot, headlabel="0..*", label="mentor"];"#))
    }

    @Test func dotMarksKeysAndCardinality() throws {
        let dot = DiagramRenderer.dot(try SchemaLoader.load(path: Self.library.path))
        #expect(dot.hasPrefix("digraph \"Library\" {\n"))
        #expect(dot.hasSuffix("}\n"))
        #expect(dot.contains(#"<tr><td port="k0" align="left">PK</td><td align="left"><u>id</u></td><td port="c0" align="left">int</td></tr>"#))
        #expect(dot.contains(#"<td port="c2" align="left">date?</td>"#))
        #expect(dot.contains(#"<b>Book</b> <font point-size="9">books</font>"#))
        #expect(dot.contains(#"<td align="left">format</td><td port="c5" align="left">enum Format</td>"#))
        #expect(dot.contains(#""Author":c0:e -> "Book":k9:w [arrowtail=teetee, taillabel="1", arrowhead=crowodot, headlabel="0..*", label="authorId"];"#))
        #expect(dot.contains(#""Member":c0:e -> "Loan":k2:w [arrowtail=teeodot, taillabel="0..1", arrowhead=crowodot, headlabel="0..*", label="memberId"];"#))
        #expect(dot.components(separatedBy: " -> ").count - 1 == 4)
    }

    static var graphvizAvailable: Bool { ExternalTool.find("dot") != nil }

    /// Renders `dot` to SVG with Graphviz; any error or warning fails the test.
    static func renderSVG(_ dot: String, _ what: String) throws {
        let result = try ExternalTool.run("dot", ["-Tsvg"], input: dot)
        #expect(result.status == 0, "dot -Tsvg failed for \(what): \(result.stderr)")
        #expect(result.stderr.isEmpty, "dot -Tsvg complained about \(what): \(result.stderr)")
        #expect(result.stdout.contains("<svg"), "no SVG for \(what)")
    }

    @Test(.enabled(if: graphvizAvailable || ExternalTool.isCI, "Graphviz is not installed (apt-get install graphviz)"))
    func graphvizDrawsEverySchemaOfTheRepository() throws {
        #expect(Self.graphvizAvailable, "CI=true: Graphviz's dot must be installed (.ci/run installs it)")
        var drawn = 0
        for url in JSONSchemaTests.schemaFiles() where !url.path.contains("/Fixtures/Broken/") {
            let schema = try SchemaLoader.load(path: url.path)
            try Self.renderSVG(DiagramRenderer.dot(schema), url.lastPathComponent)
            drawn += 1
        }
        #expect(drawn >= 6)
        // Hostile SQL names (quotes, <, &, spaces, non-ASCII) must be escaped, not break the graph.
        let hostile = try SchemaLoader.load(contents: HostileIdentifierTests.text, path: "Hostile.schema.yml")
        let dot = DiagramRenderer.dot(hostile)
        #expect(dot.contains("weird &quot;table&quot; name; DROP TABLE x; --"))
        try Self.renderSVG(dot, "the hostile schema")
        try Self.renderSVG(DiagramRenderer.dot(try Self.schema("""
            tables:
              Node:
                table: "a <b> & \\"c\\""
                columns:
                  id:     { type: int, primaryKey: autoincrement }
                  parent: { type: int?, references: Node.id }
            """)), "a self-reference")
    }

    @Test(.enabled(if: graphvizAvailable, "Graphviz is not installed (apt-get install graphviz)"))
    func theReadmeDiagramIsCurrent() throws {
        // docs/Library.svg is `strata diagram schemas/Library.schema.yml --format dot | dot -Tsvg`.
        let svg = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/Library.svg"), encoding: .utf8)
        let dot = DiagramRenderer.dot(try SchemaLoader.load(path: Self.library.path))
        let fresh = try ExternalTool.run("dot", ["-Tsvg"], input: dot)
        // Compare the drawn text (Graphviz versions may place things differently).
        func texts(_ svg: String) -> [String] {
            svg.components(separatedBy: "<text").dropFirst().compactMap { $0.split(separator: ">", maxSplits: 1).last }
                .map { String($0.prefix { $0 != "<" }) }.sorted()
        }
        #expect(texts(svg) == texts(fresh.stdout), "docs/Library.svg is out of date; regenerate it (docs/CLI.md, strata diagram)")
        let readme = try String(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("docs/Library.svg"))
    }

    @Test func commandWritesTheDiagram() throws {
        let cli = StrataCLITests()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-diagram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var result = try cli.strata("diagram", Self.library.path, in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == DiagramRenderer.mermaid(try SchemaLoader.load(path: Self.library.path)))

        result = try cli.strata("diagram", Self.library.path, "--format", "dot", "--output", "library.dot", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "wrote library.dot\n")
        let written = try String(contentsOf: directory.appendingPathComponent("library.dot"), encoding: .utf8)
        #expect(written.hasPrefix("digraph \"Library\" {"))

        try "tables:\n  Book:\n    columns:\n      id: { type: txt, primaryKey: true }\n"
            .write(to: directory.appendingPathComponent("Bad.schema.yml"), atomically: true, encoding: .utf8)
        result = try cli.strata("diagram", "Bad.schema.yml", "--output", "bad.dot", in: directory)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Bad.schema.yml:4:19: error: unknown type 'txt'"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad.dot").path))

        result = try cli.strata("diagram", Self.library.path, "--format", "png", in: directory)
        #expect(result.status != 0)
        #expect(result.stderr.contains("mermaid") && result.stderr.contains("dot"))

        result = try cli.strata("diagram", "--help", in: directory)
        #expect(result.stdout.contains("EXAMPLES:"))
        #expect(result.stdout.contains("strata diagram Library.schema.yml --format dot | dot -Tsvg -o library.svg"))
    }
}
