import BenchKit
import Benchmark
import Foundation

// Strata's generated DAOs against the raw SQLite C API and GRDB 7.10.0, on file databases in
// a temporary directory. Run with `swift package benchmark` (or ../run.sh for the tables);
// STRATA_BENCH_QUICK=1 runs tiny sizes, a few iterations each (run.sh --quick, run by CI).

nonisolated(unsafe) var fixture: Fixture?
nonisolated(unsafe) var runners: [Implementation: any Runner] = [:]

func runner(_ implementation: Implementation) throws -> any Runner {
    if let runner = runners[implementation] { return runner }
    if fixture == nil { fixture = try Fixture() }
    guard let fixture else { throw BenchError("no fixture") }
    let runner = try makeRunner(implementation, fixture: fixture)
    runners[implementation] = runner
    return runner
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 1,
        maxDuration: .seconds(Sizes.quick ? 1 : 4),
        maxIterations: Sizes.quick ? 3 : 40)

    Benchmark.teardown = {
        runners = [:]
        fixture?.remove()
        fixture = nil
    }

    for workload in Workload.allCases {
        for implementation in Implementation.allCases where implementation.implements(workload) {
            Benchmark("\(workload.rawValue) \(implementation.rawValue)") { benchmark in
                let runner = try runner(implementation)
                try runner.prepare(workload)
                benchmark.startMeasurement()
                let checksum = try runner.run(workload)
                benchmark.stopMeasurement()
                blackHole(checksum)
            }
        }
    }
}
