import Foundation
import Strata
import Testing
@testable import StrataCompiler

@Suite struct GeneratorTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("strata-generator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func enumValuesThatBecomeTheSameSwiftCaseAreAnError() throws {
        let schema = try SchemaLoader.load(
            contents: """
                tables:
                  T:
                    columns:
                      id: { type: int, primaryKey: true }
                      kind: { type: enum, values: [e-book, eBook, plain] }
                """, path: "E.schema.yml")
        let diagnostics = Generator.check(schema, migrations: [], schemaPath: "E.schema.yml")
        #expect(diagnostics.map(\.description) == [
            "E.schema.yml:5:7: error: enum values 'e-book' and 'eBook' of T.kind both become the Swift case 'eBook' (rename one of the values)"
        ])
    }

    @Test func everyGeneratedStatementOfTheExampleIsAcceptedBySQLite() throws {
        let path = GeneratedFixtures.schemasDirectory.appendingPathComponent("Library.schema.yml").path
        let schema = try SchemaLoader.load(path: path)
        #expect(Generator.check(schema, migrations: [], schemaPath: path).isEmpty)
        #expect(MigrationVerifier.verify(schema: schema, schemaPath: path).isEmpty, "the example's migrations match it")
    }

    @Test func generateFailsWithDiagnosticsWhenMigrationsAreMissing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Shop.schema.yml").path
        try "tables:\n  Item:\n    columns:\n      id: { type: int, primaryKey: true }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: DiagnosticsError.self) { try Generator.generate(schemaPath: path) }
        #expect(error?.diagnostics.first?.message.contains("the schema differs from its migrations") == true)
        #expect(error?.diagnostics.first?.message.contains("strata migration new \(path) --name <name>") == true)
    }

    @Test func writeIfChangedKeepsAnUnchangedFileUntouched() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("deep/Out.swift").path
        #expect(try Generator.writeIfChanged("a", to: path))
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: path)
        #expect(try Generator.writeIfChanged("a", to: path) == false)
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        #expect(modified == past)
        #expect(try Generator.writeIfChanged("b", to: path))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "b")
    }

    @Test func parametersAreNumberedLikeSQLite() {
        #expect(SQLParameters.names(in: "a = :a AND b = ':no' AND \"c:x\" = :b -- :c\n AND d = :a /* :e */ OR e = :z") == ["a", "b", "z"])
        #expect(SQLParameters.names(in: "x = 'it''s :not' AND y = :yes") == ["yes"])
        #expect(SQLParameters.names(in: "no parameters") == [])
    }

    @Test func swiftNames() {
        #expect(SwiftNames.identifier("default") == "`default`")
        #expect(SwiftNames.identifier("title") == "title")
        #expect(SwiftNames.argumentLabel("default") == "default")
        #expect(SwiftNames.argumentLabel("inout") == "`inout`")
        #expect(SwiftNames.enumCase("e-book") == "eBook")
        #expect(SwiftNames.enumCase("2nd") == "_2nd")
        #expect(SwiftNames.enumCase("default") == "`default`")
        #expect(SwiftNames.enumCase("IN_PROGRESS") == "in_progress")
        #expect(SwiftNames.enumCase("Hard Cover") == "hardCover")
        #expect(SwiftNames.plural("book") == "books")
        #expect(SwiftNames.plural("category") == "categories")
        #expect(SwiftNames.plural("address") == "addresses")
        #expect(SwiftNames.plural("day") == "days")
        #expect(SwiftNames.lowerFirst("BookTag") == "bookTag")
        #expect(SwiftNames.lowerFirst("URLRecord") == "urlRecord")
        #expect(SwiftNames.stringLiteral("plain") == "\"plain\"")
        #expect(SwiftNames.stringLiteral(#"SELECT "a""#) == ##"#"SELECT "a""#"##)
        #expect(SwiftNames.stringLiteral(##"a"#b"##) == ###"##"a"#b"##"###)
        #expect(SwiftNames.stringLiteral("line\nbreak") == #""line\nbreak""#)
    }

    @Test func multilineLiteralsKeepTheTextExactly() {
        let literal = SwiftNames.multilineLiteral("a\n  b\n\n\"\"\"#x\nend\n", indent: "    ")
        #expect(literal.hasPrefix("##\"\"\"\n    a\n      b\n    \n    \"\"\"#x\n    end\n    \n    \"\"\"##"))
    }

    @Test func jsonDefaultsBecomeSwiftLiterals() throws {
        let renderer = SwiftRenderer(
            input: SwiftRenderer.Input(schema: Schema(name: "X", sourcePath: "X"), sourceFileName: "X", createTableSQL: [], createIndexSQL: [], migrations: []))
        #expect(renderer.swiftLiteral(json: "[]") == "[]")
        #expect(renderer.swiftLiteral(json: "{}") == "[:]")
        #expect(renderer.swiftLiteral(json: #"{"theme":"light","n":[1,2]}"#) == #"["theme": "light", "n": [1, 2]]"#)
        #expect(renderer.swiftLiteral(json: #"["a\u00e9\n",null,true]"#) == #"["a\u{00e9}\n", nil, true]"#)
        #expect(renderer.swiftLiteral(json: #"["unterminated]"#) == nil)
    }

    @Test func generateCommandWritesOnlyWhenTheBytesChange() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = GeneratedFixtures.schemasDirectory
        let output = directory.appendingPathComponent("out")
        let cli = StrataCLITests()
        let first = try cli.strata("generate", library.appendingPathComponent("Library.schema.yml").path, "--output", output.path, in: directory)
        #expect(first.status == 0)
        #expect(first.stderr.contains("wrote"))
        let second = try cli.strata("generate", library.appendingPathComponent("Library.schema.yml").path, "--output", output.path, in: directory)
        #expect(second.status == 0)
        #expect(second.stderr.contains("unchanged"))
        let generated = try String(contentsOf: output.appendingPathComponent("Library.swift"), encoding: .utf8)
        #expect(generated.hasPrefix("// Generated by strata from Library.schema.yml. Do not edit.\n"))
        let broken = directory.appendingPathComponent("Broken.schema.yml")
        try "tables:\n  T:\n    columns:\n      id: { type: itn, primaryKey: true }\n".write(to: broken, atomically: true, encoding: .utf8)
        let failed = try cli.strata("generate", broken.path, "--output", output.path, in: directory)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Broken.schema.yml:4:"))
        #expect(failed.stderr.contains("did you mean 'int'?"))
    }
}
