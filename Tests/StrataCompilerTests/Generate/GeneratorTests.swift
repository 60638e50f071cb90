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

    /// `check` reported nothing here while `generate` refused it: the rule is now in the one
    /// validation stage, at the value that clashes.
    @Test func enumValuesThatBecomeTheSameSwiftCaseAreAnError() throws {
        let (_, diagnostics) = SchemaLoader.check(
            bytes: Array("""
                tables:
                  T:
                    columns:
                      id: { type: int, primaryKey: true }
                      kind: { type: enum, values: [e-book, eBook, plain] }
                """.utf8), path: "E.schema.yml")
        #expect(diagnostics.map(\.description) == [
            "E.schema.yml:5:44: error: enum values 'e-book' and 'eBook' of column 'T.kind' both become the Swift case 'eBook' (rename one of the values)"
        ])
    }

    @Test func everyGeneratedStatementOfTheExampleIsAcceptedBySQLite() throws {
        let path = GeneratedFixtures.schemasDirectory.appendingPathComponent("Library.schema.yml").path
        let schema = try SchemaLoader.load(path: path)
        // Loading prepared every statement the generated DAOs run (DAOPlan.statements).
        #expect(!DAOPlan(table: schema.tables[0], schema: schema).statements.isEmpty)
        #expect(MigrationVerifier.verify(schema: schema, schemaPath: path).isEmpty, "the example's migrations match it")
    }

    @Test func generateFailsWithDiagnosticsWhenMigrationsAreMissing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Shop.schema.yml").path
        try "tables:\n  Item:\n    columns:\n      id: { type: int, primaryKey: true }\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: DiagnosticsError.self) { try Generator.generate(schemaPath: path) }
        #expect(error?.diagnostics.first?.message.contains("the schema differs from its migrations") == true)
        #expect(error?.diagnostics.first?.hint?.contains("strata migration new \(path) --name <name>") == true)
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
        #expect(TableQueryParameters.names(in: "a = :a AND b = ':no' AND \"c:x\" = :b -- :c\n AND d = :a /* :e */ OR e = :z").names == ["a", "b", "z"])
        #expect(TableQueryParameters.names(in: "x = 'it''s :not' AND y = :yes").names == ["yes"])
        #expect(TableQueryParameters.names(in: "no parameters").names == [])
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
        #expect(SwiftNames.stringLiteral("a\r\nb") == #""a\r\nb""#)
        // Quotes, backslashes and pounds are found by byte, also where a combining mark
        // follows them (one Character with it).
        #expect(SwiftNames.stringLiteral("\"#\u{301}") == "##\"\"#\u{301}\"##")
        #expect(SwiftNames.stringLiteral("a\\#b") == "##\"a\\#b\"##")
        #expect(SwiftNames.contains("ab\"#\u{301}", "\"#"))
        #expect(!SwiftNames.contains("ab", "abc"))
    }

    @Test func multilineLiteralsKeepTheTextExactly() {
        let literal = SwiftNames.multilineLiteral("a\n  b\n\n\"\"\"#x\nend\n", indent: "    ")
        // An empty line stays empty: Swift needs no indentation there, and no line ends in spaces.
        #expect(literal.hasPrefix("##\"\"\"\n    a\n      b\n\n    \"\"\"#x\n    end\n\n    \"\"\"##"))
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

    func render(_ yaml: String, path: String = "G.schema.yml") throws -> String {
        return Generator.render(try Compiler.compile(contents: yaml, path: path), migrations: [], schemaPath: path)
    }

    @Test func enumColumnsNamedLikeTypesGetAValueSuffix() throws {
        let schema = try SchemaLoader.load(
            contents: """
                tables:
                  Kind:
                    columns:
                      id: { type: int, primaryKey: true }
                      type: { type: enum, values: [a] }
                      protocol: { type: enum, values: [a] }
                      date: { type: enum, values: [a] }
                      data: { type: enum, values: [a] }
                      string: { type: enum, values: [a] }
                      bool: { type: enum, values: [a] }
                      int: { type: enum, values: [a] }
                      double: { type: enum, values: [a] }
                      uuid: { type: enum, values: [a] }
                      UUID: { type: enum, values: [a], column: uuid2 }
                      codingKeys: { type: enum, values: [a] }
                      kind: { type: enum, values: [a] }
                      format: { type: enum, values: [a] }
                """, path: "G.schema.yml")
        let names = try #require(schema.table(named: "Kind")).columns.dropFirst().map { column -> String in
            guard case .enumeration(let swiftType, _) = column.type else { return "" }
            return swiftType
        }
        #expect(names == [
            "TypeValue", "ProtocolValue", "DateValue", "DataValue", "StringValue", "BoolValue", "IntValue", "DoubleValue",
            "Uuid", "UUIDValue", "CodingKeysValue", "KindValue", "Format",
        ])
    }

    /// `.some`, not `T.Mode.some`; qualified by their type only where `.none` alone would be
    /// `Optional.none`.
    @Test func enumDefaultsAreQualifiedOnlyWhereNeeded() throws {
        let swift = try render("""
            tables:
              T:
                columns:
                  id: { type: int, primaryKey: true }
                  mode: { type: enum?, values: [none, some], default: none }
                  other: { type: enum?, values: [none, some], default: some }
                  state: { type: enum?, values: [open, closed], default: open }
                  plain: { type: enum, values: [none, some], default: none }
            """)
        #expect(swift.contains("mode: Mode? = Mode.none,\n"))
        #expect(swift.contains("other: Other? = Other.some,\n"))
        #expect(swift.contains("state: State? = .`open`,\n"))
        #expect(swift.contains("plain: Plain = .none\n"))
    }

    @Test func jsonDefaultsAreSwiftDefaultsOnlyForArrayAndDictionaryTypes() throws {
        let swift = try render("""
            tables:
              T:
                columns:
                  id: { type: int, primaryKey: true }
                  prefs: { type: json, swiftType: Prefs, default: { theme: light } }
                  maybe: { type: json?, swiftType: Prefs, default: { theme: dark } }
                  tags: { type: json, swiftType: "[String]", default: [] }
                  counts: { type: json, swiftType: "[String: Int]", default: { a: 1 } }
            """)
        #expect(swift.contains("        prefs: Prefs,\n"))
        #expect(swift.contains("        maybe: Prefs?,\n"), "no Swift default rather than nil for a declared default")
        #expect(swift.contains("        tags: [String] = [],\n"))
        #expect(swift.contains("        counts: [String: Int] = [\"a\": 1]\n"))
    }

    @Test func theNamespaceConfigurationFollowsTheForeignKeysOption() throws {
        let loose = try render("options: { foreignKeys: false }\ntables:\n  T:\n    columns:\n      id: { type: int, primaryKey: true }\n")
        #expect(loose.contains("public static let configuration: Database.Configuration = {\n        var configuration = Database.Configuration()\n        configuration.foreignKeys = false\n"))
        #expect(loose.contains("try Migrator(migrations: migrations).migrate(conn, foreignKeys: configuration.foreignKeys)"))
        let strict = try render("tables:\n  T:\n    columns:\n      id: { type: int, primaryKey: true }\n")
        #expect(strict.contains("configuration.foreignKeys = true\n"))
    }

    @Test func aLineCommentInAQueryEndsItsLine() throws {
        let schema = try SchemaLoader.load(
            contents: """
                tables:
                  T:
                    columns:
                      id: { type: int, primaryKey: true }
                      name: text
                    queries:
                      many: { where: "name = :name -- by name", orderBy: "id DESC -- newest first", limit: 2 }
                      any: { where: "name = :name -- by name", returns: exists }
                      plain: { where: "name = :name", orderBy: id, limit: 2 }
                """, path: "G.schema.yml")
        let table = try #require(schema.table(named: "T"))
        #expect(SQLRenderer.selectSQL(table.queries[0], on: table)
            == #"SELECT "id", "name" FROM "T" WHERE name = :name -- by name\#n ORDER BY id DESC -- newest first\#n LIMIT 2"#)
        #expect(SQLRenderer.selectSQL(table.queries[1], on: table) == #"SELECT EXISTS (SELECT 1 FROM "T" WHERE name = :name -- by name\#n)"#)
        #expect(SQLRenderer.selectSQL(table.queries[2], on: table) == #"SELECT "id", "name" FROM "T" WHERE name = :name ORDER BY id LIMIT 2"#)
        // The ordering and the limit apply.
        let db = try Database.inMemory()
        let rows = try db.writeWithoutTransaction { conn -> [Int] in
            try conn.execute(sql: SQLRenderer.createTableSQL(table, in: schema))
            try conn.execute(sql: #"INSERT INTO "T" VALUES (1, 'a'), (2, 'a'), (3, 'a')"#)
            let statement = try conn.makeStatement(sql: SQLRenderer.selectSQL(table.queries[0], on: table))
            try statement.bind("a", at: 1)
            var ids: [Int] = []
            while try statement.step() { ids.append(statement.int(at: 0)) }
            return ids
        }
        #expect(rows == [3, 2])
    }

    @Test func aTableWithOnlyAnAutoincrementKeyInsertsDefaultValues() throws {
        let schema = try SchemaLoader.load(contents: "tables:\n  T:\n    columns:\n      id: { type: int, primaryKey: autoincrement }\n", path: "G.schema.yml")
        let table = try #require(schema.table(named: "T"))
        #expect(DAOPlan(table: table, schema: schema).insertAssigningKeySQL == #"INSERT INTO "T" DEFAULT VALUES"#)
    }

    @Test func queryAndNavigationConstantsNeverTakeABuiltInName() throws {
        let swift = try render("""
            tables:
              P:
                columns:
                  id: { type: int, primaryKey: autoincrement }
                queries:
                  select: { where: "id > :a" }
                  insertAssigningKey: { where: "id > :a" }
                  tableSQLName: { where: "id > :a" }
                  a: { where: "id > :a" }
                  A: { where: "id > :a" }
              C:
                columns:
                  id: { type: int, primaryKey: true }
                  selectId: { type: int, references: P.id }
                  insertAssigningKeyId: { type: int, references: P.id }
            """)
        for constant in [
            "querySelectSQL", "queryInsertAssigningKeySQL", "queryTableSQLNameSQL", "queryASQL", "queryA2SQL", "navigationSelectSQL",
            "navigationInsertAssigningKeySQL",
        ] {
            #expect(swift.contains("static let \(constant): CachedSQL = "), "\(constant)")
        }
        for builtIn in DAOPlanConstants.names {
            let declarations = swift.components(separatedBy: "static let \(builtIn) = ").count
                + swift.components(separatedBy: "static let \(builtIn): CachedSQL = ").count - 2
            #expect(declarations <= 2, "\(builtIn) is declared once per DAO")
        }
    }

    @Test func parametersNamedLikeBodyLocalsGetAnInternalName() {
        let names = SwiftNames.parameterNames(["statement", "statement_", "id", "default", "value"])
        #expect(names.map(\.declaration) == ["statement statement__", "statement_", "id", "`default`", "value value_"])
        #expect(names.map(\.reference) == ["statement__", "statement_", "id", "`default`", "value_"])
    }

    @Test func aNamespaceNamedAfterAFileThatHidesATypeIsAnError() {
        let bytes = Array("tables:\n  T:\n    columns:\n      id: { type: int, primaryKey: true }\n".utf8)
        let (schema, diagnostics) = SchemaLoader.check(bytes: bytes, path: "Sequence.schema.yml")
        #expect(schema == nil)
        #expect(diagnostics.map(\.description) == [
            "Sequence.schema.yml:1:1: error: the namespace 'Sequence' named after the file would hide the type 'Sequence' the generated code uses (rename the file or use 'database:' to name the namespace, for example 'database: SequenceSchema')"
        ])
        let renamed = SchemaLoader.check(bytes: Array(("database: Store\n" + String(decoding: bytes, as: UTF8.self)).utf8), path: "Sequence.schema.yml")
        #expect(renamed.diagnostics.isEmpty)
    }

    @Test func pluginOutputNamesAreInjective() {
        let target = URL(fileURLWithPath: "/pkg/Sources/App")
        func name(_ relative: String) -> String {
            StrataOutputFileName.fileName(schema: target.appendingPathComponent(relative), targetDirectory: target)
        }
        #expect(name("Library.schema.yml") == "Library.schema.yml.swift")
        #expect(name("Models/Library.schema.yml") == "Models_-Library.schema.yml.swift")
        let paths = [
            "X.schema.yml", "X.schema.yaml", "a_b/X.schema.yml", "a/b/X.schema.yml", "a_/b/X.schema.yml", "a/_b/X.schema.yml",
            "a/_/b/X.schema.yml", "a__b/X.schema.yml", "a_-b/X.schema.yml", "a/-b/X.schema.yml", "a_b_X.schema.yml",
        ]
        let names = paths.map(name)
        #expect(Set(names).count == paths.count, "\(names)")
        // A schema outside the target is named by its absolute path.
        #expect(StrataOutputFileName.fileName(schema: URL(fileURLWithPath: "/pkg/Other/X.schema.yml"), targetDirectory: target)
            == "_-pkg_-Other_-X.schema.yml.swift")
        // A sibling directory whose name starts like the target's is not inside it.
        #expect(StrataOutputFileName.fileName(schema: URL(fileURLWithPath: "/pkg/Sources/AppX/X.schema.yml"), targetDirectory: target)
            == "_-pkg_-Sources_-AppX_-X.schema.yml.swift")
    }
}

/// The SQL constants a DAO declares itself.
enum DAOPlanConstants {
    static let names = ["tableSQLName", "selectSQL", "insertSQL", "insertAssigningKeySQL", "upsertSQL", "deleteSQL", "findSQL"]
}

@Suite struct QueryParameterOrderTests {
    /// The generated code binds `query.parameters` by position: they must be in SQLite's order.
    @Test func parametersOfTheExampleAreInSQLitesOrder() throws {
        let path = GeneratedFixtures.schemasDirectory.appendingPathComponent("Library.schema.yml").path
        let schema = try SchemaLoader.load(path: path)
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            for sql in SQLRenderer.ddl(for: schema) { try conn.execute(sql: sql) }
            for table in schema.tables {
                for query in table.queries {
                    let statement = try conn.makeStatement(sql: DAOPlan(table: table, schema: schema).querySQL(query))
                    let numbered = (0..<Int32(statement.parameterCount)).map { statement.parameterName(at: $0 + 1) ?? "?" }
                    #expect(numbered == query.parameters.map { ":" + $0.name }, "\(table.recordName).\(query.name)")
                }
            }
        }
    }

    @Test func aLimitParameterOfACountQueryIsNotAParameter() throws {
        let schema = try SchemaLoader.load(
            contents: """
                tables:
                  T:
                    columns:
                      id: { type: int, primaryKey: true }
                      n: int
                    queries:
                      many:  { where: "n > :min", limit: ":top" }
                      total: { where: "n > :min", limit: ":top", returns: count }
                """, path: "Q.schema.yml")
        let queries = try #require(schema.tables.first).queries
        #expect(queries[0].parameters.map(\.name) == ["min", "top"])
        #expect(queries[1].parameters.map(\.name) == ["min"])
    }
}
