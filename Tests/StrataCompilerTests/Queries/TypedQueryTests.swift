import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// The query analysis stage (top-level `queries:`): each error class at its exact line and
/// column inside the `sql:` scalar, the typing rules one by one, and the signatures generated
/// for Tests/StrataIntegrationTests/Music.schema.yml pinned in Fixtures/Queries.
@Suite struct TypedQueryAnalysisTests {
    static let tables = """
        tables:
          Item:
            table: item
            columns:
              id:    { type: int, primaryKey: autoincrement }
              name:  text
              price: double?
              kind:  { type: enum, values: [a, b] }
              parentId: { type: int?, references: Item.id }

        """

    /// The diagnostics of the schema `tables` + `queries` (queries start at line 10).
    static func diagnostics(_ queries: String, file: String = "Shop.schema.yml") -> [String] {
        let text = tables + queries
        return SchemaLoader.check(bytes: Array(text.utf8), path: file).diagnostics.map(\.description)
    }

    static func typed(_ sql: String, params: String = "", columns: String = "", returns: String = "") throws -> TypedQuery {
        var text = tables + "queries:\n  q:\n    sql: \"\(sql.replacingOccurrences(of: "\"", with: "\\\""))\"\n"
        if !params.isEmpty { text += "    params: \(params)\n" }
        if !returns.isEmpty { text += "    returns: \(returns)\n" }
        if !columns.isEmpty { text += "    columns: \(columns)\n" }
        let compiled = try Compiler.compile(contents: text, path: "Shop.schema.yml")
        return try #require(compiled.queries.first)
    }

    // MARK: - Errors, one per class, at an exact line:column

    @Test func sqliteRejectionInALiteralBlock() {
        let found = Self.diagnostics("""
            queries:
              q:
                sql: |
                  SELECT id,
                         nme
                  FROM item
            """)
        #expect(found == ["Shop.schema.yml:14:14: error: query 'q': SQLite rejects the statement: no such column: nme"])
    }

    /// A misspelled qualified column in a join (the user journey's step 9): at `i.idd`, not at
    /// the first `i` of the statement.
    @Test func sqliteRejectionOfAQualifiedColumnInAJoin() {
        let found = Self.diagnostics("""
            queries:
              q:
                sql: |
                  SELECT i.name, p.name AS parent
                  FROM item i
                  LEFT JOIN item p ON p.id = i.parentIdd
            """)
        #expect(found == ["Shop.schema.yml:15:34: error: query 'q': SQLite rejects the statement: no such column: i.parentIdd"])
    }

    @Test func sqliteRejectionInAFoldedBlock() {
        let found = Self.diagnostics("queries:\n  q:\n    sql: >\n      SELECT id,\n        nme FROM item\n")
        #expect(found == ["Shop.schema.yml:14:9: error: query 'q': SQLite rejects the statement: no such column: nme"])
    }

    @Test func sqliteRejectionInQuotedAndPlainScalars() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: \"SELECT \\\"id\\\", nme FROM item\"\n")
            == ["Shop.schema.yml:12:26: error: query 'q': SQLite rejects the statement: no such column: nme"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: 'SELECT ''x'' AS a, nme FROM item'\n")
            == ["Shop.schema.yml:12:30: error: query 'q': SQLite rejects the statement: no such column: nme"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id,\n      nme FROM item\n")
            == ["Shop.schema.yml:13:7: error: query 'q': SQLite rejects the statement: no such column: nme"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM itme\n")
            == ["Shop.schema.yml:12:25: error: query 'q': SQLite rejects the statement: no such table: itme"])
    }

    @Test func moreThanOneStatement() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item; DELETE FROM item\n")
            == ["Shop.schema.yml:12:31: error: query 'q': 'sql' holds more than one statement (declare one query per statement)"])
        let trailing = Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item; -- done\n")
        #expect(trailing.isEmpty, "a trailing ; and comment are not a second statement")
    }

    @Test func statementsOtherThanQueriesAndWrites() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: |\n      -- not a query\n      PRAGMA user_version\n")
            == ["Shop.schema.yml:14:7: error: query 'q': 'PRAGMA' statements cannot be typed queries (use SELECT, WITH … SELECT, INSERT, UPDATE, DELETE or REPLACE)"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: WITH x AS (SELECT 1 AS n) DELETE FROM item WHERE id IN (SELECT n FROM x)\n").isEmpty)
    }

    @Test func parametersThatAreNotNamedWithAColon() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item WHERE id = ? OR name = @n OR name = $m\n") == [
            "Shop.schema.yml:12:41: error: query 'q': '?' is not a ':name' parameter (name every parameter, for example :id)",
            "Shop.schema.yml:12:53: error: query 'q': '@n' is not a ':name' parameter (name every parameter, for example :id)",
            "Shop.schema.yml:12:66: error: query 'q': '$m' is not a ':name' parameter (name every parameter, for example :id)",
        ])
    }

    @Test func twoResultColumnsWithOneName() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id, name, name FROM item\n")
            == ["Shop.schema.yml:12:27: error: query 'q': two result columns are named 'name' (add AS to give one another name)"])
    }

    /// `self`, `init` and keywords compile as row properties (escaped; the initializer names
    /// its `self` parameter otherwise inside); `hashValue` would clash with `Hashable`'s.
    @Test func aResultColumnNamedLikeAMemberAStructCannotDeclare() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id AS self, name AS \"default\" FROM item\n").isEmpty)
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id AS hashValue, name AS \"default\" FROM item\n")
            == ["Shop.schema.yml:12:17: error: query 'q': result column 'hashValue' cannot be a row property: it would clash with Hashable's 'hashValue' in every generated struct (add AS to give it another name)"])
    }

    @Test func aParameterUsedWithTwoTypes() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item WHERE id = :x OR name = :x\n")
            == ["Shop.schema.yml:12:54: error: query 'q': parameter ':x' is used as Int and as String (use two parameters, or declare its type in 'params:')"])
    }

    @Test func paramsAndColumnsEntriesThatNameNothing() {
        #expect(Self.diagnostics("""
            queries:
              q:
                sql: SELECT id, name FROM item WHERE id = :id
                params: { idd: int }
                columns: { nam: text }
            """) == [
            "Shop.schema.yml:13:15: error: query 'q': 'params' names 'idd', which the statement does not use (did you mean 'id'?)",
            "Shop.schema.yml:14:16: error: query 'q': 'columns' names 'nam', which is not a result column (did you mean 'name'?)",
        ])
    }

    @Test func anUntypedExpression() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id, json_extract(name, '$.a') AS extra FROM item\n")
            == ["Shop.schema.yml:12:21: error: query 'q': the type of result column 'extra' cannot be inferred: json_extract(), whose result type is not known (declare it: columns: { extra: text })"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT CASE WHEN id > 1 THEN name ELSE price END AS v FROM item\n")
            == ["Shop.schema.yml:12:17: error: query 'q': the type of result column 'v' cannot be inferred: values of different types (text and double) (declare it: columns: { v: text })"])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id, json_extract(name, '$.a') AS extra FROM item\n    columns: { extra: text? }\n").isEmpty)
    }

    @Test func queryNamesThatCollideWithGeneratedNames() {
        #expect(Self.diagnostics("""
            queries:
              conn:
                sql: SELECT id FROM item
              fooBar:
                sql: SELECT id, name FROM item
              foo_bar:
                sql: SELECT id, name FROM item
              Item:
                sql: SELECT id, name FROM item
            """) == [
            "Shop.schema.yml:11:3: error: query 'conn' cannot be a method of ShopQueries: it has a member named 'conn' (rename the query)",
            "Shop.schema.yml:15:3: error: queries 'fooBar' and 'foo_bar' both generate the row type 'FooBarRow' (rename one of them)",
            "Shop.schema.yml:17:3: error: query 'Item' starts with an upper-case letter (name it in lowerCamelCase: a method named like a type would hide it inside 'ShopQueries')",
        ])
    }

    @Test func aListParameterOutsideIn() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item WHERE id IN (:ids) OR id = :ids\n    params: { ids: \"[int]\" }\n")
            == ["Shop.schema.yml:12:57: error: query 'q': list parameter ':ids' is used outside 'IN (:ids)' (a list parameter must be the only element of IN ( … ))"])
    }

    @Test func aParameterWhoseTypeCannotBeInferred() {
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item WHERE :a\n")
            == ["Shop.schema.yml:12:36: error: query 'q': the type of parameter ':a' cannot be inferred (declare it: params: { a: int })"])
    }

    @Test func loaderErrorsOfTheQueriesSection() {
        #expect(Self.diagnostics("queries:\n  q:\n    sqll: SELECT 1\n") == [
            "Shop.schema.yml:12:5: error: unknown key 'sqll' in query 'q' (did you mean 'sql'?)",
        ])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item\n    returns: few\n") == [
            "Shop.schema.yml:13:14: error: 'returns' must be one of many, one, found 'few'",
        ])
        #expect(Self.diagnostics("queries:\n  q:\n    sql: SELECT id FROM item\n    params: { x: money }\n") == [
            "Shop.schema.yml:13:18: error: unknown type 'money' (one of: int, double, bool, text, blob, date, uuid, enum, json)",
        ])
        #expect(Self.diagnostics("queries: [a]\n") == [
            "Shop.schema.yml:10:10: error: 'queries' must be a mapping of names to queries, found a list",
        ])
    }

    @Test func queriesMayComeBeforeTables() throws {
        let text = "queries:\n  q:\n    sql: SELECT id FROM item\n" + Self.tables
        let compiled = try Compiler.compile(contents: text, path: "Shop.schema.yml")
        #expect(compiled.queries.map(\.name) == ["q"])
    }

    // MARK: - Typing rules

    func column(_ sql: String, params: String = "") throws -> TypedQuery.ValueType {
        try #require(try Self.typed(sql, params: params).columns.first).valueType
    }

    @Test func outerJoinsMakeTheirOptionalSideOptional() throws {
        let left = try Self.typed("SELECT a.name AS a, b.name AS b FROM item a LEFT JOIN item b ON b.id = a.parentId")
        #expect(left.columns.map(\.valueType.isOptional) == [false, true])
        let right = try Self.typed("SELECT a.name AS a, b.name AS b FROM item a RIGHT JOIN item b ON b.id = a.parentId")
        #expect(right.columns.map(\.valueType.isOptional) == [true, false])
        let full = try Self.typed("SELECT a.name AS a, b.name AS b FROM item a FULL JOIN item b ON b.id = a.parentId")
        #expect(full.columns.map(\.valueType.isOptional) == [true, true])
        let inner = try Self.typed("SELECT a.name AS a, b.name AS b FROM item a JOIN item b ON b.id = a.parentId")
        #expect(inner.columns.map(\.valueType.isOptional) == [false, false])
    }

    @Test func aggregatesFollowGroupBy() throws {
        #expect(try column("SELECT count(*) AS n FROM item") == .init(type: .int))
        #expect(try column("SELECT total(price) AS n FROM item") == .init(type: .double))
        #expect(try column("SELECT sum(id) AS n FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT sum(id) AS n FROM item GROUP BY kind") == .init(type: .int))
        #expect(try column("SELECT sum(price) AS n FROM item GROUP BY kind") == .init(type: .double, isOptional: true))
        #expect(try column("SELECT avg(id) AS n FROM item GROUP BY kind") == .init(type: .double))
        #expect(try column("SELECT avg(id) AS n FROM item") == .init(type: .double, isOptional: true))
        #expect(try column("SELECT max(kind) AS n FROM item GROUP BY name")
            == .init(type: .enumeration(swiftType: "Kind", values: ["a", "b"]), enumOwner: "Item"))
    }

    @Test func expressions() throws {
        #expect(try column("SELECT CAST(price AS INTEGER) AS n FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT CAST(id AS TEXT) AS n FROM item") == .init(type: .text))
        #expect(try column("SELECT id + 1 AS n FROM item") == .init(type: .int))
        #expect(try column("SELECT id * 1.5 AS n FROM item") == .init(type: .double))
        #expect(try column("SELECT id / 2 AS n FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT id % 2 AS n FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT name LIKE 'a%' AS n FROM item") == .init(type: .bool))
        #expect(try column("SELECT id BETWEEN 1 AND 3 AS n FROM item") == .init(type: .bool))
        #expect(try column("SELECT price > 1 AS n FROM item") == .init(type: .bool, isOptional: true))
        #expect(try column("SELECT NOT EXISTS (SELECT 1 FROM item) AS n") == .init(type: .bool))
        #expect(try column("SELECT name || '!' AS n FROM item") == .init(type: .text))
        #expect(try column("SELECT length(name) AS n FROM item") == .init(type: .int))
        #expect(try column("SELECT strftime('%Y', 'now') AS n") == .init(type: .text, isOptional: true))
        #expect(try column("SELECT COALESCE(price, 0.0) AS n FROM item") == .init(type: .double))
        #expect(try column("SELECT IFNULL(price, NULL) AS n FROM item") == .init(type: .double, isOptional: true))
        #expect(try column("SELECT CASE WHEN id > 1 THEN 'x' END AS n FROM item") == .init(type: .text, isOptional: true))
        #expect(try column("SELECT CASE WHEN id > 1 THEN 'x' ELSE NULL END AS n FROM item") == .init(type: .text, isOptional: true))
        #expect(try column("SELECT CASE WHEN id > 1 THEN 1 ELSE 2.5 END AS n FROM item") == .init(type: .double))
        #expect(try column("SELECT (SELECT count(*) FROM item) AS n") == .init(type: .int))
        #expect(try column("SELECT (SELECT id FROM item LIMIT 1) AS n") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT lag(id) OVER (ORDER BY id) AS n FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT rank() OVER (ORDER BY id) AS n FROM item") == .init(type: .int))
        #expect(try column("SELECT cume_dist() OVER (ORDER BY id) AS n FROM item") == .init(type: .double))
        #expect(try column("SELECT id FROM item UNION SELECT parentId FROM item") == .init(type: .int, isOptional: true))
        #expect(try column("SELECT 1 AS n") == .init(type: .int))
        #expect(try column("SELECT x'00' AS n") == .init(type: .blob))
        #expect(try column("SELECT rowid AS n FROM item") == .init(type: .int))
    }

    @Test func anIntegerPrimaryKeyIsNeverNull() throws {
        // SQLite's metadata calls an INTEGER PRIMARY KEY nullable; the schema knows better.
        #expect(try column("SELECT id FROM item") == .init(type: .int))
    }

    @Test func parameterTypes() throws {
        let query = try Self.typed(
            "SELECT id FROM item WHERE kind = :kind AND price IS :price AND name LIKE :pattern AND id IN (:a, :b) LIMIT :limit OFFSET :offset")
        #expect(query.parameters.map(\.name) == ["kind", "price", "pattern", "a", "b", "limit", "offset"])
        #expect(query.parameters.map(\.valueType.type) == [
            .enumeration(swiftType: "Kind", values: ["a", "b"]), .double, .text, .int, .int, .int, .int,
        ])
        #expect(query.parameters.map(\.valueType.isOptional) == [false, true, false, false, false, false, false])
        let insert = try Self.typed("INSERT INTO item (name, price, kind) VALUES (:name, :price, :kind)")
        #expect(insert.parameters.map(\.valueType.type) == [.text, .double, .enumeration(swiftType: "Kind", values: ["a", "b"])])
        #expect(insert.parameters.map(\.valueType.isOptional) == [false, true, false])
        #expect(insert.shape == .changes)
        let update = try Self.typed("UPDATE item SET price = :price WHERE id = :id RETURNING *")
        #expect(update.parameters.map(\.valueType) == [.init(type: .double, isOptional: true), .init(type: .int)])
        #expect(update.shape == .record("Item"))
        let overridden = try Self.typed("SELECT id FROM item WHERE id IN (:ids) LIMIT :n", params: "{ ids: '[int]', n: int? }")
        #expect(overridden.parameters.map(\.isList) == [true, false])
        #expect(overridden.parameters.map(\.valueType.isOptional) == [false, true])
    }

    @Test func resultShapes() throws {
        #expect(try Self.typed("SELECT i.* FROM item i LEFT JOIN item p ON p.id = i.parentId").shape == .record("Item"))
        #expect(try Self.typed("SELECT p.* FROM item i LEFT JOIN item p ON p.id = i.parentId").shape == .rows,
                "the optional side of an outer join is not a record")
        #expect(try Self.typed("SELECT id, name, price, kind, parentId FROM item").shape == .record("Item"))
        #expect(try Self.typed("SELECT id, name FROM item").shape == .rows)
        #expect(try Self.typed("SELECT name FROM item").shape == .value)
        #expect(try Self.typed("DELETE FROM item").shape == .changes)
    }

    /// The analysis reads origins from SQLite's column metadata: this SQLite must be built with
    /// SQLITE_ENABLE_COLUMN_METADATA, and error offsets must be reported.
    @Test func sqliteReportsColumnOriginsAndErrorOffsets() throws {
        let db = try Database.inMemory()
        try db.writeWithoutTransaction { conn throws in
            try conn.execute(sql: "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT)")
            guard case .success(let prepared) = conn.prepareFirstStatementLocatingErrors(sql: "SELECT x.b AS alias, 1 FROM t x") else {
                Issue.record("the statement did not prepare")
                return
            }
            #expect(prepared.statement.columnTableName(at: 0) == "t")
            #expect(prepared.statement.columnOriginName(at: 0) == "b")
            #expect(prepared.statement.columnOriginName(at: 1) == nil)
            guard case .failure(let failure) = conn.prepareFirstStatementLocatingErrors(sql: "SELECT a, zz FROM t") else {
                Issue.record("an unknown column prepared")
                return
            }
            #expect(failure.offset == 10)
        }
    }

    // MARK: - Pinned signatures

    static let integrationDirectory = GeneratedFixtures.testsDirectory.deletingLastPathComponent()
        .appendingPathComponent("StrataIntegrationTests")

    /// The public declarations of `<Database>Queries` in the Swift generated for `schema`.
    static func signatures(of schema: String, database: String) throws -> [String] {
        let swift = try Generator.generate(schemaPath: integrationDirectory.appendingPathComponent(schema).path)
        var inQueries = false
        var lines: [String] = []
        for line in swift.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("public struct \(database)Queries") { inQueries = true }
            if inQueries, line == "}" { break }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if inQueries, trimmed.hasPrefix("public func") || trimmed.hasPrefix("public struct") || trimmed.hasPrefix("public var") {
                let unindented = line.hasPrefix("    ") ? String(line.dropFirst(4)) : String(line)
                lines.append(unindented.replacingOccurrences(of: " {", with: ""))
            }
        }
        return lines
    }

    /// Music.schema.yml (every query shape) and Cards.schema.yml (the porting test of an
    /// app's SQL), each against `Fixtures/Queries/<Database>.signatures`.
    @Test(arguments: [("Music.schema.yml", "Music", 20), ("Cards.schema.yml", "Cards", 15)])
    func signaturesMatchTheReference(_ schema: String, _ database: String, _ minimum: Int) throws {
        let lines = try Self.signatures(of: schema, database: database)
        let actual = lines.joined(separator: "\n") + "\n"
        let file = GeneratedFixtures.testsDirectory.appendingPathComponent("Fixtures/Queries/\(database).signatures")
        if ProcessInfo.processInfo.environment["STRATA_UPDATE_FIXTURES"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        if actual != expected {
            Issue.record("signatures of \(schema) differ (STRATA_UPDATE_FIXTURES=1 rewrites them):\n\(try unifiedDiff(expected, actual))")
        }
        #expect(lines.filter { $0.contains("public func") }.count >= minimum)
    }
}

/// `sql: { sqlite: …, postgres: … }`: a query's statement per dialect.
@Suite struct PerDialectSQLTests {
    static let schema = TypedQueryAnalysisTests.tables + """
        queries:
          cheapest:
            sql:
              sqlite: "SELECT name FROM item WHERE price < :limit ORDER BY price"
              postgres: "SELECT name FROM item WHERE price < :limit ORDER BY price NULLS LAST"
          shared:
            sql: "SELECT id FROM item"

        """

    @Test func eachVariantIsKeptWhereItIsWritten() throws {
        let compiled = try Compiler.compile(contents: Self.schema, path: "Shop.schema.yml")
        let queries = compiled.schema.queries
        let cheapest = try #require(queries.first { $0.name == "cheapest" })
        #expect(cheapest.sql == "SELECT name FROM item WHERE price < :limit ORDER BY price")
        #expect(cheapest.postgresText == "SELECT name FROM item WHERE price < :limit ORDER BY price NULLS LAST")
        #expect(cheapest.sqlSource.start.line == 13)
        #expect(cheapest.postgresTextSource.start.line == 14)
        let shared = try #require(queries.first { $0.name == "shared" })
        #expect(shared.postgresSQL == nil)
        #expect(shared.postgresText == "SELECT id FROM item")
        // The SQLite variant is what SQLite types.
        #expect(compiled.queries.first { $0.name == "cheapest" }?.parameters.map(\.name) == ["limit"])
    }

    @Test func aMissingSQLiteVariantOrAnUnknownDialectIsAnErrorAtItsLine() {
        let missing = TypedQueryAnalysisTests.diagnostics("""
            queries:
              q:
                sql:
                  postgres: "SELECT 1"
            """)
        #expect(missing.first?.hasPrefix("Shop.schema.yml:13:7: error: the 'sql' of query 'q' has no 'sqlite:' variant") == true)
        let unknown = TypedQueryAnalysisTests.diagnostics("""
            queries:
              q:
                sql:
                  sqlite: "SELECT 1"
                  mysql: "SELECT 1"
            """)
        #expect(unknown.contains { $0.hasPrefix("Shop.schema.yml:14:7: error:") && $0.contains("mysql") })
    }
}

/// `<Name>.prepared.json` is the same bytes wherever it is written.
@Suite struct PreparedFileTextTests {
    @Test func emptyListsAreWrittenAsTwoBracketsAndTheTextRoundTrips() throws {
        let file = PreparedQueries(migrationsFingerprint: "f", queries: [
            PreparedQuery(name: "touch", sourceFingerprint: "s", sql: "UPDATE t SET n = n + 1 WHERE tags = ARRAY[\n]::text[]", parameters: [], columns: []),
            PreparedQuery(name: "all", sourceFingerprint: "s", sql: "SELECT id FROM t", parameters: [],
                          columns: [PreparedColumn(name: "id", type: "int8", nullable: false)]),
        ])
        let text = try file.encodedText()
        #expect(text.contains("\"parameters\" : [],") || text.contains("\"parameters\" : []\n"), "\(text)")
        #expect(!text.contains("[\n\n"))
        #expect(text.hasSuffix("}\n"))
        #expect(try PreparedQueries.decode(text) == file)
        #expect(file.queries.map(\.name) == ["all", "touch"], "sorted by name")
        #expect(try PreparedQueries.decode(text).encodedText() == text)
    }
}
