import BenchKit
import Foundation

// Runs one workload of one implementation in a loop, for callgrind, quick timing and memory:
//   BenchOne <workload> <implementation> [runs]
// Prints the median and fastest time of the runs, the checksum, the resident memory before the
// runs and its peak during them (Linux: the peak is reset after the fixture is made, by writing
// 5 to /proc/self/clear_refs, and read from VmHWM in /proc/self/status), as one line:
//   cursorItems strata: median 812.31 ms, min 800.02 ms over 3 runs, checksum 123, rss 20.1 MB, peak 22.4 MB
//   BenchOne --sizes
// prints each workload's rows per run ("fetchItems 200000"), for the report's per-row figures.
let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--sizes" {
    for workload in Workload.allCases { print(workload.rawValue, workload.rows) }
    exit(0)
}
guard arguments.count >= 3, let workload = Workload(rawValue: arguments[1]),
    let implementation = Implementation(rawValue: arguments[2])
else {
    print("usage: BenchOne <\(Workload.allCases.map(\.rawValue).joined(separator: "|"))> <\(Implementation.allCases.map(\.rawValue).joined(separator: "|"))> [runs]")
    exit(2)
}
guard implementation.implements(workload) else {
    print("\(workload.rawValue) \(implementation.rawValue): not measured")
    exit(0)
}
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1
let fixture = try Fixture(for: [workload])
defer { fixture.remove() }
let runner = try makeRunner(implementation, fixture: fixture)

/// A field of /proc/self/status in MB (VmRSS, VmHWM), or nil off Linux.
func statusMB(_ field: String) -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
        return kilobytes.map { $0 / 1024 }
    }
    return nil
}

try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
let rssBefore = statusMB("VmRSS")
var times: [Double] = []
var checksum = 0
for _ in 0..<runs {
    try runner.prepare(workload)
    let start = DispatchTime.now().uptimeNanoseconds
    checksum = try runner.run(workload)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}
let peak = statusMB("VmHWM")
times.sort()
let memory = [rssBefore.map { String(format: "rss %.1f MB", $0) }, peak.map { String(format: "peak %.1f MB", $0) }].compactMap { $0 }
print(
    "\(workload.rawValue) \(implementation.rawValue): median \(String(format: "%.2f", times[times.count / 2])) ms, "
        + "min \(String(format: "%.2f", times[0])) ms over \(runs) runs, checksum \(checksum)"
        + (memory.isEmpty ? "" : ", " + memory.joined(separator: ", ")))
