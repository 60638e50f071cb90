import Foundation
import Strata
import Testing

/// What other tools leave in a database: dates in their formats, and values that type affinity
/// kept in another storage class than the column's (non-STRICT tables).
@Suite struct AdoptedValueTests {
    @Test func datesWrittenByOtherToolsParse() {
        func seconds(_ text: String) -> Double? { DateFormat.date(from: text)?.timeIntervalSince1970 }
        let noon = 1_704_196_800.0  // 2024-01-02 12:00:00 UTC
        #expect(seconds("2024-01-02") == noon - 12 * 3600)
        #expect(seconds("2024-01-02 12:00") == noon)
        #expect(seconds("2024-01-02T12:00") == noon)
        #expect(seconds("2024-01-02 12:00:00") == noon)
        #expect(seconds("2024-01-02 12:00:00.5") == noon + 0.5)
        #expect(seconds("2024-01-02T12:00:00.123456") == noon + 0.123)
        #expect(seconds("2024-01-02T12:00:00Z") == noon)
        #expect(seconds("2024-01-02T14:00:00+02:00") == noon)
        #expect(seconds("2024-01-02T07:00:00-0500") == noon)
        #expect(seconds("2024-01-02 13:00:00 +01") == noon)
        #expect(seconds("2024-01-02T12:00Z") == noon)
        for bad in ["2024-01-02 12", "2024-01-02T12:00:00+2", "2024-01-02 12:00:00+25:00", "yesterday", "2024-13-01", "2024-01-02 12:00:00 Z Z"] {
            #expect(DateFormat.date(from: bad) == nil, "\(bad)")
        }
        // Writes stay canonical.
        #expect(DateFormat.string(from: Date(timeIntervalSince1970: noon)) == "2024-01-02 12:00:00.000")
    }

    @Test func epochSecondsReadAsDates() throws {
        let db = try Database.inMemory()
        let values = try db.write { conn -> [Date] in
            try conn.execute(sql: "CREATE TABLE t(at DATETIME)")
            try conn.execute(sql: "INSERT INTO t VALUES (1709294400), (1709294400.25), ('2024-03-01 12:00:00')")
            let statement = try conn.makeStatement(sql: "SELECT at FROM t ORDER BY rowid")
            var dates: [Date] = []
            while try statement.step() { dates.append(try statement.date(at: 0)) }
            return dates
        }
        #expect(values.map(\.timeIntervalSince1970) == [1_709_294_400, 1_709_294_400.25, 1_709_294_400])
        let row = try db.read { conn in try conn.fetchOne(sql: "SELECT at FROM t LIMIT 1") }
        #expect(try row?.get(0, as: Date.self) == Date(timeIntervalSince1970: 1_709_294_400))
    }

    /// Reads every row of `SELECT v FROM t` with `read`, or the error message.
    func readAll<T>(_ sql: String, _ read: (Statement) throws -> T) throws -> [Result<T, StrataError>] {
        let db = try Database.inMemory()
        return try db.write { conn in
            try conn.execute(sql: "CREATE TABLE t(v)")
            try conn.execute(sql: "INSERT INTO t VALUES " + sql)
            let statement = try conn.makeStatement(sql: "SELECT v FROM t ORDER BY rowid")
            var results: [Result<T, StrataError>] = []
            while try statement.step() {
                do { results.append(.success(try read(statement))) } catch let error as StrataError { results.append(.failure(error)) }
            }
            return results
        }
    }

    /// `date(at:)` and `uuid(at:)` read the text without asking the type first: every storage
    /// class still reads as before, and whatever is not a date or a UUID (NULL included) throws.
    @Test func datesAndUUIDsOfEveryStorageClass() throws {
        let dates = try readAll(
            "(1709294400), (1709294400.25), ('2024-03-01 12:00:00'), (CAST('2024-03-01 12:00:00' AS BLOB)), (NULL), ('nope'), ('1709294400'), (x'00')"
        ) { try $0.date(at: 0) }
        #expect(dates.prefix(4).map { try? $0.get().timeIntervalSince1970 } == [1_709_294_400, 1_709_294_400.25, 1_709_294_400, 1_709_294_400])
        for failure in dates.dropFirst(4) {
            guard case .failure(let error) = failure else {
                Issue.record("expected an error, read \(failure)")
                continue
            }
            #expect(error.kind == .decoding)
            #expect(error.message.contains("not a date"))
        }
        let text = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let expected = UUID(uuidString: text)
        let uuids = try readAll(
            "('\(text)'), ('\(text.lowercased())'), (x'E621E1F8C36C495A93FC0C247A3E6E5F'), (CAST('\(text)' AS BLOB)), "
                + "(NULL), ('E621E1F8C36C495A'), ('E621E1F8-C36C-495A-93FC-0C247A3E6E5G'), (42), (x'E621E1F8C36C495A93FC0C247A3E6E')"
        ) { try $0.uuid(at: 0) }
        #expect(uuids.prefix(4).map { try? $0.get() } == [expected, expected, expected, expected])
        for failure in uuids.dropFirst(4) {
            guard case .failure(let error) = failure else {
                Issue.record("expected an error, read \(failure)")
                continue
            }
            #expect(error.kind == .decoding)
            #expect(error.message.contains("not a UUID"))
        }
    }

    @Test func integersConvertAsSQLiteWouldOrThrow() throws {
        let results = try readAll("(42), ('42'), (' 7 '), (3.0), ('3.0'), (3.5), ('abc'), (x'01'), ('')") {
            try $0.convertedInt(at: 0, table: "t", column: "v")
        }
        #expect(results.prefix(5).map { try? $0.get() } == [42, 42, 7, 3, 3])
        for failure in results.dropFirst(5) {
            guard case .failure(let error) = failure else {
                Issue.record("expected an error, read \(failure)")
                continue
            }
            #expect(error.kind == .decoding)
            #expect(error.message.contains("column t.v holds"))
            #expect(error.message.contains("not an integer"))
        }
    }

    @Test func doublesBoolsTextAndBlobsConvertOrThrow() throws {
        let doubles = try readAll("(1.5), (3), ('2.25'), ('x')") { try $0.convertedDouble(at: 0, table: "t", column: "v") }
        #expect(doubles.map { try? $0.get() } == [1.5, 3, 2.25, nil])
        let bools = try readAll("(0), (1), ('1'), (1.0), (2), ('yes')") { try $0.convertedBool(at: 0, table: "t", column: "v") }
        #expect(bools.map { try? $0.get() } == [false, true, true, true, nil, nil])
        let texts = try readAll("('a'), (42), (1.5), (x'00')") { try $0.convertedString(at: 0, table: "t", column: "v") }
        #expect(texts.map { try? $0.get() } == ["a", "42", "1.5", nil])
        let blobs = try readAll("(x'0102'), ('ab'), (1)") { try $0.convertedData(at: 0, table: "t", column: "v") }
        #expect(blobs.map { try? $0.get() } == [Data([1, 2]), Data("ab".utf8), nil])
    }
}
