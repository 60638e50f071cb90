import CSQLiteRaw
import Foundation
import GRDB
import Strata

// The typed-query benchmark of issue 11, two workloads, each through the generated
// `SalesQueries` method, a hand-written loop over the SQLite C API for the same SQL, and GRDB's
// `Row` fetch, each in one read transaction:
// - `join`: one join + aggregate over a 200,000-row table (`revenueByCustomer()`): SQLite's
//   own work is nearly all of it;
// - `lookups`: 100,000 calls of a small query by key (`saleById(id:)`): the cost of each
//   library's layer per call matters.
//
//   TypedQueryBench [runs] [database-path] [only: strata|raw|grdb|all] [workload: join|lookups|all]
//
// Prints the median wall time of each; with `only`, runs just that implementation (for
// `valgrind --tool=callgrind`, see Scripts/typed_query.sh, which counts the inclusive
// instructions of the functions below: rawJoin, strataJoin, grdbJoin, rawLookups …).

let arguments = CommandLine.arguments
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 10 : 10
let path = arguments.count > 2 ? arguments[2] : FileManager.default.temporaryDirectory.appendingPathComponent("strata-typed-query.sqlite").path
let only = arguments.count > 3 && arguments[3] != "all" ? arguments[3] : nil
let workload = arguments.count > 4 && arguments[4] != "all" ? arguments[4] : nil
let lookupCount = quick ? 1_000 : 100_000
/// Tiny sizes when `STRATA_BENCH_QUICK` is set (`run.sh --quick`, which CI runs).
let quick = ProcessInfo.processInfo.environment["STRATA_BENCH_QUICK"].map { !$0.isEmpty && $0 != "0" } ?? false
let saleCount = quick ? 2_000 : 200_000
let customerCount = quick ? 100 : 1_000

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

/// The keys the `lookups` workload reads: spread over the table, every one present.
let lookupKeys: [Int] = (0..<lookupCount).map { ($0 &* 7919) % saleCount + 1 }

/// One row of `saleById`, for the raw and GRDB implementations.
struct SaleSummary: Hashable {
    var id: Int
    var amount: Double
    var quantity: Int
}

// Each function below is one whole measured call, its read transaction included: the
// instruction counts of Scripts/typed_query.sh are their inclusive costs.

@inline(never)
func strataJoin(_ db: Strata.Database) throws -> Int {
    let rows = try db.read { conn in try SalesQueries(conn).revenueByCustomer() }
    return rows.count + rows.reduce(0) { $0 + $1.sales }
}

@inline(never)
func rawJoin(_ handle: OpaquePointer) -> Int {
    guard sqlite3_exec(handle, "BEGIN", nil, nil, nil) == SQLITE_OK else { return -1 }
    defer { sqlite3_exec(handle, "COMMIT", nil, nil, nil) }
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

@inline(never)
func grdbJoin(_ queue: DatabaseQueue) throws -> Int {
    let rows = try queue.read { db in
        try Row.fetchAll(db, sql: sql).map { row in
            Revenue(customer: row["customer"], region: row["region"], sales: row["sales"], revenue: row["revenue"])
        }
    }
    return rows.count + rows.reduce(0) { $0 + $1.sales }
}

@inline(never)
func strataLookups(_ db: Strata.Database) throws -> Int {
    try db.read { conn in
        let queries = SalesQueries(conn)
        var sum = 0
        for key in lookupKeys { sum &+= try queries.saleById(id: key)?.quantity ?? 0 }
        return sum
    }
}

/// The statement of `rawLookups`, prepared once (as an app keeps it) outside the measurement.
nonisolated(unsafe) var rawLookupStatement: OpaquePointer?

@inline(never)
func rawLookups(_ handle: OpaquePointer) -> Int {
    guard let statement = rawLookupStatement, sqlite3_exec(handle, "BEGIN", nil, nil, nil) == SQLITE_OK else { return -1 }
    defer { sqlite3_exec(handle, "COMMIT", nil, nil, nil) }
    var sum = 0
    for key in lookupKeys {
        sqlite3_bind_int64(statement, 1, Int64(key))
        if sqlite3_step(statement) == SQLITE_ROW {
            let row = SaleSummary(
                id: Int(sqlite3_column_int64(statement, 0)), amount: sqlite3_column_double(statement, 1),
                quantity: Int(sqlite3_column_int64(statement, 2)))
            sum &+= row.quantity
        }
        sqlite3_reset(statement)
    }
    return sum
}

@inline(never)
func grdbLookups(_ queue: DatabaseQueue) throws -> Int {
    try queue.read { db in
        let statement = try db.cachedStatement(sql: SalesQueriesSQLText.saleById)
        var sum = 0
        for key in lookupKeys {
            statement.setUncheckedArguments([key])
            if let row = try Row.fetchOne(statement) {
                sum &+= SaleSummary(id: row[0], amount: row[1], quantity: row[2]).quantity
            }
        }
        return sum
    }
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

guard sqlite3_prepare_v3(handle, SalesQueriesSQLText.saleById, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &rawLookupStatement, nil) == SQLITE_OK else {
    print("cannot prepare \(SalesQueriesSQLText.saleById)")
    exit(1)
}

for name in ["join", "lookups"] where workload == nil || workload == name {
    let isJoin = name == "join"
    var results: [(String, Double, Int)] = []
    if only == nil || only == "raw" {
        let r = median { isJoin ? rawJoin(handle) : rawLookups(handle) }
        results.append(("raw C", r.ms, r.checksum))
    }
    if only == nil || only == "strata" {
        let r = try median { try isJoin ? strataJoin(strataDB) : strataLookups(strataDB) }
        results.append(("Strata typed query", r.ms, r.checksum))
    }
    if only == nil || only == "grdb" {
        let r = try median { try isJoin ? grdbJoin(queue) : grdbLookups(queue) }
        results.append(("GRDB Row fetch", r.ms, r.checksum))
    }
    let raw = results.first { $0.0 == "raw C" }?.1
    for (impl, ms, checksum) in results {
        let ratio = raw.map { String(format: " (%.3f× raw C)", ms / $0) } ?? ""
        print("\(name), \(impl): median \(String(format: "%.2f", ms)) ms over \(runs) runs\(ratio), checksum \(checksum)")
    }
}
sqlite3_finalize(rawLookupStatement)
sqlite3_close_v2(handle)
