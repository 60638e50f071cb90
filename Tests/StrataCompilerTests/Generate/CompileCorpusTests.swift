import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataCompiler

/// The property: any schema `strata check` accepts generates code that compiles.
///
/// A corpus of tricky schemas — Swift keywords and generated member names as column and query
/// names, SQL keywords and Swift/Foundation type names as record names, a database named like a
/// module, enum values that are not identifiers or that meet once made into case names, two
/// foreign keys from one table to one parent, json columns with nested generic types and with
/// the table's own enum. Each is either accepted by the validation stage or rejected at the
/// line and column of the offending key; every accepted one becomes one target of a fresh
/// package (its first migration written as `strata migration new` writes it) that depends on
/// Strata by path and uses the real build plugin, and the package is built ONCE (together with
/// the documentation's examples: ``NestedPackage``), with no errors and no warnings.
///
/// Checking which schemas are accepted, and where the others are rejected, runs on every
/// `swift test`; the nested build takes minutes on a small machine, so it runs under `CI=true`
/// (which `.ci/run` sets) or with `STRATA_CORPUS_TEST=1`.
@Suite(.serialized) struct CompileCorpusTests {
    static var buildEnabled: Bool {
        ExternalTool.isCI || ProcessInfo.processInfo.environment["STRATA_CORPUS_TEST"] == "1"
    }

    /// A schema of the corpus, and where `check` must reject it (nil: it must accept it).
    struct Entry: CustomTestStringConvertible, Sendable {
        var database: String
        var yaml: String
        /// `line:column: message` of each error, in order; empty when the schema is valid.
        var rejections: [String] = []
        var testDescription: String { database }
    }

    static let accepted: [Entry] = [
        Entry(database: "Keywords", yaml: #"""
            database: Keywords
            tables:
              Thing:
                columns:
                  id:          { type: int, primaryKey: autoincrement }
                  self:        text
                  Self:        { type: text?, column: capitalSelf }
                  init:        int
                  Type:        text
                  Protocol:    text?
                  description: int
                  conn:        text
                  default:     { type: int, default: 0 }
                  where:       text?
                  statement:   text
                  record:      text
                  value:       int
                  hash:        { type: text, column: hashValue }
                queries:
                  all:         { }
                  default:     { where: '"default" = :default' }
                  where:       { where: '"where" = :where', returns: one }
                  byInit:      { where: '"init" = :init', returns: count }
                  bySelf:      { where: '"self" = :self AND capitalSelf = :Self', returns: exists }
                  description: { where: "description > :record AND value < :value AND statement = :statement" }
                  hashValue:   { where: '"hashValue" = :hashValue' }
            queries:
              selves:
                sql: SELECT "self", "init", "Type", "Protocol", "where", "default" FROM Thing WHERE "default" = :default
              byWhere:
                sql: SELECT id, description FROM Thing WHERE "self" = :self AND "where" = :where
            """#),
        Entry(database: "Swift", yaml: """
            database: Swift
            tables:
              Order:
                table: order
                columns:
                  id: { type: int, primaryKey: true }
              Group:
                table: group
                columns:
                  id:      { type: int, primaryKey: true }
                  orderId: { type: int, references: Order.id }
              Index:
                columns:
                  id: { type: int, primaryKey: true }
              Select:
                table: select
                columns:
                  id:    { type: int, primaryKey: true }
                  where: text
              Result:
                columns:
                  id:    { type: int, primaryKey: true }
                  value: text
              Task:
                columns:
                  id:     { type: int, primaryKey: true }
                  result: { type: int?, references: Result.id }
                queries:
                  forResult: { where: "result = :result" }
            """),
        Entry(database: "Enums", yaml: """
            database: Enums
            tables:
              Item:
                columns:
                  id:     { type: int, primaryKey: true }
                  kind:   { type: enum, values: ["1st", "2nd", "a b", "self", "Type", "default", "none", "init", "_", "__", "é-x", ""], default: none }
                  state:  { type: enum?, values: [open, closed], default: open }
                  type:   { type: enum, values: [Protocol, self], default: Protocol }
                  kinds:  { type: json, swiftType: "[Kind]", default: [] }
                  byKind: { type: json, swiftType: "[String: [Kind]]", default: {} }
                  nested: { type: json, swiftType: "[String: [[Int]]]" }
                  opt:    { type: json?, swiftType: "Dictionary<String, Array<State>>" }
                queries:
                  ofKind: { where: "kind = :kind" }
            queries:
              kindsOf:
                sql: SELECT kind, kinds, opt FROM Item WHERE id = :id
            """),
        Entry(database: "Family", yaml: """
            database: Family
            tables:
              Person:
                columns:
                  id: { type: int, primaryKey: true }
              Match:
                columns:
                  id:     { type: int, primaryKey: true }
                  homeId: { type: int, references: Person.id }
                  awayId: { type: int, references: Person.id }
                  person: { type: int?, references: Person.id }
            """),
    ]

    static let rejected: [Entry] = [
        Entry(database: "Clash", yaml: """
            database: Clash
            tables:
              Book:
                columns:
                  id:     { type: int, primaryKey: true }
                  format: { type: enum, values: [e-book, eBook] }
                  other:  { type: enum, values: [self, Self] }
            """, rejections: [
                "6:46: enum values 'e-book' and 'eBook' of column 'Book.format' both become the Swift case 'eBook'",
                "7:44: enum values 'self' and 'Self' of column 'Book.other' both become the Swift case 'self_'",
            ]),
        Entry(database: "Members", yaml: """
            database: Members
            tables:
              Thing:
                columns:
                  id:        { type: int, primaryKey: true }
                  hashValue: text
                queries:
                  conn: { }
                  init: { where: "id = :id" }
                  self: { where: "id = :id" }
                  decode: { }
            """, rejections: [
                "6:7: column name 'hashValue' cannot be a property of Thing",
                "8:7: query 'conn' cannot be a method of ThingDAO: every DAO has a member named 'conn'",
                "9:7: query 'init' cannot be a method of ThingDAO: Swift does not allow a method named 'init'",
                "10:7: query 'self' cannot be a method of ThingDAO: Swift does not allow a method named 'self'",
                "11:7: query 'decode' cannot be a method of ThingDAO: every DAO has a member named 'decode'",
            ]),
        Entry(database: "Types", yaml: """
            database: Types
            tables:
              Type:
                columns:
                  id: { type: int, primaryKey: true }
              Date:
                columns:
                  id: { type: int, primaryKey: true }
            """, rejections: [
                "3:3: record name 'Type' is not a valid Swift type name",
                "6:3: record 'Date' would hide the type 'Date' the generated code uses",
            ]),
        Entry(database: "Json", yaml: """
            database: Json
            tables:
              T:
                columns:
                  id:   { type: int, primaryKey: true }
                  a:    { type: json, swiftType: "[String" }
                  b:    { type: json, swiftType: "class" }
                  c:    { type: json, swiftType: "Set<Array<Int>>" }
            """, rejections: [
                "6:38: json swiftType '[String' is not a Swift type",
                "7:38: json swiftType 'class' is not a Swift type",
            ]),
        Entry(database: "Rows", yaml: """
            database: Rows
            tables:
              T:
                columns:
                  id: { type: int, primaryKey: true }
            queries:
              conn:
                sql: SELECT id FROM T
              hashes:
                sql: SELECT id AS hashValue, id AS other FROM T
            """, rejections: [
                "7:3: query 'conn' cannot be a method of RowsQueries",
                "10:17: query 'hashes': result column 'hashValue' cannot be a row property",
            ]),
    ]

    @Test func jsonSwiftTypesAreTypeExpressions() {
        for valid in ["[String]", "[String: [Int]]", "Set<String>", "Dictionary<String, Array<Kind>>", "Shop.Address", "[Int?]", "[[String: Double]]"] {
            #expect(SwiftNames.isTypeExpression(valid), "\(valid)")
        }
        for invalid in ["", "[String", "String]", "class", "[String:]", "Set<>", "Set<String", "a b", "[String] x", "Foo.", "1Type"] {
            #expect(!SwiftNames.isTypeExpression(invalid), "\(invalid)")
        }
    }

    static func check(_ entry: Entry) -> [Diagnostic] {
        SchemaLoader.check(bytes: Array(entry.yaml.utf8), path: "\(entry.database).schema.yml").diagnostics
    }

    /// `check` accepts it, and so does `generate` (with its first migration beside it): the two
    /// run one validation stage.
    @Test(arguments: accepted) func isAccepted(_ entry: Entry) throws {
        let diagnostics = Self.check(entry)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-corpus-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let schemaPath = try Self.write(entry, to: directory)
        let swift = try Generator.generate(schemaPath: schemaPath)
        #expect(swift.contains("public enum \(SwiftNames.identifier(entry.database)) {"))
    }

    /// Writes the entry's schema, its first migration and a file that uses the generated API
    /// into `directory`; returns the schema's path.
    @discardableResult
    static func write(_ entry: Entry, to directory: URL) throws -> String {
        let schemaPath = try writeSchema(entry.yaml, database: entry.database, to: directory)
        try usage(of: try SchemaLoader.load(path: schemaPath))
            .write(to: directory.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
        return schemaPath
    }

    /// Writes `<database>.schema.yml` and its first migration, as `strata migration new …
    /// --name initial` writes it, into `directory`; returns the schema's path.
    @discardableResult
    static func writeSchema(_ yaml: String, database: String, to directory: URL) throws -> String {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let schemaURL = directory.appendingPathComponent("\(database).schema.yml")
        try yaml.write(to: schemaURL, atomically: true, encoding: .utf8)
        let schema = try SchemaLoader.load(path: schemaURL.path)
        let plan = try MigrationPlanner.plan(schema: schema, migrations: [])
        let migrations = directory.appendingPathComponent("\(database).migrations")
        try manager.createDirectory(at: migrations, withIntermediateDirectories: true)
        try MigrationRenderer.render(plan, version: 1, name: "initial", schemaFile: schemaURL.lastPathComponent)
            .write(to: migrations.appendingPathComponent("0001_initial.sql"), atomically: true, encoding: .utf8)
        return schemaURL.path
    }

    @Test(arguments: rejected) func isRejectedAtTheOffendingKey(_ entry: Entry) throws {
        let diagnostics = Self.check(entry)
        #expect(diagnostics.count == entry.rejections.count, "\(diagnostics.map(\.description))")
        for (diagnostic, expected) in zip(diagnostics, entry.rejections) {
            let position = "\(diagnostic.location.line):\(diagnostic.location.column): "
            #expect((position + diagnostic.message).hasPrefix(expected), "\(diagnostic)")
            #expect(diagnostic.severity == .error && diagnostic.hint != nil, "\(diagnostic) has a hint")
        }
    }

    /// The schemas `strata introspect` writes for the adoption corpus's real-world shapes
    /// (Northwind, Sakila, Core Data, GeoPackage, WordPress, Anki): built through the plugin with
    /// the rest, each in a target of its own (their record names meet).
    static let adopted: [Entry] = AdoptionCorpus.Shape.allCases.map { shape in
        let yaml: String
        do {
            let db = try Database.inMemory()
            try db.writeWithoutTransaction { conn in try conn.execute(sql: shape.sql) }
            yaml = try db.read { conn in
                try DatabaseAdopter.introspect(conn, databaseName: shape.schemaName, sourceName: "\(shape.rawValue).sqlite").yaml
            }
        } catch {
            // Recorded by `introspectedShapesAreAccepted`, which checks the YAML.
            yaml = "# introspect failed: \(error)"
        }
        return Entry(database: shape.schemaName, yaml: yaml)
    }

    @Test(arguments: adopted) func introspectedShapesAreAccepted(_ entry: Entry) throws {
        try isAccepted(entry)
    }

    /// Every schema built: the corpus and the adopted shapes.
    static var built: [Entry] { accepted + adopted }

    /// The targets of the accepted schemas.
    static var targetNames: [String] { built.map { "Corpus\($0.database)" } }

    /// Adds one target per accepted schema to the package at `root`: its schema, its first
    /// migration and a file that uses the generated API; returns their names.
    static func addTargets(to root: URL) throws -> [String] {
        for (entry, name) in zip(built, targetNames) {
            try write(entry, to: root.appendingPathComponent("Sources/\(name)"))
        }
        return targetNames
    }

    /// A function that opens the database, migrates it, inserts a default-built record of each
    /// table through its DAO and reads them back, so the generated API is used, not only declared.
    static func usage(of schema: Schema) -> String {
        var body = ""
        for table in schema.tables {
            let record = SwiftNames.identifier(table.recordName)
            body += "    _ = try db.read { conn in try \(SwiftNames.identifier(table.recordName + "DAO"))(conn).fetchAll() } as [\(record)]\n"
        }
        return """
            import Strata

            func useTheGeneratedCode(_ db: Database) throws {
                try \(SwiftNames.identifier(schema.name)).migrate(db)
            \(body)}

            """
    }

    @Test(.enabled(if: buildEnabled, "building the corpus builds a package (minutes); CI=true or STRATA_CORPUS_TEST=1 runs it"))
    func everyAcceptedSchemaCompilesWithoutWarnings() async throws {
        let build = try await NestedPackage.shared.value
        let errors = build.lines(about: Self.targetNames, containing: "error:")
        #expect(build.status == 0, "the nested build failed:\n\(build.lines(containing: "error:").prefix(40).joined(separator: "\n"))")
        #expect(errors.isEmpty, "the corpus does not compile:\n\(errors.prefix(40).joined(separator: "\n"))")
        // Warnings in the corpus's generated code and sources, or in Strata itself (the docs'
        // examples, built alongside, may leave values unused).
        let warnings = build.lines(about: Self.targetNames, containing: "warning:")
            + build.lines(containing: "warning:").filter { $0.hasPrefix(ExternalTool.repositoryRoot.path + "/") }
        #expect(warnings.isEmpty, "the nested build has warnings:\n\(warnings.prefix(40).joined(separator: "\n"))")
    }
}
