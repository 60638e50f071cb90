import Foundation
import Testing

@testable import Strata

/// The readers generated typed queries use for non-optional `Int`, `Double` and `String`
/// result columns read the value first and ask its type only when it reads as NULL does: a
/// real 0, 0.0 or empty string must still read as itself, and only NULL throw.
@Suite struct NonOptionalColumnReadTests {
    @Test func zeroEmptyAndNullAreToldApart() throws {
        let db = try Database.inMemory()
        try db.read { (conn: Connection) throws -> Void in
            let statement = try conn.makeStatement(sql: "SELECT 0, 0.0, '', NULL, 42, -1.5, 'text', -0.0")
            #expect(try statement.step())
            #expect(try statement.int(at: 0, query: "q", column: "a") == 0)
            #expect(try statement.double(at: 1, query: "q", column: "b") == 0)
            #expect(try statement.string(at: 2, query: "q", column: "c") == "")
            #expect(try statement.int(at: 4, query: "q", column: "e") == 42)
            #expect(try statement.double(at: 5, query: "q", column: "f") == -1.5)
            #expect(try statement.string(at: 6, query: "q", column: "g") == "text")
            #expect(try statement.double(at: 7, query: "q", column: "h") == 0)
            for read in [
                { _ = try statement.int(at: 3, query: "q", column: "d") },
                { _ = try statement.double(at: 3, query: "q", column: "d") },
                { _ = try statement.string(at: 3, query: "q", column: "d") },
            ] as [() throws -> Void] {
                let error = #expect(throws: StrataError.self) { try read() }
                #expect(error?.message.contains("query q: result column d is NULL") == true)
            }
            statement.reset()
        }
    }
}
