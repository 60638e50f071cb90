import Testing
import Strata
@testable import StrataCompiler

@Suite struct HostileIdentifierTests {
    static let text = #"""
        database: Hostile
        tables:
          Order:
            table: order
            columns:
              id:         { type: int, primaryKey: autoincrement }
              group:      text
              default:    { type: int, default: 0 }
              protocol:   text?
              quoted:     { type: text, column: 'say "hi"' }
              apostrophe: { type: text, column: "it's", default: "it's \"fine\"" }
              spaced:     { type: text, column: "first name", check: '"first name" <> ''''' }
              unicode:    { type: text?, column: "prénom 名前" }
              select:     { type: enum, values: ["a'b", 'c"d', "é"], default: "a'b" }
            indexes:
              - columns: [group, quoted]
              - { columns: [unicode], unique: true, where: '"prénom 名前" IS NOT NULL' }
            queries:
              byGroup: { where: '"group" = :group AND "say ""hi""" = :quoted', orderBy: '"first name", [it''s]' }
              bySelect: { where: '"select" IN (:a, :b)', returns: count }
          Weird:
            table: 'weird "table" name; DROP TABLE x; --'
            columns:
              key:     { type: text, primaryKey: true }
              orderId: { type: int, references: order.id, onDelete: restrict, onUpdate: noAction }
        """#

    @Test func loadsWithoutDiagnostics() throws {
        let (schema, diagnostics) = SchemaLoader.check(bytes: Array(Self.text.utf8), path: "Hostile.schema.yml")
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.description))")
        let order = try #require(schema?.table(named: "Order"))
        #expect(order.columns.map(\.name) == ["id", "group", "default", "protocol", "quoted", "apostrophe", "spaced", "unicode", "select"])
        #expect(order.indexes.first?.name == #"order_group_say "hi""#)
        let byGroup = try #require(order.queries.first)
        #expect(byGroup.parameters == [.init(name: "group", type: .text), .init(name: "quoted", type: .text)])
        let enumType = ColumnType.enumeration(swiftType: "Select", values: ["a'b", #"c"d"#, "é"])
        #expect(order.queries[1].parameters == [.init(name: "a", type: enumType), .init(name: "b", type: enumType)])
        let weird = try #require(schema?.table(named: "Weird"))
        #expect(weird.column(named: "orderId")?.references == ForeignKey(table: "Order", column: "id", onDelete: .restrict, onUpdate: .noAction))
    }

    @Test func ddlQuotesEverything() throws {
        let schema = try SchemaLoader.load(contents: Self.text, path: "Hostile.schema.yml")
        let ddl = SQLRenderer.ddl(for: schema)
        #expect(ddl[0].hasPrefix(#"CREATE TABLE "order" ("#))
        #expect(ddl[0].contains(#""say ""hi""" TEXT NOT NULL"#))
        #expect(ddl[0].contains(#""it's" TEXT NOT NULL DEFAULT 'it''s "fine"'"#))
        #expect(ddl[0].contains(#"CHECK ("select" IN ('a''b', 'c"d', 'é'))"#))
        #expect(ddl[1].hasPrefix(#"CREATE TABLE "weird ""table"" name; DROP TABLE x; --" ("#))
        #expect(ddl[1].contains(#"REFERENCES "order" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION"#))
        // Every statement runs in SQLite.
        let sqlite = try #require(SQLiteChecker())
        for statement in ddl {
            #expect(sqlite.execute(statement) == nil, "\(statement)")
        }
    }

    @Test func quoting() {
        #expect(SQLRenderer.quoteIdentifier(#"a"b"#) == #""a""b""#)
        #expect(SQLRenderer.quoteLiteral("it's") == "'it''s'")
        // A combining mark after a quote must not hide it.
        #expect(SQLRenderer.quoteLiteral("'\u{301}") == "'''\u{301}'")
        // Text without a quote is copied as it is (a quick path), a substring too.
        #expect(SQLRenderer.quoteLiteral("caf\u{E9} \"x\"") == "'caf\u{E9} \"x\"'")
        #expect(SQLQuoting.identifier("(order)".dropFirst().dropLast()) == "\"order\"")
    }
}

@Suite struct QueryParameterTests {
    let table = Table(recordName: "T", columns: [
        Column(name: "id", type: .int, primaryKey: .plain),
        Column(name: "title", type: .text),
        Column(name: "price", sqlName: "cost", type: .double, isOptional: true),
        Column(name: "at", type: .date),
    ], primaryKey: ["id"])

    func infer(_ sql: String) -> (names: [String], inferred: [String: [TableQueryParameters.Inference]], others: [String]) {
        TableQueryParameters.infer(Query(name: "q", whereClause: sql), table: table,
                                   schema: Schema(name: "S", sourcePath: "S.schema.yml", tables: [table]))
    }

    func types(_ sql: String) -> [String: TableQueryParameters.Inference] {
        infer(sql).inferred.compactMapValues(\.first)
    }

    @Test func comparisons() {
        let found = types("id = :a AND :b < cost AND title LIKE :c AND at BETWEEN :d AND :e AND id IN (:f, 3, :g) AND T.title != :h")
        #expect(found["a"]?.type == .int)
        #expect(found["b"]?.type == .double)
        #expect(found["c"]?.type == .text)
        #expect(found["d"]?.type == .date && found["e"]?.type == .date)
        #expect(found["f"]?.type == .int && found["g"]?.type == .int)
        #expect(found["h"]?.type == .text)
    }

    @Test func isAndNot() {
        let found = types("cost IS :a OR cost IS NOT :b OR id NOT IN (:c) OR at NOT BETWEEN :d AND :e")
        #expect(found["a"] == .init(type: .double, isOptional: true))
        #expect(found["b"]?.isOptional == true)
        #expect(found["c"]?.type == .int)
        #expect(found["d"]?.type == .date && found["e"]?.type == .date)
    }

    /// The same typing as top-level queries: a parameter compared with any typed expression
    /// takes its type, not only one beside a column name.
    @Test func typedLikeTopLevelQueries() {
        let found = types("lower(title) = :a AND id + 1 > :b AND cost * 2 < :c AND T.\"title\" = :d")
        #expect(found["a"] == .init(type: .text, isOptional: false))
        #expect(found["b"]?.type == .int)
        #expect(found["c"]?.type == .double)
        #expect(found["d"]?.type == .text)
        #expect(types("length(:a) > 3")["a"] == nil)
    }

    @Test func stringsAndCommentsHideParameters() {
        let result = infer("title = ':no' -- :nope\n AND id = :yes /* :never */")
        #expect(result.names == ["yes"])
    }

    @Test func otherParameterStyles() {
        #expect(infer("id = ? OR id = @x OR id = $y").others == ["?", "@x", "$y"])
    }
}
