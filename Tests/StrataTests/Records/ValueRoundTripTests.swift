import Foundation
import Strata
import StrataTestSupport
import Testing

/// Every value type written through the typed fast path and through arguments, read back both
/// ways, on a file database and an in-memory one.
@Suite struct ValueRoundTripTests {
    enum Backend: String, CaseIterable { case file, memory }

    func open(_ backend: Backend, in dir: TemporaryDirectory) throws -> Database {
        switch backend {
        case .file: try Database(path: dir.path("values.sqlite"))
        case .memory: try Database.inMemory()
        }
    }

    @Test(arguments: Backend.allCases)
    func integers(_ backend: Backend) throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, in: dir)
        try db.write { conn in try conn.execute(sql: "CREATE TABLE t(v INTEGER) STRICT") }
        let values = [0, 1, -1, Int.max, Int.min, Int(Int32.max) + 1, Int(Int32.min) - 1]
        try db.write { conn in
            let statement = try conn.cachedStatement(sql: "INSERT INTO t(v) VALUES (?)")
            for value in values {
                statement.reset()
                try statement.bind(value, at: 1)
                try statement.run()
            }
        }
        let fast = try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v FROM t ORDER BY rowid")
            var read: [Int] = []
            while try statement.step() { read.append(statement.int(at: 0)) }
            return read
        }
        #expect(fast == values)
        let rows = try db.read { conn in try conn.fetch(sql: "SELECT v FROM t ORDER BY rowid") }
        #expect(try rows.map { try $0.get("v", as: Int.self) } == values)
    }

    @Test(arguments: Backend.allCases)
    func stringsAnyUnicodeAndEmbeddedNUL(_ backend: Backend) throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, in: dir)
        let values = ["", "plain", "emoji 👩‍💻🇫🇷", "nul\u{0}inside", "\u{0}", "quote ' \" ; -- DROP TABLE t;", "日本語", String(repeating: "x", count: 100_000)]
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT")
            for (i, v) in values.enumerated() {
                try conn.execute(sql: "INSERT INTO t(id, v) VALUES (?, ?)", arguments: [i, v])
            }
        }
        try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v, length(CAST(v AS BLOB)) FROM t ORDER BY id")
            var i = 0
            while try statement.step() {
                #expect(statement.string(at: 0) == values[i])
                #expect(statement.int(at: 1) == values[i].utf8.count, "SQLite must see the UTF-8 byte length")
                i += 1
            }
            #expect(i == values.count)
            #expect(try conn.fetchOne(sql: "SELECT v FROM t WHERE id = 0")?.get(0, as: String?.self) == "", "empty text is not NULL")
        }
    }

    @Test(arguments: Backend.allCases)
    func doublesBoolsBlobsAndNull(_ backend: Backend) throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, in: dir)
        let megabyte = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, d REAL, b INTEGER, x BLOB, n TEXT)")
            try conn.execute(
                sql: "INSERT INTO t VALUES (1, ?, ?, ?, ?), (2, ?, ?, ?, ?)",
                arguments: [Double.pi, true, Data(), nil, -0.5e-300, false, megabyte, String?.none])
        }
        let rows = try db.read { conn in try conn.fetch(sql: "SELECT d, b, x, n, typeof(x) FROM t ORDER BY id") }
        #expect(try rows[0].get(0, as: Double.self) == Double.pi)
        #expect(try rows[0].get(1, as: Bool.self) == true)
        #expect(try rows[0].get(2, as: Data.self) == Data())
        #expect(try rows[0].get(4, as: String.self) == "blob", "an empty Data is an empty blob, not NULL")
        #expect(try rows[0].get(3, as: String?.self) == nil)
        #expect(rows[0][3] == .null)
        #expect(try rows[1].get(0, as: Double.self) == -0.5e-300)
        #expect(try rows[1].get(1, as: Bool.self) == false)
        #expect(try rows[1].get(2, as: Data.self) == megabyte)
        #expect(throws: StrataError.self) { try rows[0].get(3, as: String.self) }
    }

    @Test(arguments: Backend.allCases)
    func datesToTheMillisecondAndUUIDs(_ backend: Backend) throws {
        let dir = try TemporaryDirectory()
        let db = try open(backend, in: dir)
        let dates = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_700_000_000.123),
            Date(timeIntervalSince1970: -86_400.999), Date(timeIntervalSince1970: 951_782_400.5),  // 2000-02-29
            Date(timeIntervalSince1970: 253_402_300_799.999),  // 9999-12-31 23:59:59.999
        ]
        let uuids = [UUID(), UUID(), UUID(uuidString: "00000000-0000-0000-0000-000000000000")!]
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE d(id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT; CREATE TABLE u(id INTEGER PRIMARY KEY, v TEXT NOT NULL) STRICT")
            for (i, date) in dates.enumerated() {
                try conn.execute(sql: "INSERT INTO d VALUES (?, ?)", arguments: [i, date])
            }
            let statement = try conn.cachedStatement(sql: "INSERT INTO u VALUES (?, ?)")
            for (i, uuid) in uuids.enumerated() {
                statement.reset()
                try statement.bind(i, at: 1)
                try statement.bind(uuid, at: 2)
                try statement.run()
            }
        }
        try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v FROM d ORDER BY id")
            var read: [Date] = []
            while try statement.step() { read.append(try statement.date(at: 0)) }
            #expect(read == dates)
            let text = try conn.fetchValue(String.self, sql: "SELECT v FROM d WHERE id = 1")
            #expect(text == "2023-11-14 22:13:20.123")
            #expect(try conn.fetchValue(String.self, sql: "SELECT v FROM d WHERE id = 3") == "2000-02-29 00:00:00.500")
            #expect(try conn.fetchValue(String.self, sql: "SELECT v FROM d WHERE id = 2") == "1969-12-30 23:59:59.001")
            #expect(try conn.fetchValue(String.self, sql: "SELECT datetime(v) FROM d WHERE id = 1") == "2023-11-14 22:13:20", "SQLite understands the format")
            let uuidRows = try conn.fetch(sql: "SELECT v FROM u ORDER BY id")
            #expect(try uuidRows.map { try $0.get(0, as: UUID.self) } == uuids)
            #expect(try uuidRows[0].get(0, as: String.self) == uuids[0].uuidString, "canonical upper-case")
        }
    }

    @Test func dateFormatParsesVariantsAndRejectsGarbage() {
        #expect(DateFormat.date(from: "2024-01-02") == Date(timeIntervalSince1970: 1_704_153_600))
        #expect(DateFormat.date(from: "2024-01-02T03:04:05Z") == Date(timeIntervalSince1970: 1_704_164_645))
        #expect(DateFormat.date(from: "2024-01-02 03:04:05.5") == Date(timeIntervalSince1970: 1_704_164_645.5))
        for garbage in ["", "2024", "2024-13-01", "2024-01-02 25:00", "2024-01-02 03:04:05.", "not a date", "2024-01-02 03:04:05junk"] {
            #expect(DateFormat.date(from: garbage) == nil, "\(garbage)")
        }
    }

    @Test func badValuesThrowTypedErrors() throws {
        let db = try Database.inMemory()
        try db.write { conn in
            try conn.execute(sql: "CREATE TABLE t(v TEXT); INSERT INTO t VALUES ('not a date'), (NULL)")
        }
        try db.read { conn in
            let statement = try conn.cachedStatement(sql: "SELECT v FROM t")
            #expect(try statement.step())
            let error = #expect(throws: StrataError.self) { try statement.date(at: 0) }
            #expect(error?.kind == .decoding)
            #expect(throws: StrataError.self) { try statement.uuid(at: 0) }
            let rows = try conn.fetch(sql: "SELECT v FROM t")
            #expect(throws: StrataError.self) { try rows[0].get(0, as: Int.self) }
            #expect(throws: StrataError.self) { try rows[1].get(0, as: String.self) }
            #expect(try rows[1].get(0, as: String?.self) == nil)
            #expect(throws: StrataError.self) { try rows[0].get("missing", as: String.self) }
        }
    }
}
