import Foundation
import Testing
@testable import StrataCompiler

@Suite struct DecodingTests {
    @Test func formsDefaultsAndOptions() throws {
        let schema = try SchemaLoader.load(contents: """
            options: { strict: false, foreignKeys: false }
            tables:
              Item:
                table: items
                primaryKey: code
                columns:
                  code:    text
                  note:    { type: text, optional: true }
                  id:      { type: uuid, default: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" }
                  at:      { type: date, default: "2024-01-02 03:04:05.678" }
                  ratio:   { type: double, default: 2 }
                  delta:   { type: int, default: -5 }
                  off:     { type: bool, default: false }
                  raw:     { type: blob?, default: { sql: "x'00'" } }
                  meta:    { type: json, swiftType: "[String: [Int?]]", default: { "a \\"b\\"": [1, null], c: [] } }
                  kind:    { type: enum, values: [a, b], swiftType: ItemKind, default: b }
                  book_format: { type: enum, values: [x] }
            """, path: "Items.schema.yml")
        #expect(schema.name == "Items")
        #expect(schema.options == Schema.Options(strict: false, foreignKeys: false))
        let item = try #require(schema.table(named: "Item"))
        #expect(item.primaryKey == ["code"])
        #expect(item.column(named: "note")?.isOptional == true)
        #expect(item.column(named: "id")?.defaultValue == .text("3F2504E0-4F89-41D3-9A0C-0305E82C3301"))
        #expect(item.column(named: "at")?.defaultValue == .text("2024-01-02 03:04:05.678"))
        #expect(item.column(named: "ratio")?.defaultValue == .real(2))
        #expect(item.column(named: "delta")?.defaultValue == .integer(-5))
        #expect(item.column(named: "off")?.defaultValue == .bool(false))
        #expect(item.column(named: "raw")?.defaultValue == .sql("x'00'"))
        #expect(item.column(named: "meta")?.defaultValue == .json(#"{"a \"b\"":[1,null],"c":[]}"#))
        #expect(item.column(named: "kind")?.type == .enumeration(swiftType: "ItemKind", values: ["a", "b"]))
        #expect(item.column(named: "book_format")?.type == .enumeration(swiftType: "BookFormat", values: ["x"]))
        let ddl = SQLRenderer.createTableSQL(item, in: schema)
        #expect(!ddl.hasSuffix("STRICT"))
        #expect(ddl.contains(#""code" TEXT PRIMARY KEY NOT NULL"#))
        #expect(ddl.contains(#""delta" INTEGER NOT NULL DEFAULT -5"#))
        #expect(ddl.contains(#""raw" BLOB DEFAULT (x'00')"#))
    }

    @Test func crlfAndByteOrderMark() throws {
        let text = try String(contentsOfFile: Paths.library, encoding: .utf8)
        let crlf = text.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(SchemaLoader.check(bytes: Array(crlf.utf8), path: "Library.schema.yml").diagnostics.isEmpty)
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
        #expect(SchemaLoader.check(bytes: bom, path: "Library.schema.yml").diagnostics.isEmpty)
    }

    @Test func loadThrowsAllDiagnosticsSorted() {
        do {
            _ = try SchemaLoader.load(contents: """
                tables:
                  B:
                    columns: { id: txt }
                  A:
                    colums: {}
                """, path: "X.schema.yml")
            Issue.record("expected an error")
        } catch let error as DiagnosticsError {
            #expect(error.diagnostics.map(\.location.line) == [3, 5])
            #expect(error.description.hasPrefix("X.schema.yml:3:20: error: unknown type 'txt'"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingFileIsADiagnostic() {
        let (schema, diagnostics) = SchemaLoader.check(path: "/nonexistent/Nothing.schema.yml")
        #expect(schema == nil)
        #expect(diagnostics.map(\.description) == ["/nonexistent/Nothing.schema.yml:1:1: error: cannot read the file"])
    }

    @Test func suggestions() {
        #expect(Suggestion.closest(to: "primarykey", in: SchemaDecoder.columnKeys) == "primaryKey")
        #expect(Suggestion.closest(to: "refrences", in: SchemaDecoder.columnKeys) == "references")
        #expect(Suggestion.closest(to: "zzz", in: SchemaDecoder.columnKeys) == nil)
        #expect(SwiftNames.isValidSwiftIdentifier("default") && SwiftNames.isValidSwiftIdentifier("prénom"))
        #expect(!SwiftNames.isValidSwiftIdentifier("a-b") && !SwiftNames.isValidSwiftIdentifier("_") && !SwiftNames.isValidSwiftIdentifier("1a"))
        #expect(!SwiftNames.isValidTypeName("protocol") && SwiftNames.isValidTypeName("Order"))
    }
}

@Test func editDistance() {
    #expect(Suggestion.editDistance("emial", "email") == 1)
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.editDistance("", "abc") == 3)
    #expect(Suggestion.closest(to: "emial", in: ["id", "email"]) == "email")
}
