// Observation benchmarks (docs/Benchmarks.md, "Observation"; docs/Observation.md, "What it costs").
//
// `ObservationBench` (no argument) prints two tables:
//
// - latency: a commit inserts one row into `item`; the time from just before the write until
//   every observer of `SELECT count(*) FROM item` has received the new count. 0, 1 and 100
//   observers (all 100 run the same query, so GRDB's `.shared(in:)`, one database observation
//   for every subscriber, applies; GRDB is measured with it and with its default, one
//   observation per subscriber); p50 and p99 over the commits.
// - insert cost: one transaction inserting 50,000 rows into `item` with a cached statement, with
//   no observer, with 1 and with 100 observers; the observers either read 100 distinct tables the
//   insert does not touch (`other0` … `other99`, observer i runs `SELECT count(*) FROM other<i>`)
//   or read the written table with 100 distinct queries (`SELECT count(*) FROM item WHERE id > i`);
//   median wall clock of runs.
//
// `ObservationBench latency` and `ObservationBench inserts` print one table each.
// `ObservationBench insert <unrelated|written> <observers> <strata|grdb>` runs one such insert
// after the observers have their first value, inside `measuredStrataInsert`/`measuredGRDBInsert`,
// for callgrind (Benchmarks/Observation/callgrind.sh counts the instructions of that call: the
// writer's work, commit and notification included; the observers' refetches run on other threads).
// `ObservationBench commits <observers> <cached>` makes the writer prepare <cached> statements
// of its own (`cachedStatement(sql:)`, kept for the connection's life), then runs
// `measuredStrataCommits`: 1,000 one-row `write`s, with <observers> observers of another table;
// what observation costs a commit when the writer holds many prepared statements
// (Benchmarks/Observation/callgrind.sh --commits).
import Foundation
import GRDB
import Strata

/// Waits until `expected` observers have reported `target`.
final class Arrivals: @unchecked Sendable {
    private let condition = NSCondition()
    private var latest: [Int: Int] = [:]

    func report(_ observer: Int, _ value: Int) {
        condition.lock()
        latest[observer] = value
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `observers` observers reported a value ≥ `target` (each observer's own
    /// target when `targets` is given).
    func wait(for observers: Int, toSee target: Int, targets: [Int]? = nil) {
        condition.lock()
        while latest.count < observers
            || latest.contains(where: { index, value in value < (targets?[index] ?? target) })
        {
            if !condition.wait(until: Date().addingTimeInterval(60)) { break }
        }
        condition.unlock()
    }
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

/// Where the observers of the insert workload look.
enum Target: String, CaseIterable {
    /// 100 distinct tables the insert does not touch, one distinct query each.
    case unrelated
    /// The written table `item`, 100 distinct queries.
    case written

    /// Observer `index`'s query.
    func query(_ index: Int) -> String {
        switch self {
        case .unrelated: return "SELECT count(*) FROM other\(index)"
        case .written: return "SELECT count(*) FROM item WHERE id > \(index)"
        }
    }

    /// What observer `index` reads once the insert of `rows` rows has committed.
    func finalValue(_ index: Int, rows: Int) -> Int {
        switch self {
        case .unrelated: return 0
        case .written: return max(0, rows - index)
        }
    }
}

enum Config {
    static let tables = 100
    static var schema: String {
        "CREATE TABLE item (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);\n"
            + (0..<tables).map { "CREATE TABLE other\($0) (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);" }.joined(separator: "\n")
    }
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("observation-bench-\(UUID().uuidString)")
    static let commits = Int(ProcessInfo.processInfo.environment["COMMITS"] ?? "") ?? 200
    static let insertRuns = Int(ProcessInfo.processInfo.environment["INSERT_RUNS"] ?? "") ?? 5
    static let rows = Int(ProcessInfo.processInfo.environment["ROWS"] ?? "") ?? 50_000
    static let smallCommits = 1_000
}

func freshPath() -> String {
    Config.directory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
}

// MARK: - Strata

func strataDatabase() throws -> Strata.Database {
    let db = try Strata.Database(path: freshPath())
    try db.write { try $0.execute(sql: Config.schema) }
    // GRDB's DatabasePool commits with synchronous = NORMAL; the same here, so that the
    // latency measured is observation's, not an fsync's.
    try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
    return db
}

func strataLatency(observers: Int) throws -> [Double] {
    let db = try strataDatabase()
    let arrivals = Arrivals()
    var tasks: [Task<Void, Error>] = []
    for index in 0..<observers {
        tasks.append(Task.detached {
            for try await count in db.observe({ try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM item") ?? 0 }) {
                arrivals.report(index, count)
            }
        })
    }
    arrivals.wait(for: observers, toSee: 0)
    var samples: [Double] = []
    for commit in 1...Config.commits {
        let start = DispatchTime.now().uptimeNanoseconds
        try db.write { try $0.execute(sql: "INSERT INTO item (v) VALUES (?)", arguments: [commit]) }
        arrivals.wait(for: observers, toSee: commit)
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    for task in tasks { task.cancel() }
    return samples
}

/// The measured call of the insert workload: one transaction of `Config.rows` inserts.
@inline(never)
func measuredStrataInsert(_ db: Strata.Database) throws {
    try db.write { conn in
        let statement = try conn.cachedStatement(sql: "INSERT INTO item (v) VALUES (?)")
        for value in 0..<Config.rows {
            try statement.bind(value, at: 1)
            try statement.run()
            statement.reset()
        }
    }
}

/// One insert transaction with `observers` observers of `target`, in ms.
func strataInsert(observers: Int, target: Target) throws -> Double {
    let db = try strataDatabase()
    let arrivals = Arrivals()
    var tasks: [Task<Void, Error>] = []
    for index in 0..<observers {
        let sql = target.query(index)
        tasks.append(Task.detached {
            for try await count in db.observe({ try $0.fetchValue(Int.self, sql: sql) ?? 0 }) {
                arrivals.report(index, count)
            }
        })
    }
    arrivals.wait(for: observers, toSee: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    try measuredStrataInsert(db)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    // Every observer has seen the commit before the next run starts.
    arrivals.wait(for: observers, toSee: 0, targets: (0..<observers).map { target.finalValue($0, rows: Config.rows) })
    for task in tasks { task.cancel() }
    return elapsed
}

/// The measured call of the commit workload: `Config.smallCommits` writes of one row each.
@inline(never)
func measuredStrataCommits(_ db: Strata.Database) throws {
    for value in 0..<Config.smallCommits {
        try db.write { conn in
            let statement = try conn.cachedStatement(sql: "INSERT INTO item (v) VALUES (?)")
            try statement.bind(value, at: 1)
            try statement.run()
        }
    }
}

/// One-row commits on a writer holding `cached` prepared statements, with `observers`
/// observers of other tables; in ms.
func strataCommits(observers: Int, cached: Int) throws -> Double {
    let db = try strataDatabase()
    try db.write { conn in
        for index in 0..<cached { _ = try conn.cachedStatement(sql: "SELECT v FROM other\(index % Config.tables) WHERE id = \(index)") }
    }
    let arrivals = Arrivals()
    var tasks: [Task<Void, Error>] = []
    for index in 0..<observers {
        let sql = Target.unrelated.query(index)
        tasks.append(Task.detached {
            for try await count in db.observe({ try $0.fetchValue(Int.self, sql: sql) ?? 0 }) {
                arrivals.report(index, count)
            }
        })
    }
    arrivals.wait(for: observers, toSee: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    try measuredStrataCommits(db)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    for task in tasks { task.cancel() }
    return elapsed
}

// MARK: - GRDB

func grdbPool() throws -> DatabasePool {
    let pool = try DatabasePool(path: freshPath())
    try pool.write { try $0.execute(sql: Config.schema) }
    return pool
}

/// `shared`: one `.shared(in:)` observation that every observer subscribes to (GRDB's best when
/// the observers run the same query); otherwise one observation per observer (its default).
func grdbLatency(observers: Int, shared: Bool) throws -> [Double] {
    let pool = try grdbPool()
    let arrivals = Arrivals()
    var cancellables: [AnyDatabaseCancellable] = []
    let queue = DispatchQueue(label: "grdb-observers", attributes: .concurrent)
    let count = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
    let sharedCount = count.shared(in: pool, scheduling: .async(onQueue: queue))
    for index in 0..<observers {
        if shared {
            cancellables.append(sharedCount.start(onError: { _ in }, onChange: { arrivals.report(index, $0) }))
        } else {
            cancellables.append(count.start(in: pool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { arrivals.report(index, $0) }))
        }
    }
    arrivals.wait(for: observers, toSee: 0)
    var samples: [Double] = []
    for commit in 1...Config.commits {
        let start = DispatchTime.now().uptimeNanoseconds
        try pool.write { try $0.execute(sql: "INSERT INTO item (v) VALUES (?)", arguments: [commit]) }
        arrivals.wait(for: observers, toSee: commit)
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    cancellables.forEach { $0.cancel() }
    return samples
}

/// The measured call of GRDB's insert workload.
@inline(never)
func measuredGRDBInsert(_ pool: DatabasePool) throws {
    try pool.write { db in
        let statement = try db.cachedStatement(sql: "INSERT INTO item (v) VALUES (?)")
        for value in 0..<Config.rows {
            try statement.execute(arguments: [value])
        }
    }
}

func grdbInsert(observers: Int, target: Target) throws -> Double {
    let pool = try grdbPool()
    let arrivals = Arrivals()
    var cancellables: [AnyDatabaseCancellable] = []
    let queue = DispatchQueue(label: "grdb-observers", attributes: .concurrent)
    for index in 0..<observers {
        let sql = target.query(index)
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: sql) ?? 0 }
        cancellables.append(observation.start(in: pool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { arrivals.report(index, $0) }))
    }
    arrivals.wait(for: observers, toSee: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    try measuredGRDBInsert(pool)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    arrivals.wait(for: observers, toSee: 0, targets: (0..<observers).map { target.finalValue($0, rows: Config.rows) })
    cancellables.forEach { $0.cancel() }
    return elapsed
}

// MARK: - Report

func format(_ value: Double) -> String { String(format: "%.2f", value) }

try FileManager.default.createDirectory(at: Config.directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: Config.directory) }

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "insert" {
    // One insert for callgrind: ObservationBench insert <unrelated|written> <observers> <strata|grdb>
    guard arguments.count == 4, let target = Target(rawValue: arguments[1]), let observers = Int(arguments[2]),
          ["strata", "grdb"].contains(arguments[3])
    else {
        FileHandle.standardError.write(Data("usage: ObservationBench insert <unrelated|written> <observers> <strata|grdb>\n".utf8))
        exit(2)
    }
    let elapsed = arguments[3] == "strata"
        ? try strataInsert(observers: observers, target: target) : try grdbInsert(observers: observers, target: target)
    print("\(arguments[3]) \(target.rawValue) \(observers) observers: \(format(elapsed)) ms")
    exit(0)
}

if arguments.first == "commits" {
    // ObservationBench commits <observers> <cached>
    guard arguments.count == 3, let observers = Int(arguments[1]), let cached = Int(arguments[2]), (0...500).contains(cached) else {
        FileHandle.standardError.write(Data("usage: ObservationBench commits <observers> <cached statements, at most 500>\n".utf8))
        exit(2)
    }
    let elapsed = try strataCommits(observers: observers, cached: cached)
    print("strata \(Config.smallCommits) one-row commits, \(cached) cached statements, \(observers) observers: \(format(elapsed)) ms")
    exit(0)
}

// `ObservationBench latency` or `ObservationBench inserts`: only that table.
let only = arguments.first
if only != nil && only != "latency" && only != "inserts" {
    FileHandle.standardError.write(Data("usage: ObservationBench [latency | inserts | insert <unrelated|written> <observers> <strata|grdb> | commits <observers> <cached>]\n".utf8))
    exit(2)
}

func latencyTable() throws {
    print("commit-to-value latency, ms (\(Config.commits) commits; p50 / p99); all observers run SELECT count(*) FROM item")
    print("| observers | Strata p50 | Strata p99 | GRDB p50 | GRDB p99 | GRDB .shared p50 | GRDB .shared p99 |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for observers in [0, 1, 100] {
        let strata = try strataLatency(observers: observers)
        let grdb = try grdbLatency(observers: observers, shared: false)
        let shared = try grdbLatency(observers: observers, shared: true)
        print("| \(observers) | \(format(percentile(strata, 0.5))) | \(format(percentile(strata, 0.99))) | \(format(percentile(grdb, 0.5))) | \(format(percentile(grdb, 0.99))) | \(format(percentile(shared, 0.5))) | \(format(percentile(shared, 0.99))) |")
    }
}

func insertTable() throws {
    print("one transaction inserting \(Config.rows) rows, ms (median of \(Config.insertRuns) runs, runs alternate)")
    print("| observers | Strata | Strata cost | GRDB | GRDB cost |")
    print("| --- | ---: | ---: | ---: | ---: |")
    var strataTimes: [String: [Double]] = [:], grdbTimes: [String: [Double]] = [:]
    let cases: [(label: String, observers: Int, target: Target)] = [
        ("none", 0, .unrelated),
        ("1 of another table", 1, .unrelated), ("100 of 100 other tables", 100, .unrelated),
        ("1 of the written table", 1, .written), ("100 of the written table", 100, .written),
    ]
    for _ in 0..<Config.insertRuns {
        for item in cases {
            strataTimes[item.label, default: []].append(try strataInsert(observers: item.observers, target: item.target))
            grdbTimes[item.label, default: []].append(try grdbInsert(observers: item.observers, target: item.target))
        }
    }
    let strataBase = median(strataTimes["none"] ?? []), grdbBase = median(grdbTimes["none"] ?? [])
    for item in cases {
        let strata = median(strataTimes[item.label] ?? []), grdb = median(grdbTimes[item.label] ?? [])
        let strataCost = item.observers == 0 ? "" : String(format: "%+.1f%%", (strata / strataBase - 1) * 100)
        let grdbCost = item.observers == 0 ? "" : String(format: "%+.1f%%", (grdb / grdbBase - 1) * 100)
        print("| \(item.label) | \(format(strata)) | \(strataCost) | \(format(grdb)) | \(grdbCost) |")
    }
}

if only != "inserts" { try latencyTable() }
if only == nil { print() }
if only != "latency" { try insertTable() }
