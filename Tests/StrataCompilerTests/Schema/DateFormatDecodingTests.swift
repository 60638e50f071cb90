import Foundation
import Strata
import Testing
@testable import StrataCompiler

/// `dateFormat:` on `date` columns: what the decoder accepts and refuses (at the line), the
/// column type and `default:` it renders, and the Swift it generates for reads and writes.
@Suite struct DateFormatDecodingTests {
    static func diagnostics(_ yaml: String) -> [String] {
        SchemaLoader.check(bytes: Array(yaml.utf8), path: "D.schema.yml").diagnostics.map(\.description)
    }

    @Test func eachFormatImpliesItsColumnTypeAndNowDefault() throws {
        let schema = try SchemaLoader.load(contents: """
            tables:
              Event:
                columns:
                  id: { type: int, primaryKey: autoincrement }
                  a: { type: date, dateFormat: iso8601, default: now }
                  b: { type: date, dateFormat: unixSeconds, default: now }
                  c: { type: date, dateFormat: unixMilliseconds, default: "2024-01-02 03:04:05.678" }
                  d: { type: date?, dateFormat: julianDay, default: now }
                  e: { type: date, dateFormat: referenceDate, default: "2001-01-01 00:01:00" }
            """, path: "D.schema.yml")
        let event = try #require(schema.table(named: "Event"))
        #expect(event.column(named: "a")?.dateFormat == nil, "iso8601 is the default")
        #expect(event.column(named: "b")?.dateFormat == .unixSeconds)
        #expect(event.column(named: "d")?.dateFormat == .julianDay)
        let ddl = SQLRenderer.createTableSQL(event, in: schema)
        #expect(ddl.contains(#""a" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))"#))
        #expect(ddl.contains(#""b" INTEGER NOT NULL DEFAULT (unixepoch())"#))
        #expect(ddl.contains(#""c" INTEGER NOT NULL DEFAULT 1704164645678"#))
        #expect(ddl.contains(#""d" REAL DEFAULT (julianday())"#))
        #expect(ddl.contains(#""e" REAL NOT NULL DEFAULT 60.0"#))
    }

    @Test func badValueAndNonDateColumnAreErrorsAtTheirLine() {
        #expect(Self.diagnostics("""
            tables:
              Event:
                columns:
                  id: { type: int, primaryKey: true }
                  at: { type: date, dateFormat: unixSecond }
            """).first?.hasPrefix("D.schema.yml:5:37: error: 'dateFormat' must be one of iso8601, unixSeconds, unixMilliseconds, julianDay, referenceDate") == true)
        let onInt = Self.diagnostics("""
            tables:
              Event:
                columns:
                  id: { type: int, primaryKey: true }
                  count: { type: int, dateFormat: unixSeconds }
            """)
        #expect(onInt.first?.hasPrefix("D.schema.yml:5:39: error: 'dateFormat' applies only to date columns, column 'Event.count' is int") == true, "\(onInt)")
    }

    @Test func parameterComparedWithTwoFormatsIsAnError() {
        let found = Self.diagnostics("""
            tables:
              Event:
                columns:
                  id: { type: int, primaryKey: true }
                  a: { type: date, dateFormat: unixSeconds }
                  b: { type: date }
                queries:
                  both: { where: "a > :at AND b > :at" }
            """)
        #expect(found.contains { $0.contains("parameter ':at' is compared with date columns of different date formats (unixSeconds and iso8601)") }, "\(found)")
    }

    /// A typed query's date result keeps its column's format through min/max, COALESCE, CASE,
    /// a subquery and UNION; where two formats meet there is no right reading: an error at the
    /// result column, never a Date read in the wrong format.
    @Test func queryResultsOfDatesKeepTheFormatOrAreRefused() throws {
        let yaml = """
            tables:
              Card:
                columns:
                  id:   { type: int, primaryKey: true }
                  due:  { type: date, dateFormat: unixSeconds }
                  seen: { type: date?, dateFormat: referenceDate }
                  made: date
            queries:
              latest:
                sql: SELECT max(due) AS latest, min(seen) AS firstSeen, max(made) AS lastMade FROM Card
              derived:
                sql: SELECT coalesce(seen, seen) AS a, CASE WHEN id > 0 THEN seen END AS b, (SELECT max(seen) FROM Card) AS c, lag(seen) OVER (ORDER BY id) AS d FROM Card
              unioned:
                sql: SELECT seen AS s FROM Card UNION SELECT max(seen) FROM Card
            """
        let compiled = try Compiler.compile(contents: yaml, path: "D.schema.yml")
        let swift = Generator.render(compiled, migrations: [], schemaPath: "D.schema.yml")
        #expect(swift.contains(#"statement.date(at: 0, storage: .unixSeconds, table: "", column: "latest")"#), "max() of a unixSeconds date")
        #expect(swift.contains(#"statement.date(at: 1, storage: .referenceDate, table: "", column: "firstSeen")"#))
        #expect(swift.contains(#"statement.date(at: 2, table: "", column: "lastMade")"#))
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            #expect(swift.contains(#"statement.date(at: \#(index), storage: .referenceDate, table: "", column: "\#(name)")"#), "\(name)")
        }
        #expect(swift.contains(#"statement.date(at: 0, storage: .referenceDate, table: "", column: "s")"#))

        let mixed = Self.diagnostics("""
            tables:
              Card:
                columns:
                  id:   { type: int, primaryKey: true }
                  due:  { type: date, dateFormat: unixSeconds }
                  seen: { type: date?, dateFormat: referenceDate }
                  made: date
            queries:
              both:
                sql: SELECT max(due, seen) AS m FROM Card
              either:
                sql: SELECT coalesce(seen, made) AS e FROM Card
              unioned:
                sql: SELECT due AS u FROM Card UNION SELECT seen FROM Card
            """)
        #expect(mixed.count == 3, "\(mixed)")
        #expect(mixed.contains { $0.hasPrefix("D.schema.yml:10:") && $0.contains("result column 'm'") && $0.contains("dates stored in two formats (dateFormat unixSeconds and referenceDate)") }, "\(mixed)")
        #expect(mixed.contains { $0.hasPrefix("D.schema.yml:12:") && $0.contains("result column 'e'") && $0.contains("(dateFormat referenceDate and iso8601)") }, "\(mixed)")
        #expect(mixed.contains { $0.hasPrefix("D.schema.yml:14:") && $0.contains("result column 'u'") }, "\(mixed)")
    }

    @Test func generatedCodeReadsAndWritesInTheFormat() throws {
        let compiled = try Compiler.compile(contents: """
            tables:
              Event:
                columns:
                  id: { type: int, primaryKey: autoincrement }
                  at: { type: date, dateFormat: referenceDate }
                  text: date
                queries:
                  after: { where: "at > :after" }
            """, path: "D.schema.yml")
        let swift = Generator.render(compiled, migrations: [], schemaPath: "D.schema.yml")
        #expect(swift.contains("try statement.date(at: 1, storage: .referenceDate, table: \"Event\", column: \"at\")"))
        #expect(swift.contains("try statement.date(at: 2, table: \"Event\", column: \"text\")"))
        #expect(swift.contains("try statement.bind(record.at, storage: .referenceDate, at: 1)"))
        #expect(swift.contains("try statement.bind(record.text, at: 2)"))
        #expect(swift.contains("try statement.bind(after, storage: .referenceDate, at: 1)"))
        #expect(swift.contains("stored.at = DateStorage.referenceDate.rounded(stored.at)"))
    }
}
