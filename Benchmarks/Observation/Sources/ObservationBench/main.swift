// Observation benchmarks (docs/Benchmarks.md, "Observation"). One run prints a table.
//
// - latency: a commit inserts one row into `item`; the time from just before the write until
//   every observer of `SELECT count(*) FROM item` has received the new count. 1 observer and
//   100 observers; p50 and p99 over the commits. The row with 0 observers is the write alone.
// - insert cost: one transaction inserting 50,000 rows into `item` with a cached statement,
//   with no observer and with 100 observers of `other` (an unrelated table); median of runs.
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

    func wait(for observers: Int, toSee target: Int) {
        condition.lock()
        while latest.count < observers || latest.values.contains(where: { $0 < target }) {
            if !condition.wait(until: Date().addingTimeInterval(30)) { break }
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

enum Config {
    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
        CREATE TABLE other (id INTEGER PRIMARY KEY, v INTEGER NOT NULL);
        """
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("observation-bench-\(UUID().uuidString)")
    static let commits = Int(ProcessInfo.processInfo.environment["COMMITS"] ?? "") ?? 200
    static let insertRuns = Int(ProcessInfo.processInfo.environment["INSERT_RUNS"] ?? "") ?? 5
    static let rows = 50_000
}

func freshPath() -> String {
    Config.directory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
}

// MARK: - Strata

func strataLatency(observers: Int) throws -> [Double] {
    let db = try Strata.Database(path: freshPath())
    try db.write { try $0.execute(sql: Config.schema) }
    // GRDB's DatabasePool commits with synchronous = NORMAL; the same here, so that the
    // latency measured is observation's, not an fsync's.
    try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
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

func strataInsert(observers: Int) throws -> Double {
    let db = try Strata.Database(path: freshPath())
    try db.write { try $0.execute(sql: Config.schema) }
    // GRDB's DatabasePool commits with synchronous = NORMAL; the same here, so that the
    // latency measured is observation's, not an fsync's.
    try db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
    let arrivals = Arrivals()
    var tasks: [Task<Void, Error>] = []
    for index in 0..<observers {
        tasks.append(Task.detached {
            for try await count in db.observe({ try $0.fetchValue(Int.self, sql: "SELECT count(*) FROM other") ?? 0 }) {
                arrivals.report(index, count)
            }
        })
    }
    arrivals.wait(for: observers, toSee: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    try db.write { conn in
        let statement = try conn.cachedStatement(sql: "INSERT INTO item (v) VALUES (?)")
        for value in 0..<Config.rows {
            try statement.bind(value, at: 1)
            try statement.run()
            statement.reset()
        }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    for task in tasks { task.cancel() }
    return elapsed
}

// MARK: - GRDB

func grdbLatency(observers: Int) throws -> [Double] {
    let pool = try DatabasePool(path: freshPath())
    try pool.write { try $0.execute(sql: Config.schema) }
    let arrivals = Arrivals()
    var cancellables: [AnyDatabaseCancellable] = []
    let queue = DispatchQueue(label: "grdb-observers", attributes: .concurrent)
    for index in 0..<observers {
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
        cancellables.append(observation.start(in: pool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { arrivals.report(index, $0) }))
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

func grdbInsert(observers: Int) throws -> Double {
    let pool = try DatabasePool(path: freshPath())
    try pool.write { try $0.execute(sql: Config.schema) }
    let arrivals = Arrivals()
    var cancellables: [AnyDatabaseCancellable] = []
    let queue = DispatchQueue(label: "grdb-observers", attributes: .concurrent)
    for index in 0..<observers {
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM other") ?? 0 }
        cancellables.append(observation.start(in: pool, scheduling: .async(onQueue: queue), onError: { _ in }, onChange: { arrivals.report(index, $0) }))
    }
    arrivals.wait(for: observers, toSee: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    try pool.write { db in
        let statement = try db.cachedStatement(sql: "INSERT INTO item (v) VALUES (?)")
        for value in 0..<Config.rows {
            try statement.execute(arguments: [value])
        }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    cancellables.forEach { $0.cancel() }
    return elapsed
}

// MARK: - Report

func format(_ value: Double) -> String { String(format: "%.2f", value) }

try FileManager.default.createDirectory(at: Config.directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: Config.directory) }

print("commit-to-value latency, ms (\(Config.commits) commits; p50 / p99)")
print("| observers | Strata p50 | Strata p99 | GRDB p50 | GRDB p99 |")
print("| ---: | ---: | ---: | ---: | ---: |")
for observers in [0, 1, 100] {
    let strata = try strataLatency(observers: observers)
    let grdb = try grdbLatency(observers: observers)
    print("| \(observers) | \(format(percentile(strata, 0.5))) | \(format(percentile(strata, 0.99))) | \(format(percentile(grdb, 0.5))) | \(format(percentile(grdb, 0.99))) |")
}

print()
print("one transaction inserting \(Config.rows) rows, ms (median of \(Config.insertRuns) runs, runs alternate)")
var strataNone: [Double] = [], strataHundred: [Double] = [], grdbNone: [Double] = [], grdbHundred: [Double] = []
for _ in 0..<Config.insertRuns {
    strataNone.append(try strataInsert(observers: 0))
    strataHundred.append(try strataInsert(observers: 100))
    grdbNone.append(try grdbInsert(observers: 0))
    grdbHundred.append(try grdbInsert(observers: 100))
}
print("| | no observer | 100 observers of another table | cost |")
print("| --- | ---: | ---: | ---: |")
print("| Strata | \(format(median(strataNone))) | \(format(median(strataHundred))) | \(format((median(strataHundred) / median(strataNone) - 1) * 100))% |")
print("| GRDB | \(format(median(grdbNone))) | \(format(median(grdbHundred))) | \(format((median(grdbHundred) / median(grdbNone) - 1) * 100))% |")
