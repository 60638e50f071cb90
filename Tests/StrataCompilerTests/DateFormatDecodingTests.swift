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
