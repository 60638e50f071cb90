import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Introspect's YAML writer keeps every SQL text it writes (views, triggers, CHECKs, defaults,
/// index conditions) byte for byte: loading its output with the real YAML loader gives the
/// same text back, whatever characters the text holds.
@Suite struct SQLTextRoundTripTests {
    /// Pieces random texts are made of: what YAML treats specially, white space of every kind,
    /// line breaks of every kind, and Unicode (including what YAML 1.1 reads as line breaks).
    static let pieces: [String] = [
        "SELECT", " ", "  ", "\t", "\t\t", "\n", "\r\n", "\r", "\n\n", "'", "''", "\"", "\\", "\\n", "#", " #", ": ", ":",
        "-", "- ", "--", "---", "...", "|", ">", "|-", "{", "}", "[", "]", ",", "&a", "*a", "!", "!!str", "%", "@", "`", "?",
        "é", "日本", "🦆", "\u{0085}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{00A0}", "\u{0007}", "\u{001B}", "\u{007F}",
        "\u{0000}", "\u{0301}", "x", "a = 1", "true", "null", "~", "0x1F", "1e3", "-1", "CHECK (a > 0)", "  \n", " \t ",
    ]

    static func randomText(_ rng: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &rng) {
            text += pieces[Int.random(in: 0..<pieces.count, using: &rng)]
        }
        return text
    }

    /// The texts a schema file holds at `path` (a list of keys and sequence indexes).
    static func node(_ root: YAMLNode?, _ path: [Any]) -> YAMLNode? {
        var node = root
        for step in path {
            if let key = step as? String { node = node?[key] } else if let index = step as? Int { node = node?.items?[index] }
        }
        return node
    }

    @Test func randomSQLTextsLoadBackByteForByte() throws {
        var rng = SeededGenerator(state: 26_02)
        var blocks = 0
        for round in 0..<600 {
            let texts = (0..<5).map { _ in Self.randomText(&rng) }
            var table = AdoptedTable(recordName: "T", sqlName: "t")
            var column = AdoptedColumn(name: "a", sqlName: "a", type: "text")
            column.check = texts[0]
            column.defaultYAML = DatabaseAdopter.defaultYAML("'" + texts[1].replacingOccurrences(of: "'", with: "''") + "'", keyword: "text")
            column.comments = [texts[2]]
            table.columns = [column]
            table.checks = [texts[2]]
            table.indexes = [AdoptedIndex(name: nil, columns: ["a"], isUnique: false, whereClause: texts[3])]
            table.comments = [texts[4]]
            var schema = AdoptedSchema(databaseName: "Random", sourceName: texts[4])
            schema.tables = [table]
            schema.views = [SQLObject(name: texts[3].isEmpty ? "v" : texts[3], sql: texts[3])]
            schema.triggers = [SQLObject(name: "t", sql: texts[4])]
            schema.warnings = [texts[0]]
            schema.skipped = [texts[1]]
            let yaml = SchemaYAMLWriter.render(schema)
            if yaml.contains("|-") { blocks += 1 }
            let loaded = YAMLLoader.load(contents: yaml, file: "Random.schema.yml")
            guard loaded.diagnostics.isEmpty, let root = loaded.root else {
                Issue.record("round \(round): the YAML does not load: \(loaded.diagnostics)\n\(yaml)")
                continue
            }
            let columnNode = Self.node(root, ["tables", "T", "columns", "a"])
            let expected: [(String, YAMLNode?)] = [
                (texts[0], columnNode?["check"]),
                (texts[1], columnNode?["default"]),
                (texts[2], Self.node(root, ["tables", "T", "checks", 0])),
                (texts[3], Self.node(root, ["tables", "T", "indexes", 0, "where"])),
                (texts[3], root["views"]?.pairs?.first?.value),
                (texts[3].isEmpty ? "v" : texts[3], root["views"]?.pairs?.first?.key),
                (texts[4], root["triggers"]?["t"]),
            ]
            for (offset, (text, node)) in expected.enumerated() {
                #expect(
                    node?.scalarText.map { Array($0.utf8) } == Array(text.utf8),
                    "round \(round), text \(offset): \(text.debugDescription) came back as \(node?.scalarText.debugDescription ?? "nothing")\n\(yaml)")
            }
            // Nothing else appeared: the comments stayed comments.
            #expect(root.pairs?.map { $0.key.scalarText ?? "" } == ["database", "tables", "views", "triggers"], "round \(round)\n\(yaml)")
            #expect(root["tables"]?["T"]?.pairs?.map { $0.key.scalarText ?? "" } == ["table", "columns", "checks", "indexes"], "round \(round)\n\(yaml)")
        }
        #expect(blocks > 20, "some texts are written as literal blocks (\(blocks) of 600)")
    }

    /// Northwind-style views, indented with tabs and written with CRLF by Windows tools, pass
    /// `check` after introspect and keep their text.
    @Test func tabIndentedViewsPassCheck() throws {
        let body = "SELECT\n\tid,\n\tname  \n\tFROM t\n\tWHERE name <> '# : -'"
        let crlf = "SELECT id\r\n\tFROM t"
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn in
            try conn.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL CHECK (name <> '\t# x'))")
            try conn.execute(sql: "CREATE VIEW \"Tabbed\" AS \(body)")
            try conn.execute(sql: "CREATE VIEW [Windows view] AS \(crlf)")
        }
        let result = try db.read { conn in try DatabaseAdopter.introspect(conn, databaseName: "Tabs", sourceName: "tabs.sqlite") }
        let schema = try SchemaLoader.load(contents: result.yaml, path: "Tabs.schema.yml")
        #expect(schema.views.map(\.sql) == [body, crlf])
        #expect(schema.tables[0].columns[1].check == "name <> '\t# x'")
    }
}
