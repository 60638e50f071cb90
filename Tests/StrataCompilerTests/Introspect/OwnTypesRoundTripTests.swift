import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Introspecting a database that Strata's own migrations created gives back the schema's
/// types: `bool` and `enum` (from the CHECK their DDL adds), `date` with `default: now`,
/// `expires: true` and `search:` — over the bundled schema and the integration tests' schemas.
///
/// SQLite keeps nothing that tells a `date`, `uuid` or `json` column of an empty table from a
/// `text` one (all are `TEXT`); those come back as `text`, and the test says so, so that a
/// change in that is seen.
@Suite struct OwnTypesRoundTripTests {
    static let schemaPaths: [String] = {
        let integration = Paths.packageRoot.appendingPathComponent("Tests/StrataIntegrationTests")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: integration.path)) ?? []
        return [Paths.library]
            + names.filter { $0.hasSuffix(".schema.yml") }.sorted().map { integration.appendingPathComponent($0).path }
    }()

    /// The type keyword introspect can give back for a column of `type`.
    static func expectedKeyword(_ column: Column) -> String {
        switch column.type {
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .text: "text"
        case .blob: "blob"
        case .enumeration: "enum"
        // A date stored as a number reads back as its number type, but with `default: now` as
        // the date it is (the default names the format).
        case .date where column.dateFormat != nil:
            column.defaultValue == .now ? "date" : column.dateFormat?.isInteger == true ? "int" : "double"
        case .date: column.defaultValue == .now || column.name == Expiry.columnName ? "date" : "text"
        case .uuid, .json: "text"
        }
    }

    static func keyword(_ type: ColumnType) -> String {
        switch type {
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .text: "text"
        case .blob: "blob"
        case .enumeration: "enum"
        case .date: "date"
        case .uuid: "uuid"
        case .json: "json"
        }
    }

    @Test func theSchemasAreFound() {
        #expect(Self.schemaPaths.count >= 6, "\(Self.schemaPaths)")
    }

    @Test(arguments: schemaPaths)
    func aDatabaseStrataMadeIntrospectsToItsSchemasTypes(_ schemaPath: String) throws {
        let original = try SchemaLoader.load(path: schemaPath)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-own-types-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("own.sqlite").path
        do {
            let db = try Database(path: path)
            try Migrator(migrations: try MigrationFiles.load(schemaPath: schemaPath)).migrate(db)
        }
        let result = try DatabaseAdopter.introspect(databasePath: path, databaseName: original.name)
        let adopted: Schema
        do {
            adopted = try SchemaLoader.load(contents: result.yaml, path: directory.appendingPathComponent("\(original.name).schema.yml").path)
        } catch {
            Issue.record("the introspected YAML of \(schemaPath) does not load: \(error)\n\(result.yaml)")
            return
        }
        #expect(!result.yaml.contains("# CREATE"), "nothing Strata made is left as a comment:\n\(result.yaml)")
        for table in original.tables {
            guard let back = adopted.tables.first(where: { $0.sqlName == table.sqlName }) else {
                Issue.record("\(schemaPath): table \(table.sqlName) did not come back\n\(result.yaml)")
                continue
            }
            #expect(back.expires == table.expires, "\(table.sqlName): expires")
            #expect(back.search?.columns == table.search?.columns, "\(table.sqlName): search")
            #expect(back.search?.tokenizer == table.search?.tokenizer, "\(table.sqlName): search tokenizer")
            #expect(back.columns.map(\.sqlName) == table.columns.map(\.sqlName), "\(table.sqlName): columns")
            for column in table.columns {
                guard let came = back.columns.first(where: { $0.sqlName == column.sqlName }) else { continue }
                let context = "\(URL(fileURLWithPath: schemaPath).lastPathComponent): \(table.sqlName).\(column.sqlName)"
                #expect(Self.keyword(came.type) == Self.expectedKeyword(column), "\(context): \(came.type) for \(column.type)")
                #expect(came.isOptional == column.isOptional, "\(context): optional")
                if column.dateFormat != nil, column.defaultValue == .now {
                    #expect(came.dateFormat == column.dateFormat, "\(context): dateFormat")
                }
                #expect(came.sqlType == nil, "\(context): no sqlType for a type Strata rendered")
                if case .enumeration(_, let values) = column.type, case .enumeration(_, let cameValues) = came.type {
                    #expect(cameValues == values, "\(context): enum values")
                }
                if column.type == .bool || Self.keyword(column.type) == "enum" {
                    #expect(came.check == column.check, "\(context): the type's own CHECK is not a check")
                    #expect(came.defaultValue == column.defaultValue, "\(context): default")
                }
            }
        }
        // And the YAML reproduces the database: what a baseline checks.
        let live = try {
            var configuration = Database.Configuration.readOnly
            configuration.immutable = true
            return try Database(path: path, configuration: configuration).read { conn in try SchemaIntrospector.introspect(conn) }
        }()
        let declared = try MigrationReplay.declaredStructure(of: adopted)
        #expect(SchemaDiff.compare(from: live, to: declared) == [], "\(result.yaml)")
    }
}
