import CSQLiteRaw
import Foundation
import GRDB
import Strata

// The typed-query benchmark of issue 11: one join + aggregate over a 200,000-row table,
// through the generated `SalesQueries.revenueByCustomer()`, a hand-written loop over the
// SQLite C API for the same SQL, and GRDB's `Row` fetch, in one run.
//
//   TypedQueryBench [runs] [database-path] [only: strata|raw|grdb]
//
// Prints the median wall time of each; with `only`, runs just that implementation (for
// `valgrind --tool=callgrind`, see Scripts/typed_query.sh).

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
let path = arguments.count > 2 ? arguments[2] : FileManager.default.temporaryDirectory.appendingPathComponent("strata-typed-query.sqlite").path
let only = arguments.count > 3 ? arguments[3] : nil
let saleCount = 200_000
let customerCount = 1_000

/// One result row, for the raw and GRDB implementations.
struct Revenue: Hashable {
    var customer: String
    var region: String
    var sales: Int
    var revenue: Double
}

let sql = SalesQueriesSQLText.revenueByCustomer

// The data, made once per database file.
if !FileManager.default.fileExists(atPath: path) {
    let db = try Strata.Database(path: path)
    try Sales.migrate(db)
    try db.write { conn in
        let regions: [Customer.Region] = [.north, .south, .east, .west]
        for id in 1...customerCount {
            try CustomerDAO(conn).insert(Customer(id: id, name: "customer \(id)", region: regions[id % 4]))
        }
        for id in 1...saleCount {
            try SaleDAO(conn).insert(Sale(id: id, customerId: 1 + (id * 7919) % customerCount, amount: Double(id % 100) / 4, quantity: 1 + id % 5))
        }
    }
}

func strataRun(_ db: Strata.Database) throws -> Int {
    let rows = try db.read { conn in try SalesQueries(conn).revenueByCustomer() }
    return rows.count + rows.reduce(0) { $0 + $1.sales }
}

func rawRun(_ handle: OpaquePointer) -> Int {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return -1 }
    defer { sqlite3_finalize(statement) }
    var rows: [Revenue] = []
    while sqlite3_step(statement) == SQLITE_ROW {
        rows.append(Revenue(
            customer: String(cString: sqlite3_column_text(statement, 0)),
            region: String(cString: sqlite3_column_text(statement, 1)),
            sales: Int(sqlite3_column_int64(statement, 2)),
            revenue: sqlite3_column_double(statement, 3)))
    }
    return rows.count + rows.reduce(0) { $0 + $1.sales }
}

func grdbRun(_ queue: DatabaseQueue) throws -> Int {
    let rows = try queue.read { db in
        try Row.fetchAll(db, sql: sql).map { row in
            Revenue(customer: row["customer"], region: row["region"], sales: row["sales"], revenue: row["revenue"])
        }
    }
    return rows.count + rows.reduce(0) { $0 + $1.sales }
}

func median(_ body: () throws -> Int) rethrows -> (ms: Double, checksum: Int) {
    var times: [Double] = []
    var checksum = runs > 1 ? try body() : 0  // one untimed call warms the page cache and the statement caches
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        checksum = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    return (times.isEmpty ? 0 : times[times.count / 2], checksum)
}

var handle: OpaquePointer?
guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
    print("cannot open \(path)")
    exit(1)
}
let strataDB = try Strata.Database(path: path)
let queue = try DatabaseQueue(path: path)

var results: [(String, Double, Int)] = []
if only == nil || only == "raw" { let r = median { rawRun(handle) }; results.append(("raw C", r.ms, r.checksum)) }
if only == nil || only == "strata" { let r = try median { try strataRun(strataDB) }; results.append(("Strata typed query", r.ms, r.checksum)) }
if only == nil || only == "grdb" { let r = try median { try grdbRun(queue) }; results.append(("GRDB Row fetch", r.ms, r.checksum)) }
let raw = results.first { $0.0 == "raw C" }?.1
for (name, ms, checksum) in results {
    let ratio = raw.map { String(format: " (%.3f× raw C)", ms / $0) } ?? ""
    print("\(name): median \(String(format: "%.2f", ms)) ms over \(runs) runs\(ratio), checksum \(checksum)")
}
sqlite3_close_v2(handle)
