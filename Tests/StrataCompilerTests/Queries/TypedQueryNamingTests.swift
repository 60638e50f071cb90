import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// Typed SQL as people write it (issue 28): a single column is the bare value whatever its
/// expression, expressions that name themselves need no `AS`, one lowerCamelCase rule for
/// parameters and fields, exactly-one-row statements are not optional, parameters inferred
/// from arithmetic and ranges, and errors that quote their line and say what to write.
@Suite struct TypedQueryNamingTests {
    typealias T = TypedQueryAnalysisTests

    static func diagnostics(_ sql: String, extra: String = "") -> [String] {
        T.diagnostics("queries:\n  q:\n    sql: \(sql)\n" + extra)
    }

    // MARK: - One column is the value

    @Test func aSingleColumnIsTheBareValueWithOrWithoutAName() throws {
        let count = try T.typed("SELECT COUNT(*) FROM item")
        #expect(count.shape == .value)
        #expect(count.columns.map(\.valueType) == [.init(type: .int)])
        let sum = try T.typed("SELECT SUM(price * 2) FROM item WHERE parentId = :parent_id")
        #expect(sum.shape == .value)
        #expect(sum.columns.map(\.valueType) == [.init(type: .double, isOptional: true)])
        let exists = try T.typed("SELECT EXISTS (SELECT 1 FROM item WHERE id = :id)")
        #expect(exists.columns.map(\.valueType) == [.init(type: .bool)])
        #expect(exists.parameters.map(\.valueType) == [.init(type: .int)])
        #expect(try T.typed("SELECT name || '!' FROM item").columns.map(\.valueType) == [.init(type: .text)])
        #expect(try T.typed("SELECT 1 + 1").columns.map(\.valueType) == [.init(type: .int)])
        // A multi-line expression: its name is the expression on one line.
        let multiLine = T.diagnostics("queries:\n  q:\n    sql: |\n      SELECT sum(price *\n        2) FROM item\n")
        #expect(multiLine.isEmpty, "\(multiLine)")
    }

    // MARK: - Derived names

    @Test func expressionsThatNameThemselves() throws {
        let query = try T.typed("""
            SELECT i.name, CAST(price AS INTEGER), -id, +parentId, count(*), count(parentId), sum(price), min(id), max(id), \
            avg(price), total(price), count(DISTINCT kind), count() AS n FROM item i
            """)
        #expect(query.shape == .rows)
        #expect(query.columns.map(\.propertyName) == [
            "name", "price", "id", "parentId", "count", "countParentId", "sumPrice", "minId", "maxId", "avgPrice", "totalPrice",
            "countKind", "n",
        ])
        #expect(query.columns.map(\.valueType.type) == [.text, .int, .int, .int, .int, .int, .double, .int, .int, .double, .double, .int, .int])
        // snake_case SQL names become lowerCamelCase, the aggregate's prefix too.
        let snake = try T.typed("SELECT cast(parentId AS integer) AS parent_id, max(parentId) FROM item")
        #expect(snake.columns.map(\.propertyName) == ["parentId", "maxParentId"])
    }

    @Test func anUnnamedExpressionInSeveralColumnsNeedsAnAliasAndGetsASuggestion() {
        #expect(Self.diagnostics("SELECT id, price * 2 FROM item") == [
            "Shop.schema.yml:12:21: error: query 'q': result column `price * 2` needs a name to be a property of the row (add AS, for example `price * 2 AS price`)",
        ])
        #expect(Self.diagnostics("SELECT id, EXISTS (SELECT 1 FROM item x WHERE x.parentId = item.id) FROM item") == [
            "Shop.schema.yml:12:21: error: query 'q': result column `EXISTS (SELECT 1 FROM item x WHERE x.parentId = item.id)` needs a name to be a property of the row (add AS, for example `EXISTS (SELECT 1 FROM item x WHERE x.parentId = item.id) AS hasItem`)",
        ])
        // The suggestion is not the name of another column; the expression is quoted on one line.
        let found = T.diagnostics("queries:\n  q:\n    sql: |\n      SELECT sum(price *\n          2), price\n      FROM item\n")
        #expect(found == [
            "Shop.schema.yml:13:14: error: query 'q': result column `sum(price * 2)` needs a name to be a property of the row (add AS, for example `sum(price * 2) AS sumPrice`)",
        ])
    }

    @Test func aDerivedNameThatCollidesNamesBothColumns() {
        #expect(Self.diagnostics("SELECT a.name, b.name FROM item a JOIN item b ON b.id = a.parentId") == [
            "Shop.schema.yml:12:25: error: query 'q': two result columns are named 'name': `a.name` and `b.name` (add AS to give one another name)",
        ])
        #expect(Self.diagnostics("SELECT count(*), count(*) AS count FROM item") == [
            "Shop.schema.yml:12:27: error: query 'q': two result columns are named 'count': `count(*)` and `count(*)` (add AS to give one another name)",
        ])
    }

    // MARK: - One naming rule

    @Test func parametersBecomeLowerCamelCaseLabels() throws {
        let query = try T.typed("SELECT id FROM item WHERE parentId = :parent_id AND name = :item_name AND id > :ID")
        #expect(query.parameters.map(\.name) == ["parent_id", "item_name", "ID"])
        #expect(query.parameters.map(\.label) == ["parentId", "itemName", "id"])
        // `params:` keeps the name as written in the SQL.
        let declared = try T.typed("SELECT id FROM item WHERE id IN (:item_ids)", params: "{ item_ids: '[int]' }")
        #expect(declared.parameters.map(\.label) == ["itemIds"])
        #expect(declared.parameters.map(\.isList) == [true])
    }

    @Test func twoParametersWithOneSwiftNameAreAnError() {
        #expect(Self.diagnostics("SELECT id FROM item WHERE id = :a_b OR parentId = :aB") == [
            "Shop.schema.yml:12:60: error: query 'q': parameters ':a_b' and ':aB' are both 'aB' in Swift (rename one of them: each parameter becomes an argument label)",
        ])
    }

    // MARK: - Exactly one row

    @Test func statementsThatYieldExactlyOneRow() throws {
        let one = [
            "SELECT count(*) FROM item", "SELECT count(*) FROM item WHERE id = :id", "SELECT 1 AS a, 2 AS b",
            "SELECT max(price) AS m, min(id) AS n FROM item", "SELECT EXISTS (SELECT 1 FROM item)",
            "WITH x AS (SELECT id FROM item) SELECT max(id) FROM x", "SELECT count(*) FROM item LIMIT 1",
            "SELECT (SELECT name FROM item LIMIT 1)", "SELECT count(*) + 1 FROM item", "SELECT DISTINCT count(*) FROM item",
        ]
        for sql in one {
            #expect(try T.typed(sql, returns: "one").exactlyOneRow, "\(sql)")
        }
        let notOne = [
            "SELECT name FROM item", "SELECT 1 AS a WHERE :flag = 1", "SELECT count(*) FROM item GROUP BY kind",
            "SELECT count(*) FROM item HAVING count(*) > 1", "SELECT count(*) FROM item LIMIT :n",
            "SELECT count(*) FROM item LIMIT 0", "SELECT count(*) FROM item LIMIT 1 OFFSET 1",
            "SELECT count(*) FROM item UNION ALL SELECT 1", "SELECT count(*) OVER () FROM item",
            "UPDATE item SET name = 'x' RETURNING id",
        ]
        for sql in notOne {
            #expect(try !T.typed(sql, params: sql.contains(":flag") ? "{ flag: int }" : "", returns: "one").exactlyOneRow, "\(sql)")
        }
        // A scalar subquery of one row is not optional either.
        #expect(try T.typed("SELECT (SELECT 1 + 1) AS n").columns.map(\.valueType) == [.init(type: .int)])
        #expect(try T.typed("SELECT (SELECT 1 LIMIT :n) AS n", params: "{ n: int }").columns.map(\.valueType) == [.init(type: .int, isOptional: true)])
    }

    // MARK: - Parameter inference

    @Test func parametersFromArithmeticComparisonsRangesAndCase() throws {
        let query = try T.typed("""
            SELECT id FROM item WHERE id + :plus > 3 AND :minus - id > 0 AND id * :times < 10 AND id BETWEEN :low AND :high \
            AND CASE WHEN id > :when THEN 1 ELSE 0 END = 1 AND price - :off > 0
            """)
        #expect(query.parameters.map(\.name) == ["plus", "minus", "times", "low", "high", "when", "off"])
        #expect(query.parameters.map(\.valueType) == Array(repeating: .init(type: .int), count: 6) + [.init(type: .double)])
        // Used as Int and as Double: Double.
        let mixed = try T.typed("SELECT id FROM item WHERE id = :x OR price > :x")
        #expect(mixed.parameters.map(\.valueType) == [.init(type: .double)])
        let mixedArithmetic = try T.typed("SELECT id FROM item WHERE id > :x AND id * 2.5 > :x")
        #expect(mixedArithmetic.parameters.map(\.valueType) == [.init(type: .double)])
        // `params:` wins.
        let declared = try T.typed("SELECT id FROM item WHERE id + :plus > 3", params: "{ plus: double }")
        #expect(declared.parameters.map(\.valueType) == [.init(type: .double)])
        // Int and text still conflict.
        #expect(Self.diagnostics("SELECT id FROM item WHERE id = :x OR name = :x") == [
            "Shop.schema.yml:12:54: error: query 'q': parameter ':x' is used as Int and as String (use two parameters, or declare its type in 'params:')",
        ])
    }

    // MARK: - Errors that teach

    @Test func aDoubleQuotedTokenThatNamesNothing() {
        #expect(Self.diagnostics("INSERT INTO item (name, kind) VALUES (\"\", 'a')") == [
            "Shop.schema.yml:12:48: error: query 'q': `\"\"` is an identifier here (SQLite's double-quoted strings are off in Strata); write '' for a string",
        ])
        #expect(Self.diagnostics("SELECT id FROM item WHERE name = \"bob\"") == [
            "Shop.schema.yml:12:43: error: query 'q': `\"bob\"` is an identifier here (SQLite's double-quoted strings are off in Strata); write 'bob' for a string",
        ])
        // A double-quoted name of a real column is fine.
        #expect(Self.diagnostics("SELECT \"name\" FROM item").isEmpty)
    }

    @Test func anUnknownColumnInAnInsertOrUpdateListIsReportedAtThatColumn() {
        #expect(Self.diagnostics("INSERT INTO item (name, nme, kind) VALUES ('x', 1, 'a')") == [
            "Shop.schema.yml:12:34: error: query 'q': SQLite rejects the statement: table item has no column named nme",
        ])
        #expect(Self.diagnostics("UPDATE item SET nme = 1 WHERE id = 2") == [
            "Shop.schema.yml:12:26: error: query 'q': SQLite rejects the statement: no such column: nme",
        ])
    }

    @Test func errorsQuoteTheirOneLineWithACaret() throws {
        let text = T.tables + "queries:\n  q:\n    sql: |\n      SELECT id,\n             nme\n      FROM item\n"
        let found = SchemaLoader.check(bytes: Array(text.utf8), path: "Shop.schema.yml").diagnostics
        let diagnostic = try #require(found.first)
        #expect(found.count == 1)
        #expect(diagnostic.rendered == """
            Shop.schema.yml:14:14: error: query 'q': SQLite rejects the statement: no such column: nme
               |
            14 |              nme
               |              ^
            """)
        #expect(!diagnostic.rendered.contains("FROM item"), "only the line the error points into")
        // A quoted scalar: the file line as written.
        let quoted = SchemaLoader.check(bytes: Array((T.tables + "queries:\n  q:\n    sql: \"SELECT nme FROM item\"\n").utf8), path: "S.yml")
        #expect(quoted.diagnostics.map(\.rendered) == [
            "S.yml:12:18: error: query 'q': SQLite rejects the statement: no such column: nme\n   |\n12 |     sql: \"SELECT nme FROM item\"\n   |                  ^",
        ])
    }

    // MARK: - Schema diagnostics

    @Test func aJSONSwiftTypeNamingAGeneratedEnumIsAnError() {
        let yaml = """
            tables:
              Book:
                columns:
                  id:     { type: int, primaryKey: autoincrement }
                  format: { type: enum, values: [paper, ebook] }
                  extra:  { type: json, swiftType: Format }
                  more:   { type: json, swiftType: "Format?" }
                  many:   { type: json, swiftType: "[Format]" }
                  own:    { type: json, swiftType: App.Format }
            """
        let found = SchemaLoader.check(bytes: Array(yaml.utf8), path: "Shop.schema.yml").diagnostics.map(\.description)
        #expect(found == [
            "Shop.schema.yml:6:7: error: json column 'extra' has swiftType 'Format', which names the enum Strata generates for column 'format' ('Book.Format'): the column would hold that enum, not a type of the app (give the enum another name with swiftType on 'format', or qualify the app's type with its module ('App.Format'))",
            "Shop.schema.yml:7:7: error: json column 'more' has swiftType 'Format?', which names the enum Strata generates for column 'format' ('Book.Format'): the column would hold that enum, not a type of the app (give the enum another name with swiftType on 'format', or qualify the app's type with its module ('App.Format'))",
        ])
    }
}
