import Foundation
import Strata
import Testing
@testable import StrataCompiler

@Suite struct MigrationFilesTests {
    @Test func directoryBesideTheSchema() {
        #expect(MigrationFiles.directory(forSchemaPath: "Sources/App/Shop.schema.yml") == "Sources/App/Shop.migrations")
        #expect(MigrationFiles.directory(forSchemaPath: "Shop.schema.yaml") == "Shop.migrations")
    }

    @Test func snakeCase() {
        #expect(MigrationFiles.snakeCase("AddPhone") == "add_phone")
        #expect(MigrationFiles.snakeCase("add phone number") == "add_phone_number")
        #expect(MigrationFiles.snakeCase("add-phone") == "add_phone")
        #expect(MigrationFiles.snakeCase("initial") == "initial")
        #expect(MigrationFiles.snakeCase("v2 UUIDKeys") == "v2_uuidkeys")
    }

    @Test func parseFileNames() {
        #expect(MigrationFiles.parse(fileName: "0001_initial.sql")! == (1, "initial"))
        #expect(MigrationFiles.parse(fileName: "0012_add_phone.sql")! == (12, "add_phone"))
        #expect(MigrationFiles.parse(fileName: "1_initial.sql") == nil)
        #expect(MigrationFiles.parse(fileName: "0001-initial.sql") == nil)
        #expect(MigrationFiles.parse(fileName: "0001_AddPhone.sql") == nil)
        #expect(MigrationFiles.parse(fileName: "0000_zero.sql") == nil)
    }

    func folder(_ files: [String]) throws -> MigrationWorkspace {
        let workspace = try MigrationWorkspace()
        let directory = MigrationFiles.directory(forSchemaPath: workspace.schemaPath)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in files {
            try Data("SELECT 1;\n".utf8).write(to: URL(fileURLWithPath: directory + "/" + file))
        }
        return workspace
    }

    @Test func loadsInOrder() throws {
        let workspace = try folder(["0002_b.sql", "0001_a.sql", "README.md"])
        let migrations = try MigrationFiles.load(schemaPath: workspace.schemaPath)
        #expect(migrations.map(\.version) == [1, 2])
        #expect(migrations.map(\.name) == ["a", "b"])
        #expect(migrations[0].checksum == Migration.checksum(of: "SELECT 1;\n"))
    }

    @Test func missingFolderIsNoMigrations() throws {
        #expect(try MigrationFiles.load(schemaPath: "/nonexistent/Shop.schema.yml").isEmpty)
    }

    @Test func refusesGapsDuplicatesAndBadNames() throws {
        for (files, message) in [
            (["0001_a.sql", "0003_c.sql"], "should be version 2"),
            (["0001_a.sql", "0001_b.sql"], "two migration files have version 1"),
            (["0001_a.sql", "2_b.sql"], "is not NNNN_snake_case_name.sql"),
            (["0002_b.sql"], "should be version 1"),
        ] {
            let workspace = try folder(files)
            #expect {
                try MigrationFiles.load(schemaPath: workspace.schemaPath)
            } throws: { error in
                "\(error)".contains(message) && "\(error)".contains(":1:1: error:")
            }
        }
    }

    @Test func verifierNamesTheCommand() throws {
        let (workspace, _) = try ShopSchema.seeded()
        let schema = try workspace.writeSchema(ShopSchema.yaml(customer: ShopSchema.customer + "\n      phone: text?"))
        let diagnostics = MigrationVerifier.verify(schema: schema, schemaPath: workspace.schemaPath)
        #expect(diagnostics.count == 1)
        #expect(
            diagnostics.first?.description
                == "\(workspace.schemaPath):11:7: error: the schema differs from its migrations: column customer.phone is declared but missing (run 'swift run strata migration new \(workspace.schemaPath) --name <name>')"
        )
        try workspace.writeSchema(ShopSchema.v1)
        #expect(MigrationVerifier.verify(schema: try SchemaLoader.load(path: workspace.schemaPath), schemaPath: workspace.schemaPath).isEmpty)
    }
}

@Suite struct IntrospectionTests {
    @Test func readsStructureNotSpelling() throws {
        let db = try Database.inMemory()
        let structure = try db.writeWithoutTransaction { conn in
            try conn.execute(
                sql: """
                    create table [P] (ID integer primary key autoincrement, code text unique not null) strict;
                    CREATE TABLE "c" ("x" TEXT DEFAULT 'a,b' CHECK ( "x" <> 'z' ), p_id INTEGER REFERENCES p ON DELETE CASCADE, n REAL NOT NULL DEFAULT (1.5), CHECK (length(x) < 10), UNIQUE (x, p_id));
                    CREATE INDEX c_partial ON c (n DESC) WHERE n > 0;
                    CREATE VIEW v AS SELECT * FROM c;
                    CREATE TRIGGER t AFTER INSERT ON c BEGIN SELECT 1; END;
                    """)
            return try SchemaIntrospector.introspect(conn)
        }
        let p = try #require(structure.table(named: "p"))
        #expect(p.isStrict && p.isAutoincrement && p.primaryKey == ["ID"])
        #expect(p.uniqueConstraints == [["code"]])
        #expect(p.column(named: "id")?.isNotNull == true)
        let c = try #require(structure.table(named: "C"))
        #expect(!c.isStrict && !c.isAutoincrement)
        #expect(c.column(named: "x")?.checks == ["x <> 'z'"])
        #expect(c.column(named: "x")?.defaultSQL == "'a,b'")
        #expect(c.tableChecks == ["length ( x ) < 10"])
        #expect(c.foreignKeys == [DatabaseForeignKey(columns: ["p_id"], parentTable: "p", parentColumns: ["ID"], onDelete: "CASCADE")])
        #expect(c.uniqueConstraints == [["x", "p_id"]])
        #expect(structure.indexes.map(\.name) == ["c_partial"])
        #expect(structure.indexes.first?.columns == ["n DESC"])
        #expect(structure.indexes.first?.whereClause == "n > 0")
        #expect(structure.views.map(\.name) == ["v"])
        #expect(structure.triggers.map(\.name) == ["t"])
        #expect(c.column(named: "n")?.hasNonConstantDefault == false)
    }

    @Test func normalizationIgnoresQuotingCaseAndSpace() {
        #expect(SQLTokenizer.normalize("length(\"Title\")  >  0") == SQLTokenizer.normalize("LENGTH( title ) > 0"))
        #expect(SQLTokenizer.normalize("x = 'A'") != SQLTokenizer.normalize("x = 'a'"))
        #expect(SQLTokenizer.normalize("((1))") == "1")
    }
}
