import Foundation
import Testing
@testable import StrataCompiler

/// `search:` in a schema file: what it decodes to, the DDL it renders, and errors at the
/// YAML line and column of what is wrong.
@Suite struct SearchDecodingTests {
    func errors(_ search: String, extra: String = "") -> [String] {
        do {
            _ = try SchemaLoader.load(contents: """
                tables:
                  Article:
                    columns:
                      id: { type: int, primaryKey: autoincrement }
                      title: text
                      stars: int
                      body: { type: text, column: rank }
                \(extra)    search: \(search)
                """, path: "A.schema.yml")
            return []
        } catch let error as DiagnosticsError {
            return error.diagnostics.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func decodesAndRenders() throws {
        let schema = try SchemaLoader.load(contents: """
            tables:
              Article:
                table: articles
                columns:
                  id: { type: int, primaryKey: autoincrement }
                  title: text
                  summary: { type: text?, column: abstract }
                search: { columns: [title, summary], tokenizer: "unicode61 remove_diacritics 2" }
            """, path: "A.schema.yml")
        let table = try #require(schema.table(named: "Article"))
        #expect(table.search?.columns == ["title", "summary"])
        #expect(table.search?.tokenizer == "unicode61 remove_diacritics 2")
        #expect(table.searchTableName == "articles_fts")
        let ddl = SQLRenderer.ddl(for: schema)
        #expect(ddl.contains(
            #"CREATE VIRTUAL TABLE "articles_fts" USING fts5("title", "abstract", content='articles', tokenize='unicode61 remove_diacritics 2')"#))
        #expect(ddl.filter { $0.hasPrefix("CREATE TRIGGER") }.count == 3)
    }

    @Test func unknownColumn() {
        let found = errors("{ columns: [title, summry] }")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("A.schema.yml:8:32: error: search names unknown column 'summry'") == true, "\(found)")
    }

    @Test func nonTextColumn() {
        let found = errors("{ columns: [stars] }")
        #expect(found.first?.hasPrefix("A.schema.yml:8:25: error: search column 'stars' is int, not text") == true, "\(found)")
    }

    @Test func badTokenizer() {
        let found = errors(#"{ columns: [title], tokenizer: "unicode62" }"#)
        #expect(found.first?.hasPrefix(#"A.schema.yml:8:44: error: bad tokenizer "unicode62""#) == true, "\(found)")
        let badOption = errors(#"{ columns: [title], tokenizer: "unicode61 remove_diacritics 7" }"#)
        #expect(badOption.first?.contains("bad tokenizer") == true, "\(badOption)")
    }

    @Test func otherMistakes() {
        #expect(errors("{ tokenizer: porter }").first?.contains("has no 'columns:'") == true)
        #expect(errors("{ columns: [] }").first?.contains("lists no columns") == true)
        #expect(errors("{ columns: [title, title] }").first?.contains("twice") == true)
        #expect(errors("{ columns: [body] }").first?.contains("FTS5 reserves") == true)
        #expect(errors("{ columns: [title], tokeniser: porter }").first?.contains("unknown key 'tokeniser'") == true)
        #expect(errors("{ columns: [title] }", extra: "    withoutRowid: true\n").contains { $0.contains("WITHOUT ROWID") })
        #expect(errors("{ columns: [title] }", extra: "    queries: { search: { where: \"stars > 1\" } }\n").contains { $0.contains("clash") })
        #expect(errors(#"{ columns: [title], tokenizer: "porter unicode61" }"#).isEmpty)
        #expect(errors(#"{ columns: [title], tokenizer: "trigram" }"#).isEmpty)
    }
}
