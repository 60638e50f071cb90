import BenchKit
import Foundation

// Runs one workload of one implementation in a loop, for callgrind and quick timing:
//   bench-one <workload> <implementation> [runs]
// Prints the median time of the runs and the checksum.
let arguments = CommandLine.arguments
guard arguments.count >= 3, let workload = Workload(rawValue: arguments[1]),
    let implementation = Implementation(rawValue: arguments[2])
else {
    print("usage: BenchOne <\(Workload.allCases.map(\.rawValue).joined(separator: "|"))> <\(Implementation.allCases.map(\.rawValue).joined(separator: "|"))> [runs]")
    exit(2)
}
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let fixture = try Fixture(for: [workload])
defer { fixture.remove() }
let runner = try makeRunner(implementation, fixture: fixture)
var times: [Double] = []
var checksum = 0
for _ in 0..<runs {
    try runner.prepare(workload)
    let start = DispatchTime.now().uptimeNanoseconds
    checksum = try runner.run(workload)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
times.sort()
print("\(workload.rawValue) \(implementation.rawValue): median \(String(format: "%.2f", times[times.count / 2])) ms over \(runs) runs, checksum \(checksum)")
