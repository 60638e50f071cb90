import Foundation
import Testing

@testable import Strata

/// Positional arguments of the common types (`Int`, `Int64`, `Double`, `String`) are bound by
/// reading the type in their existential container (`ArgumentLayout`), the others through
/// `DatabaseValueConvertible`: every kind, mixed, must reach SQLite as the same value and type.
@Suite struct PositionalArgumentTests {
    enum Color: String, DatabaseValueConvertible {
        case red
        func bind(to statement: Statement, at index: Int32) throws { try statement.bind("color:" + rawValue, at: index) }
        static func decode(from value: DatabaseValue) throws -> Color { .red }
    }

    @Test func everyKindOfArgumentBindsItsValueAndType() throws {
        let db = try Database.inMemory()
        let long = String(repeating: "long text, not a small string ", count: 4)
        let optionalInt: Int? = 7, noInt: Int? = nil
        let (row, types) = try db.read { conn in
            (
                try conn.fetchOne(
                    sql: "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?",
                    arguments: [
                        -42, Int64.min, 2.5, "short", long, true, nil, Data([1, 2, 3]), Color.red, optionalInt, noInt,
                        optionalInt as any DatabaseValueConvertible, Int.max,
                    ]),
                try conn.fetchOne(sql: "SELECT typeof(?), typeof(?), typeof(?), typeof(?), typeof(?)", arguments: [-42, Int64(1), 2.5, "s", nil])
            )
        }
        let values = try #require(row).values
        #expect(values == [
            .integer(-42), .integer(Int64.min), .real(2.5), .text("short"), .text(long), .integer(1), .null,
            .blob(Data([1, 2, 3])), .text("color:red"), .integer(7), .null, .integer(7), .integer(Int64(Int.max)),
        ])
        #expect(try #require(types).values == [.text("integer"), .text("integer"), .text("real"), .text("text"), .text("null")])
    }

    @Test func argumentsStillMatchTheParametersInNumber() throws {
        let db = try Database.inMemory()
        try db.read { (conn: Connection) throws -> Void in
            #expect(throws: StrataError.self) { try conn.fetchOne(sql: "SELECT ?, ?", arguments: [1]) }
            #expect(throws: StrataError.self) { try conn.fetchOne(sql: "SELECT ?", arguments: [1, "two"]) }
            #expect(try conn.fetchValue(Int.self, sql: "SELECT ? + ?", arguments: [40, 2]) == 42)
        }
    }
}
